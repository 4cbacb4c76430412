"""A line of text on a card: cut into runs of one font each, the runs put in the order the eye
reads them, each shaped by libraqm (HarfBuzz and FriBiDi, through Pillow), measured and drawn.

Pillow shapes and orders one run of one font; a line whose characters need several fonts (a
Persian label with Latin digits, a name in Latin and Chinese) is ordered here, run by run, with
the Unicode Bidirectional Algorithm's rules for levels and reversal (UAX #9, L2), simplified to
whole runs: a run is right to left if it holds an Arabic or Hebrew letter, left to right if it
holds another letter or a digit, and a run of spaces and signs takes its neighbours' direction
when they agree, the line's otherwise. Names are arbitrary text, so they are cleaned first:
direction overrides and other invisible controls go (they would reorder the card around them),
and a name too long for its place is cut with "…".
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageDraw

from bot.play.cards.fonts import SHAPING, Face, face_for

NAME_LIMIT = 64  # characters of a name looked at (Telegram's first and last name: 64 each)
ELLIPSIS = "…"
JOINERS = {"\u200c", "\u200d"}  # zero-width non-joiner and joiner: Persian and Indic spelling
RTL_CLASSES = {"R", "AL"}


def clean(text: str) -> str:
    """Text as a card may draw it: NFC, no control or format character but the joiners (no
    direction override, isolate or mark, no zero-width space), spaces collapsed."""
    kept = (char for char in unicodedata.normalize("NFC", text)
            if char in JOINERS or unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co"))
    return " ".join("".join(kept).split())


def name_text(name: str) -> str:
    """A player's name cleaned and bounded (it is cut to its place when drawn)."""
    cleaned = clean(name[:NAME_LIMIT * 4])
    return cleaned if len(cleaned) <= NAME_LIMIT else cleaned[:NAME_LIMIT].rstrip() + ELLIPSIS


def _follows(char: str) -> bool:
    """A character drawn with the one before it: a combining mark, a joiner or a variation
    selector."""
    return (char in JOINERS or unicodedata.category(char) in ("Mn", "Mc", "Me")
            or 0xFE00 <= ord(char) <= 0xFE0F)


@lru_cache(maxsize=8192)
def _face_of(char: str, language: str, weight: str) -> Face | None:
    return face_for(char, language, weight)


@dataclass(frozen=True)
class Run:
    """Characters drawn with one face, in logical order, and their direction."""

    text: str
    face: Face
    direction: str | None  # "rtl", "ltr", or None: spaces and signs only


def _direction(text: str) -> str | None:
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in RTL_CLASSES:
            return "rtl"
        if kind in ("L", "EN", "AN"):
            return "ltr"
    return None


def runs(text: str, language: str, weight: str) -> list[Run]:
    """The text cut into runs of one face, each space a run of its own (it is only an advance,
    so no shaping puts it on the wrong side of a word); characters no font has are left out."""
    pieces: list[tuple[list[str], Face]] = []
    for char in text:
        last = pieces[-1][0][-1] if pieces else ""
        if last and (_follows(char) or (char.isspace() and last.isspace())):
            pieces[-1][0].append(char)
            continue
        face = _face_of(" " if char.isspace() else char, language, weight)
        if face is None:
            continue
        if pieces and pieces[-1][1] == face and not (char.isspace() or last.isspace()):
            pieces[-1][0].append(char)
        else:
            pieces.append(([char], face))
    return [Run(text, face, _direction(text)) for text, face in
            (("".join(chars), face) for chars, face in pieces)]


def visual(line: list[Run], rtl: bool) -> list[tuple[Run, str]]:
    """The runs in the order they are drawn, left to right, each with the direction it is
    shaped in (the line's direction `rtl` is that of its first letter, else the card's)."""
    own = [run.direction for run in line]
    resolved = []
    for at, direction in enumerate(own):
        if direction is None:  # a neutral run: its neighbours' direction if they agree
            before = next((d for d in reversed(own[:at]) if d), None)
            after = next((d for d in own[at + 1:] if d), None)
            direction = before if before == after and before else ("rtl" if rtl else "ltr")
        resolved.append(direction)
    base = 1 if rtl else 0
    levels = [base + (1 if (d == "rtl") != rtl else 0) for d in resolved]
    order = list(range(len(line)))
    lowest_odd = min((lvl for lvl in levels if lvl % 2), default=None)
    if lowest_odd is not None:
        for level in range(max(levels), lowest_odd - 1, -1):  # UAX #9, L2
            at = 0
            while at < len(order):
                if levels[order[at]] >= level:
                    end = at
                    while end < len(order) and levels[order[end]] >= level:
                        end += 1
                    order[at:end] = order[at:end][::-1]
                    at = end
                else:
                    at += 1
    return [(line[n], resolved[n]) for n in order]


def _language_tag(language: str) -> str:
    return {"zh-Hant": "zh-Hant", "pt-BR": "pt"}.get(language, language)


@dataclass(frozen=True)
class Line:
    """A line laid out at one size: its runs in drawing order, each with its width."""

    pieces: tuple[tuple[Run, str, int], ...]
    size: int
    language: str

    @property
    def width(self) -> int:
        return sum(width for _, _, width in self.pieces)

    def draw(self, draw: ImageDraw.ImageDraw, x: float, baseline: float, fill: str) -> None:
        """Drawn from its left edge at `x`, its letters on `baseline`."""
        for run, direction, width in self.pieces:
            font = run.face.font(self.size)
            if run.text.isspace():
                pass
            elif SHAPING:
                draw.text((x, baseline), run.text, font=font, fill=fill, anchor="ls",
                          direction=direction, language=_language_tag(self.language))
            else:  # no libraqm: unshaped letters, at least in their order
                text = run.text[::-1] if direction == "rtl" else run.text
                draw.text((x, baseline), text, font=font, fill=fill, anchor="ls")
            x += width


def _width(run: Run, direction: str, size: int, language: str) -> int:
    font = run.face.font(size)
    if not SHAPING:
        return round(font.getlength(run.text))
    return round(font.getlength(run.text, direction=direction,
                                language=_language_tag(language)))


def line(text: str, language: str, size: int, rtl: bool, weight: str = "Regular") -> Line:
    """The text laid out as one line, its direction that of its first letter (else `rtl`)."""
    logical = runs(text, language, weight)
    first = next((run.direction for run in logical if run.direction), None)
    ordered = visual(logical, first == "rtl" if first else rtl)
    return Line(tuple((run, direction, _width(run, direction, size, language))
                      for run, direction in ordered), size, language)


def fitted(text: str, language: str, size: int, rtl: bool, room: int,
           weight: str = "Regular", smallest: int | None = None) -> Line:
    """The text at the largest size down to `smallest` (two thirds of `size` unless given) that
    fits `room` pixels; cut with "…" at that size if it still does not."""
    smallest = smallest or size * 2 // 3
    for at in range(size, smallest - 1, -max(1, size // 12)):
        laid = line(text, language, at, rtl, weight)
        if laid.width <= room:
            return laid
    keep = len(text)
    while keep > 0:
        keep = _cut(text, keep - 1)
        laid = line(text[:keep].rstrip() + ELLIPSIS, language, smallest, rtl, weight)
        if laid.width <= room:
            return laid
    return line(ELLIPSIS, language, smallest, rtl, weight)


def _cut(text: str, at: int) -> int:
    """A place at or before `at` that does not part a letter from its marks or joiner."""
    while at > 0 and _follows(text[at]) and not text[at].isspace():
        at -= 1
    return at
