"""Telegram's HTML parse mode, read as strictly as Telegram reads it, and shown in a terminal.

`visible_text` is what the Bot API emulator checks every HTML message with: only the tags Telegram
knows, properly nested, only its four named entities; it returns the text a chat shows, whose length
is what the 4096 limit counts. `terminal_text` renders the same markup for the demo's terminal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

ALLOWED = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a",
           "code", "pre", "blockquote", "tg-emoji"}
# Telegram's four named entities (bot.text.markup reads them back too)
ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
# an "&" must start one of the named entities above or a numeric one
_BAD_AMPERSAND = re.compile(r"&(?!(?:lt|gt|amp|quot|#[0-9]+|#[xX][0-9a-fA-F]+);)")

ANSI_RESET = "\x1b[0m"
ANSI_STYLES = {"b": "1", "strong": "1", "i": "3", "em": "3", "u": "4", "ins": "4", "s": "9",
               "strike": "9", "del": "9"}


class EntityError(ValueError):
    """What Telegram answers with "Bad Request: can't parse entities: ..."."""


@dataclass(frozen=True)
class Piece:
    """A run of text with the tags it sits in (innermost last); a link's address, which the chat
    does not show but a terminal does, has `in_chat` False."""

    text: str
    tags: tuple[str, ...]
    in_chat: bool = True


class _Reader(HTMLParser):
    """Splits Telegram HTML into pieces of text; EntityError wherever Telegram would refuse it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.pieces: list[Piece] = []
        self.links: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED:
            raise EntityError(f"Unsupported start tag \"{tag}\"")
        if tag == "span" and ("class", "tg-spoiler") not in attrs:
            raise EntityError("Unsupported span without class tg-spoiler")
        if tag == "a":
            self.links.append(dict(attrs).get("href"))
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            raise EntityError(f"Can't find end tag corresponding to start tag \"{tag}\"")
        self.stack.pop()
        if tag == "a":
            href = self.links.pop()
            if href and not href.startswith("tg://"):
                self.pieces.append(Piece(f" ({href})", (), in_chat=False))

    def handle_data(self, data: str) -> None:
        if "<" in data or ">" in data:
            raise EntityError("Unexpected character")
        self._add(data)

    def handle_entityref(self, name: str) -> None:
        if name not in ENTITIES:
            raise EntityError(f"Unsupported entity \"&{name};\"")
        self._add(ENTITIES[name])

    def handle_charref(self, name: str) -> None:
        try:
            code = int(name[1:], 16) if name.lower().startswith("x") else int(name)
            self._add(chr(code))
        except (ValueError, OverflowError):
            raise EntityError(f"Unsupported entity \"&#{name};\"") from None

    def handle_comment(self, data: str) -> None:
        raise EntityError("Unsupported start tag \"!--\"")

    def handle_decl(self, decl: str) -> None:
        raise EntityError("Unsupported start tag \"!\"")

    def handle_pi(self, data: str) -> None:
        raise EntityError("Unsupported start tag \"?\"")

    def _add(self, text: str) -> None:
        self.pieces.append(Piece(text, tuple(self.stack)))


def pieces(html_text: str) -> list[Piece]:
    """The visible pieces of a Telegram HTML text, or EntityError."""
    if _BAD_AMPERSAND.search(html_text):
        raise EntityError("Unsupported entity")
    reader = _Reader()
    reader.feed(html_text)
    reader.close()
    if reader.stack:
        raise EntityError(f"Can't find end tag corresponding to start tag \"{reader.stack[-1]}\"")
    return reader.pieces


def visible_text(html_text: str) -> str:
    """The text Telegram shows, or EntityError."""
    return "".join(piece.text for piece in pieces(html_text) if piece.in_chat)


def terminal_text(html_text: str, ansi: bool = False) -> str:
    """The message for a terminal: entities unescaped, <code> as plain text, a link followed by its
    address; with `ansi`, bold, italic, underline and strike-through as ANSI styles."""
    shown = []
    for piece in pieces(html_text):
        codes = sorted({ANSI_STYLES[tag] for tag in piece.tags if tag in ANSI_STYLES})
        if ansi and codes:
            shown.append(f"\x1b[{';'.join(codes)}m{piece.text}{ANSI_RESET}")
        else:
            shown.append(piece.text)
    return "".join(shown)


assert visible_text("<b>8÷(3−8÷3)</b> &lt;ok&gt; &#215;") == "8÷(3−8÷3) <ok> ×"
assert terminal_text("<b>24</b> <code>3</code>", ansi=True) == "\x1b[1m24\x1b[0m 3"
