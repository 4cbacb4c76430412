"""Telegram HTML for the bot's replies: escaping, numbers and expressions in <code>, dice, length.

Whatever a user typed passes through `escape` (or a helper that calls it) before it reaches a
message; expressions are shown with × ÷ − for * / -; nothing exceeds Telegram's 4096 characters,
counted as Telegram counts them (see `visible_length`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape

from bot.text.html_text import ENTITIES
from solver import prettify

LIMIT = 4096
DICE = "⚀⚁⚂⚃⚄⚅"
MORE = "…"  # ends a clipped message, on a line of its own
# a tag, an entity, or a run of text (our HTML: every user text escaped, tags well nested)
HTML_TOKEN = re.compile(r"<[^>]*>|&#?\w+;|[^<&]+|[<&]")

__all__ = ["clip", "code", "dice", "escape", "expression", "name", "numbers", "preformatted",
           "signed", "value", "visible_length"]


def utf16_length(text: str) -> int:
    """Telegram's unit of length: UTF-16 code units (an emoji past U+FFFF counts two). Counted
    by the codec, not a character at a time: every message passes through here."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _shown(entity: str) -> str:
    """What an entity shows: one character."""
    body = entity[1:-1]
    if body.startswith("#"):
        try:
            return chr(int(body[2:], 16) if body[1:2] in "xX" else int(body[1:]))
        except (ValueError, OverflowError):
            return entity
    return ENTITIES.get(body, entity)


def visible_length(message: str) -> int:
    """The length Telegram limits: of the text after entity parsing (tags count nothing, an
    entity counts as the character it stands for), in UTF-16 code units."""
    total = 0
    for token in HTML_TOKEN.findall(message):
        if token.startswith("<") and token.endswith(">"):
            continue
        total += utf16_length(_shown(token) if token.startswith("&") and token.endswith(";")
                              else token)
    return total


def clip(message: str) -> str:
    """Never more than Telegram accepts: whole lines up to the limit, then a line with "…",
    with every tag still open at the cut closed (a long <pre> table stays a table)."""
    if utf16_length(message) <= LIMIT or visible_length(message) <= LIMIT:
        return message  # the raw HTML is a quick upper bound of what Telegram counts
    room = LIMIT - utf16_length("\n" + MORE)
    shown = 0
    open_tags: list[str] = []
    last_line: tuple[int, list[str]] | None = None  # where the last whole line that fits ends
    word_cut: tuple[int, list[str]] | None = None  # in case even the first line does not fit
    position = 0
    for token in HTML_TOKEN.findall(message):
        if token.startswith("<") and token.endswith(">"):
            _follow(token, open_tags)
            position += len(token)
            continue
        is_entity = token.startswith("&") and token.endswith(";")
        for unit in [token] if is_entity else list(token):  # an entity is never split
            if unit == "\n":
                last_line = (position, list(open_tags))
            width = utf16_length(_shown(unit) if is_entity else unit)
            if shown + width > room:
                return _cut(message, last_line or word_cut or (position, open_tags))
            shown += width
            position += len(unit)
            word_cut = (position, list(open_tags))
    return message  # within the limit after all


def _follow(tag: str, open_tags: list[str]) -> None:
    """Keep the stack of open tags up to date."""
    name = re.match(r"</?\s*([\w-]+)", tag)
    if name is None or tag.endswith("/>"):
        return
    if tag.startswith("</"):
        if open_tags and open_tags[-1] == name.group(1).lower():
            open_tags.pop()
    else:
        open_tags.append(name.group(1).lower())


def _cut(message: str, at: tuple[int, list[str]]) -> str:
    position, open_tags = at
    closing = "".join(f"</{tag}>" for tag in reversed(open_tags))
    return message[:position].rstrip("\n") + closing + "\n" + MORE


def expression(text: str) -> str:
    """An expression for display: × ÷ − and HTML-escaped (the caller adds <code>)."""
    return escape(prettify(text))


def code(text: str) -> str:
    """An expression in <code>, ready to send."""
    return f"<code>{expression(text)}</code>"


def typed(text: str) -> str:
    """Something to type as it stands (a command with its arguments), in <code>: escaped,
    never prettified (an expression's `/` stays the slash of a command)."""
    return f"<code>{escape(text)}</code>"


def numbers(values: Iterable[int]) -> str:
    """Each number in its own <code>, in the order given."""
    return " ".join(f"<code>{n}</code>" for n in values)


def signed(value: object) -> str:
    """A number or value ("-6", "-3/2") as shown in text: with a minus sign (U+2212), not a
    hyphen."""
    return str(value).replace("-", "−")


def value(text: object) -> str:
    """An exact value ("-13/3") as shown in text, with the signs expressions use: "−13÷3"
    (one division sign in a message), HTML-escaped."""
    return escape(signed(text).replace("/", "÷"))


def name(first_name: str | None) -> str:
    return escape(first_name or "?")


def dice(roll: Sequence[int]) -> str:
    """A roll of dice as faces and digits: ⚀⚁⚁⚄⚅ (1 2 2 5 6)."""
    faces = "".join(DICE[d - 1] for d in roll)
    return f"{faces} <code>{' '.join(map(str, roll))}</code>"


def preformatted(lines: Iterable[str]) -> str:
    """Lines in a <pre> block (escaped), for tables that need a fixed-width font."""
    return "<pre>" + escape("\n".join(lines)) + "</pre>"
