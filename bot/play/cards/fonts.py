"""The fonts a card draws with, found by path at run time, and which of them has a character.

Pillow draws a run of text with one font and shows a box for any character that font lacks, so
the card picks a font per character: the language's own first (Arabic, Devanagari, Chinese), then
Noto Sans, then any other Noto face installed (a player's name may be in any script), DejaVu last.
The fonts are Debian's packages (`fonts-noto-core`, `fonts-noto-cjk`; `fonts-dejavu-core` is the
fallback); which character a font has is read from its own `cmap` table, since Pillow does not say.
A character no installed font has is left out of the card: never a box, never an error.
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import ImageFont, features

FONT_ROOTS = (Path("/usr/share/fonts/truetype/noto"), Path("/usr/share/fonts/opentype/noto"),
              Path("/usr/share/fonts/truetype/dejavu"))
# the face of each writing system, by file name in FONT_ROOTS (and the face's index in a .ttc,
# named: Noto CJK holds Japanese, Korean, Simplified and Traditional Chinese faces in one file)
LATIN = ("NotoSans-{weight}.ttf", "")
ARABIC = ("NotoSansArabic-{weight}.ttf", "")
DEVANAGARI = ("NotoSansDevanagari-{weight}.ttf", "")
SIMPLIFIED = ("NotoSansCJK-{weight}.ttc", "Noto Sans CJK SC")
TRADITIONAL = ("NotoSansCJK-{weight}.ttc", "Noto Sans CJK TC")
FALLBACK = ("DejaVuSans{dejavu}.ttf", "")  # fonts-dejavu-core: Latin, Cyrillic, Greek, Arabic
# each language's faces, best first; every list ends with Latin and the Chinese faces, so that a
# player's name in Latin or Chinese letters draws on any card
OWN_FACES = {"ar": (ARABIC,), "fa": (ARABIC,), "hi": (DEVANAGARI,), "zh": (SIMPLIFIED,),
             "zh-Hant": (TRADITIONAL,)}
COMMON_FACES = (LATIN, SIMPLIFIED, ARABIC, DEVANAGARI)
# libraqm shapes and orders a run (HarfBuzz, FriBiDi); without it Arabic letters are unjoined
SHAPING = features.check("raqm")
LAYOUT = ImageFont.Layout.RAQM if SHAPING else ImageFont.Layout.BASIC
WEIGHTS = {"Regular": "", "Bold": "-Bold"}  # Noto's weight name -> DejaVu's file suffix


@dataclass(frozen=True)
class Face:
    """A font file and the face in it (a collection's index)."""

    path: Path
    index: int = 0

    def font(self, size: int) -> ImageFont.FreeTypeFont:
        return _font(self.path, self.index, size)


@cache
def _font(path: Path, index: int, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size, index=index, layout_engine=LAYOUT)


class Coverage:
    """The characters a face maps, as sorted ranges (read once from its cmap)."""

    def __init__(self, ranges: list[tuple[int, int]]) -> None:
        ranges.sort()
        self.starts = [start for start, _ in ranges]
        self.ends = [end for _, end in ranges]

    def __contains__(self, char: str) -> bool:
        code = ord(char)
        at = bisect.bisect_right(self.starts, code) - 1
        return at >= 0 and code <= self.ends[at]


def _tables(data: bytes, index: int) -> dict[bytes, int]:
    """Where each table of the face starts in the file."""
    offset = struct.unpack_from(">I", data, 12 + 4 * index)[0] if data[:4] == b"ttcf" else 0
    count = struct.unpack_from(">H", data, offset + 4)[0]
    records = (struct.unpack_from(">4s4xI4x", data, offset + 12 + 16 * n) for n in range(count))
    return dict(records)


def _ranges(data: bytes, at: int) -> Iterator[tuple[int, int]]:
    """The code point ranges of a cmap subtable of format 4 or 12 (what fonts use for Unicode);
    a range whose glyphs are looked up indirectly (format 4) is taken as mapped."""
    fmt = struct.unpack_from(">H", data, at)[0]
    if fmt == 12:
        groups = struct.unpack_from(">I", data, at + 12)[0]
        for n in range(groups):
            yield struct.unpack_from(">II", data, at + 16 + 12 * n)
    elif fmt == 4:
        segments = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{segments}H", data, at + 14)
        starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
        yield from ((start, end) for start, end in zip(starts, ends, strict=True)
                    if start != 0xFFFF)


# Unicode subtables, best first: (platform, encoding) of format 12 (every plane), then of format 4
UNICODE_TABLES = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3))


@cache
def coverage(face: Face) -> Coverage:
    """The characters a face has, from its cmap's best Unicode subtable."""
    data = face.path.read_bytes()
    cmap = _tables(data, face.index)[b"cmap"]
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    subtables = {struct.unpack_from(">HH", data, cmap + 4 + 8 * n):
                 cmap + struct.unpack_from(">I", data, cmap + 8 + 8 * n)[0] for n in range(count)}
    for key in UNICODE_TABLES:
        if key in subtables:
            return Coverage(list(_ranges(data, subtables[key])))
    return Coverage([])


def _find(name: str) -> Path | None:
    for root in FONT_ROOTS:
        if (root / name).is_file():
            return root / name
    return None


@cache
def _face(pattern: tuple[str, str], weight: str) -> Face | None:
    """An installed face of a writing system, or None."""
    file, family = pattern
    path = _find(file.format(weight=weight, dejavu=WEIGHTS[weight]))
    if path is None or not family:
        return None if path is None else Face(path)
    for index in range(16):  # a collection's faces, by family name
        try:
            name, _style = ImageFont.truetype(str(path), 10, index=index).getname()
        except OSError:
            return None
        if name == family:
            return Face(path, index)
    return None


@cache
def others(weight: str) -> tuple[Face, ...]:
    """Every other Noto Sans face installed, of the weight and then of the regular weight (many
    scripts have no bold), for names in other scripts; DejaVu Sans last. Looked at only for a
    character none of the usual faces has."""
    root = FONT_ROOTS[0]
    found = [path for kind in dict.fromkeys((weight, "Regular"))
             for path in (sorted(root.glob(f"NotoSans*-{kind}.ttf")) if root.is_dir() else [])]
    fallback = _face(FALLBACK, weight)
    return tuple(Face(path) for path in found) + ((fallback,) if fallback else ())


@cache
def faces(language: str, weight: str) -> tuple[Face, ...]:
    """The faces a language's card draws with, best first (those installed)."""
    wanted = (*OWN_FACES.get(language, ()), *COMMON_FACES, FALLBACK)
    found = (_face(pattern, weight) for pattern in dict.fromkeys(wanted))
    return tuple(face for face in found if face is not None)


def face_for(char: str, language: str, weight: str) -> Face | None:
    """The best face that has the character, or None when no installed font has it."""
    for face in faces(language, weight):
        if char in coverage(face):
            return face
    return next((face for face in others(weight) if char in coverage(face)), None)


def missing() -> list[str]:
    """The writing systems with no face installed (a card then leaves their letters out)."""
    named = {"Latin": LATIN, "Arabic": ARABIC, "Devanagari": DEVANAGARI,
             "Simplified Chinese": SIMPLIFIED, "Traditional Chinese": TRADITIONAL}
    return [name for name, pattern in named.items() if _face(pattern, "Regular") is None]
