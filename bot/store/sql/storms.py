"""Storms, as both databases store them: a row a storm, the hand it plays, what it solved and
missed and when its clock runs out; and each person's best storm of a period (a day, a season),
kept as each storm ends, which the boards read (bot.store.sql.solo_bests)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.records import SoloBest, Storm
from bot.store.sql.connection import Connection, Refused, numbered_table
from bot.store.sql.solo_bests import (
    best_of,
    board_of,
    group_board_of,
    keep_of,
    read_best,
    read_board,
)

STORM_COLUMNS = "id, user_id, chat_id, round_id, solved, missed, lang, started_at, ends_at, status"


@dataclass(frozen=True)
class StormStatements:
    open_storm: str
    storm_on: str
    storms_on: str
    play_hand: str
    hand_done: str
    end_storm: str
    keep_best: str
    best_storm: str
    board: str
    group_board: str


QMARK = StormStatements(
    open_storm="INSERT INTO storms (user_id, chat_id, lang, started_at, ends_at) "
               "VALUES (?, ?, ?, ?, ?)",
    storm_on=f"SELECT {STORM_COLUMNS} FROM storms WHERE user_id = ? AND status = 'on'",
    storms_on=f"SELECT {STORM_COLUMNS} FROM storms WHERE status = 'on' ORDER BY +id",
    play_hand="UPDATE storms SET round_id = ? WHERE id = ? AND status = 'on' "
              "AND round_id IS NULL",
    # guarded by the hand: a result said again counts it once; the clock moved by `shift`
    hand_done="UPDATE storms SET solved = solved + ?, missed = missed + ?, ends_at = ends_at + ?, "
              "round_id = NULL WHERE id = ? AND round_id = ? AND status = 'on'",
    end_storm="UPDATE storms SET status = ?, ended_at = ?, round_id = NULL "
              "WHERE id = ? AND status = 'on'",
    keep_best=keep_of("storm", "storms"),
    best_storm=best_of("storm"),
    board=board_of("storm"),
    group_board=group_board_of("storm"),
)
NUMBERED = numbered_table(QMARK)


class Storms:
    def __init__(self, db: Connection, sql: StormStatements) -> None:
        self.db = db
        self.sql = sql

    async def open_storm(self, user_id: int, chat_id: int, lang: str, at: float,
                         ends_at: float) -> Storm | None:
        """A new storm whose clock runs out at `ends_at`, or None when the person has one on."""
        try:
            storm_id = await self.db.insert(self.sql.open_storm,
                                            (user_id, chat_id, lang, at, ends_at))
        except Refused:
            return None
        return Storm(storm_id, user_id, chat_id, None, 0, 0, lang, at, ends_at, "on")

    async def storm_on(self, user_id: int) -> Storm | None:
        rows = await self.db.fetch(self.sql.storm_on, (user_id,))
        return Storm(*rows[0]) if rows else None

    async def storms_on(self) -> list[Storm]:
        return [Storm(*row) for row in await self.db.fetch(self.sql.storms_on)]

    async def play_hand(self, storm_id: int, round_id: int) -> bool:
        """The storm's next hand is this round; False if it ended, or plays one already."""
        return await self.db.run(self.sql.play_hand, (round_id, storm_id)) == 1

    async def hand_done(self, storm_id: int, round_id: int, solved: bool, missed: bool,
                        shift: float) -> bool:
        """The hand `round_id` ended (solved, missed, or neither: its time ran out) and the
        clock moves by `shift` seconds; False if it was counted already (or is not the storm's
        hand, or the storm ended)."""
        return await self.db.run(self.sql.hand_done, (int(solved), int(missed), shift,
                                                      storm_id, round_id)) == 1

    async def end_storm(self, storm_id: int, status: str, at: float,
                        periods: Sequence[str] = ()) -> bool:
        """End a storm ('over': its clock ran out; 'stopped') and keep its score as its
        person's best of each of `periods` (those it began in) where it is better, in one
        transaction; False if it had ended already (nothing written)."""
        return await self.db.run_guarded(
            (self.sql.end_storm, (status, at, storm_id)),
            [(self.sql.keep_best, (period, storm_id)) for period in periods])

    async def best_storm(self, user_id: int, period: str) -> int:
        """The most hands one of the person's storms of the period solved (0: none)."""
        return await read_best(self.db, self.sql.best_storm, user_id, period)

    async def board(self, period: str, limit: int, chat_id: int | None = None
                    ) -> list[SoloBest]:
        """Each person's best storm of the period, the best first: everyone's, or those of
        the people who play in the group `chat_id`."""
        return await read_board(self.db, self.sql.board, self.sql.group_board, period, limit,
                                chat_id)
