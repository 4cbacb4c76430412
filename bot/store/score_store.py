"""The scores' store: boards and a player's record, kept by the database as rounds close; a
chat's reset and a person's erasure (what /resetscores and /forget delete)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store.records import Standing, Stats


@dataclass(frozen=True)
class Placing:
    """A player's line on a board: their place (1 = first), name, points and wins."""

    rank: int
    user_id: int
    name: str
    points: int
    wins: int


@dataclass(frozen=True)
class Board:
    """Which board: a chat's (None: every chat's), one game's (None: all games), from the
    rounds won since a moment (None: all time, from the scores table)."""

    chat_id: int | None = None
    game: str | None = None
    since: float | None = None


class ScoreStore(Protocol):
    """Scores per chat, player and game, kept by the database as rounds close."""

    async def top(self, chat_id: int | None, game: str | None = None,
                  limit: int = 10) -> list[Standing]: ...
    async def stats(self, chat_id: int, user_id: int) -> list[Stats]: ...
    async def board(self, board: Board, limit: int = 10) -> list[Placing]: ...
    async def placing(self, board: Board, user_id: int) -> Placing | None:
        """The player's line on the board (None: no points on it)."""
        ...


class ForgetStore(Protocol):
    """What deletes scores: one chat's (/resetscores), one person's everywhere (/forget). Each
    is one transaction, after which the scores are again what the rounds and answers left
    define (a late answer or a restart counts nothing back). A person's forget is noted before
    it begins and the note deleted when it ends, so one a kill interrupted is found and
    finished."""

    async def reset_chat(self, chat_id: int) -> None: ...
    async def note_forget(self, user_id: int, at: float) -> None: ...
    async def drop_open_private(self, user_id: int) -> None: ...
    async def unfinished_forgets(self) -> list[int]: ...
    async def forget_user(self, user_id: int) -> None: ...
