"""Telegram HTML for the bot's replies: escaping, numbers and expressions in <code>, dice, length.

Whatever a user typed passes through `escape` (or a helper that calls it) before it reaches a
message; expressions are shown with × ÷ − for * / -; nothing exceeds Telegram's 4096 characters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from solver import prettify

LIMIT = 4096
DICE = "⚀⚁⚂⚃⚄⚅"

__all__ = ["clip", "code", "dice", "escape", "expression", "name", "numbers", "preformatted"]


def clip(message: str) -> str:
    """Never more than Telegram accepts; cut at a line break when possible."""
    if len(message) <= LIMIT:
        return message
    cut = message.rfind("\n", 0, LIMIT - 2)
    return message[: cut if cut > 0 else LIMIT - 1] + "\n…"


def expression(text: str) -> str:
    """An expression for display: × ÷ − and HTML-escaped (the caller adds <code>)."""
    return escape(prettify(text))


def code(text: str) -> str:
    """An expression in <code>, ready to send."""
    return f"<code>{expression(text)}</code>"


def numbers(values: Iterable[int]) -> str:
    """Each number in its own <code>, in the order given."""
    return " ".join(f"<code>{n}</code>" for n in values)


def name(first_name: str | None) -> str:
    return escape(first_name or "?")


def dice(roll: Sequence[int]) -> str:
    """A roll of dice as faces and digits: ⚀⚁⚁⚄⚅ (1 2 2 5 6)."""
    faces = "".join(DICE[d - 1] for d in roll)
    return f"{faces} <code>{' '.join(map(str, roll))}</code>"


def preformatted(lines: Iterable[str]) -> str:
    """Lines in a <pre> block (escaped), for tables that need a fixed-width font."""
    return "<pre>" + escape("\n".join(lines)) + "</pre>"
