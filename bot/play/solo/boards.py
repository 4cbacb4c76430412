"""A solo mode's boards in words: each person's best of a period, ten lines a board, places shared
by equal scores — everyone's, or a group's own players'."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.play.words.places import shared_places
from bot.store.records import SoloBest
from bot.text import markup
from bot.text.i18n import Texts

SHOWN = 10  # the lines of each board


class Kept(Protocol):
    async def board(self, period: str, limit: int,
                    chat_id: int | None = None) -> list[SoloBest]: ...


async def boards_text(texts: Texts, kept: Kept, parts: Sequence[tuple[str, str]],
                      empty: str, chat_id: int | None) -> str:
    """The boards `parts` names ((its title's key, its period), each), one under the other:
    everyone's, or the group `chat_id`'s (each title's key + "_group"); `empty`, the key of a
    board with nobody on it yet."""
    shown = []
    for key, period in parts:
        rows = await kept.board(period, SHOWN, chat_id)
        shown.append("\n".join([texts(key if chat_id is None else f"{key}_group"),
                                *board_lines(texts, rows, empty)]))
    return markup.clip("\n\n".join(shown))


def board_lines(texts: Texts, rows: list[SoloBest], empty: str) -> list[str]:
    """A board's lines, places shared by equal scores (none yet: a line that says so)."""
    if not rows:
        return [texts(empty)]
    places = shared_places([row.solved for row in rows])
    return [texts("storm_line", rank=place, name=markup.name(row.name), solved=row.solved)
            for place, row in zip(places, rows, strict=True)]
