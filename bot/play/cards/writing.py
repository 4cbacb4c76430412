"""A line of text on a card: cut into runs of one font and one direction, the runs put in the
order the eye reads them, each shaped by libraqm (HarfBuzz and FriBiDi, through Pillow),
measured and drawn.

Pillow shapes and orders one run of one font; a line whose characters need several fonts (a
Persian label with Latin digits, a name in Latin and Chinese) is ordered here with the Unicode
Bidirectional Algorithm's levels (bidi.py), each run handed to libraqm with its own direction.
Names are arbitrary text, so they are cleaned first: direction overrides and other invisible
controls go (they would reorder the card around them), and a name too long for its place is cut
with "…".
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageDraw

from bot.play.cards import bidi
from bot.play.cards.fonts import SHAPING, Face, face_for

NAME_LIMIT = 64  # characters of a name looked at (Telegram's first and last name: 64 each)
ELLIPSIS = "…"
JOINERS = {"\u200c", "\u200d"}  # zero-width non-joiner and joiner: Persian and Indic spelling


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
    """Characters drawn with one face at one embedding level (bidi.py), in logical order."""

    text: str
    face: Face
    level: int

    @property
    def direction(self) -> str:
        return "rtl" if self.level % 2 else "ltr"


def runs(text: str, language: str, weight: str, rtl: bool) -> list[Run]:
    """The text of a line of direction `rtl` cut into runs of one face and one level, each space
    a run of its own (only an advance, so no shaping puts it on the wrong side of a word);
    characters no font has are left out."""
    kept: list[tuple[str, Face]] = []
    for char in text:
        if kept and _follows(char):  # with its letter, in its letter's face
            kept.append((char, kept[-1][1]))
            continue
        face = _face_of(" " if char.isspace() else char, language, weight)
        if face is not None:
            kept.append((char, face))
    pieces: list[tuple[tuple[Face, int, bool], list[str]]] = []
    levels = bidi.levels("".join(char for char, _ in kept), rtl)
    for (char, face), level in zip(kept, levels, strict=True):
        key = (face, level, char.isspace())
        if pieces and pieces[-1][0] == key:
            pieces[-1][1].append(char)
        else:
            pieces.append((key, [char]))
    return [Run("".join(chars), face, level) for (face, level, _), chars in pieces]


def _language_tag(language: str) -> str:
    """The language as HarfBuzz takes it (it picks a script's local forms by it)."""
    return {"pt-BR": "pt"}.get(language, language)


@dataclass(frozen=True)
class Line:
    """A line laid out at one size: its runs in drawing order, left to right, with widths."""

    pieces: tuple[tuple[Run, int], ...]
    size: int
    language: str

    @property
    def width(self) -> int:
        return sum(width for _, width in self.pieces)

    @property
    def text(self) -> str:
        """What is drawn, run by run in drawing order."""
        return "".join(run.text for run, _ in self.pieces)

    def draw(self, draw: ImageDraw.ImageDraw, x: float, baseline: float, fill: str) -> None:
        """Drawn from its left edge at `x`, its letters on `baseline`."""
        for run, width in self.pieces:
            font = run.face.font(self.size)
            if run.text.isspace():
                pass
            elif SHAPING:
                draw.text((x, baseline), run.text, font=font, fill=fill, anchor="ls",
                          direction=run.direction, language=_language_tag(self.language))
            else:  # no libraqm: unshaped letters, at least in their order
                text = run.text[::-1] if run.level % 2 else run.text
                draw.text((x, baseline), text, font=font, fill=fill, anchor="ls")
            x += width


def _width(run: Run, size: int, language: str) -> int:
    font = run.face.font(size)
    if not SHAPING:
        return round(font.getlength(run.text))
    return round(font.getlength(run.text, direction=run.direction,
                                language=_language_tag(language)))


def line(text: str, language: str, size: int, rtl: bool, weight: str = "Regular") -> Line:
    """The text laid out as one line, its direction that of its first letter (else `rtl`)."""
    logical = runs(text, language, weight, bidi.is_rtl(text, rtl))
    drawn = (logical[at] for at in bidi.order([run.level for run in logical]))
    return Line(tuple((run, _width(run, size, language)) for run in drawn), size, language)


def fitted(text: str, language: str, size: int, rtl: bool, room: int,
           weight: str = "Regular", smallest: int | None = None) -> Line:
    """The text at the largest size down to `smallest` (two thirds of `size` unless given) that
    fits `room` pixels; cut with "…" at that size if it still does not."""
    smallest = smallest or size * 2 // 3
    for at in range(size, smallest - 1, -max(1, size // 12)):
        laid = line(text, language, at, rtl, weight)
        if laid.width <= room:
            return laid
    fits, low, high = line(ELLIPSIS, language, smallest, rtl, weight), 0, len(text)
    while low < high:  # the longest start of the text that fits with "…" after it
        middle = (low + high + 1) // 2
        cut = _cut(text, middle)
        laid = line(text[:cut].rstrip() + ELLIPSIS, language, smallest, rtl, weight)
        if cut and laid.width <= room:
            fits, low = laid, middle
        else:
            high = middle - 1
    return fits


def _cut(text: str, at: int) -> int:
    """A place at or before `at` that does not part a letter from its marks or joiner."""
    while 0 < at < len(text) and _follows(text[at]):
        at -= 1
    return at
