"""The card's sheet: a 1200×630 picture (a link preview's shape) in the Mini App's colours, with
rounded tiles and lines of text placed by their start, so that one layout serves both
directions: in a right-to-left language every box is mirrored and its text starts on its right.
"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw

from bot.play.cards.writing import Line

WIDTH, HEIGHT = 1200, 630
MARGIN = 60
# the Mini App's light theme (bot/webapp/static/app.css)
BACKGROUND = "#ffffff"
TEXT = "#000000"
HINT = "#707579"
BLUE = "#3390ec"
TILE = "#f1f1f4"
GOOD = "#2e7d32"
BAD = "#e53935"
FACE_DOWN = "#dbe9fb"  # a tile whose number is not shown yet: the blue, pale
WHITE = "#ffffff"
SMOOTH = 4  # a tile's corners are drawn this many times larger, then shrunk: no jagged edge


@cache
def _corners(width: int, height: int, radius: int) -> Image.Image:
    """A rounded rectangle's mask, smoothed."""
    big = Image.new("L", (width * SMOOTH, height * SMOOTH), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, width * SMOOTH - 1, height * SMOOTH - 1),
                                          radius * SMOOTH, fill=255)
    return big.resize((width, height), Image.Resampling.LANCZOS)


class Canvas:
    """A card being drawn; x is counted from the start side (the right in `rtl`)."""

    def __init__(self, rtl: bool) -> None:
        self.rtl = rtl
        self.image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def _left(self, x: int, width: int) -> int:
        return WIDTH - x - width if self.rtl else x

    def tile(self, x: int, y: int, width: int, height: int, fill: str, radius: int = 20) -> None:
        """A rounded tile from `x` on the start side."""
        self.image.paste(fill, (self._left(x, width), y), _corners(width, height, radius))

    def band(self, y: int, height: int, fill: str) -> None:
        """A stripe across the card."""
        self.draw.rectangle((0, y, WIDTH, y + height - 1), fill=fill)

    def write(self, line: Line, x: int, baseline: int, fill: str, centred: int = 0) -> None:
        """A line from `x` on the start side, or centred in the `centred` pixels from there."""
        width = line.width
        if centred:
            x += (centred - width) // 2
        line.draw(self.draw, self._left(x, width), baseline, fill)

    def png(self) -> bytes:
        """The card as PNG bytes, in a palette of its own colours and the blends between them
        that smoothed edges make: a third of full colour's size, and no colour shifts as a
        palette the quantizer chose would make (a pale tile lost in the background)."""
        out = io.BytesIO()
        self.image.quantize(palette=_palette(), dither=Image.Dither.NONE).save(
            out, "PNG", compress_level=6)
        return out.getvalue()


# what is drawn on what: each pair's blends are in the palette
ON = ((TEXT, BACKGROUND), (HINT, BACKGROUND), (BLUE, BACKGROUND), (GOOD, BACKGROUND),
      (BAD, BACKGROUND), (TILE, BACKGROUND), (FACE_DOWN, BACKGROUND), (TEXT, TILE), (HINT, TILE),
      (BLUE, TILE), (BLUE, FACE_DOWN), (WHITE, BLUE))
STEPS = 20  # blends of each pair (the palette holds 256 colours)


def _rgb(colour: str) -> tuple[int, int, int]:
    red, green, blue = (int(colour[at:at + 2], 16) for at in (1, 3, 5))
    return red, green, blue


@cache
def _palette() -> Image.Image:
    colours: dict[tuple[int, ...], None] = {}
    for front, back in ON:
        one, other = _rgb(front), _rgb(back)
        for step in range(STEPS + 1):
            colours[tuple(round(a + (b - a) * step / STEPS) for a, b in zip(one, other,
                                                                          strict=True))] = None
    assert len(colours) <= 256
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in colours for value in colour])
    return palette
