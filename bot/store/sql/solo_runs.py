"""The runs of the solo modes (a streak, a storm), as both databases store them: a row a run, at
most one on per person (a unique index refuses a second), the hand it plays, ended once; its end
keeps its score as its person's best of the periods it began in (bot.store.sql.solo_bests), in
one transaction. What a mode counts at a hand's end, and its columns, are its own store's
(bot.store.sql.streaks, bot.store.sql.storms)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from bot.store.records import SoloBest
from bot.store.sql.connection import Connection, Refused
from bot.store.sql.solo_bests import read_board

ON = "SELECT {columns} FROM {table} WHERE user_id = ? AND status = 'on'"
ALL_ON = "SELECT {columns} FROM {table} WHERE status = 'on' ORDER BY +id"
PLAY_HAND = ("UPDATE {table} SET round_id = ? WHERE id = ? AND status = 'on' "
             "AND round_id IS NULL")


def on_of(table: str, columns: str) -> str:
    """The person's run on: (user)."""
    return ON.format(table=table, columns=columns)


def all_on_of(table: str, columns: str) -> str:
    """Every run on, the oldest first."""
    return ALL_ON.format(table=table, columns=columns)


def play_hand_of(table: str) -> str:
    """The run's next hand: (round, run); none while one is in play or once it ended."""
    return PLAY_HAND.format(table=table)


class RunStatements(Protocol):
    """What a mode's statements hold for its runs, each named the same."""

    @property
    def run_on(self) -> str: ...
    @property
    def runs_on(self) -> str: ...
    @property
    def play_hand(self) -> str: ...
    @property
    def end_run(self) -> str: ...
    @property
    def keep_best(self) -> str: ...
    @property
    def board(self) -> str: ...
    @property
    def group_board(self) -> str: ...


R = TypeVar("R")


class SoloRuns(Generic[R]):
    def __init__(self, db: Connection, sql: RunStatements, record: Callable[..., R]) -> None:
        self.db = db
        self.runs = sql
        self.record = record  # a row as read, in its columns' order

    async def _open(self, statement: str, values: tuple) -> int | None:
        """A new run's id, or None when the person has one on already."""
        try:
            return await self.db.insert(statement, values)
        except Refused:
            return None

    async def _on(self, user_id: int) -> R | None:
        rows = await self.db.fetch(self.runs.run_on, (user_id,))
        return self.record(*rows[0]) if rows else None

    async def _all_on(self) -> list[R]:
        return [self.record(*row) for row in await self.db.fetch(self.runs.runs_on)]

    async def play_hand(self, run_id: int, round_id: int) -> bool:
        """The run's next hand is this round; False if it ended, or plays one already."""
        return await self.db.run(self.runs.play_hand, (round_id, run_id)) == 1

    async def _end(self, run_id: int, status: str, at: float, periods: Sequence[str]) -> bool:
        """End a run and keep its score as its person's best of each of `periods` where it is
        better, in one transaction; False if it had ended already (nothing written)."""
        return await self.db.run_guarded(
            (self.runs.end_run, (status, at, run_id)),
            [(self.runs.keep_best, (period, run_id)) for period in periods])

    async def board(self, period: str, limit: int, chat_id: int | None = None
                    ) -> list[SoloBest]:
        """Each person's best run of the period, the best first (the earlier among equals):
        everyone's, or those of the people who play in the group `chat_id`."""
        return await read_board(self.db, self.runs.board, self.runs.group_board, period,
                                limit, chat_id)
