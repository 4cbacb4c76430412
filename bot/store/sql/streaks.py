"""Streaks, as both databases store them: a row a streak, the hand it plays and how many it
solved; a person's best is the longest of their streaks, read when asked; the boards, each
person's longest of a season and of all time, kept as each streak ends
(bot.store.sql.solo_bests)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.records import SoloBest, Streak
from bot.store.sql.connection import Connection, Refused, numbered_table
from bot.store.sql.solo_bests import (
    best_of,
    board_of,
    group_board_of,
    keep_of,
    read_best,
    read_board,
)

STREAK_COLUMNS = "id, user_id, chat_id, round_id, solved, lang, started_at, status"


@dataclass(frozen=True)
class StreakStatements:
    open_streak: str
    streak_on: str
    streaks_on: str
    play_hand: str
    hand_solved: str
    end_streak: str
    best_streak: str
    keep_best: str
    best_of_period: str
    board: str
    group_board: str


QMARK = StreakStatements(
    open_streak="INSERT INTO streaks (user_id, chat_id, lang, started_at) VALUES (?, ?, ?, ?)",
    streak_on=f"SELECT {STREAK_COLUMNS} FROM streaks WHERE user_id = ? AND status = 'on'",
    streaks_on=f"SELECT {STREAK_COLUMNS} FROM streaks WHERE status = 'on' ORDER BY +id",
    play_hand="UPDATE streaks SET round_id = ? WHERE id = ? AND status = 'on' "
              "AND round_id IS NULL",
    # guarded by the hand: a result said again (a restart's late close) counts it once
    hand_solved="UPDATE streaks SET solved = solved + 1, round_id = NULL "
                "WHERE id = ? AND round_id = ? AND status = 'on'",
    end_streak="UPDATE streaks SET status = ?, ended_at = ? WHERE id = ? AND status = 'on'",
    best_streak="SELECT COALESCE(MAX(solved), 0) FROM streaks WHERE user_id = ?",
    keep_best=keep_of("streak", "streaks"),
    best_of_period=best_of("streak"),
    board=board_of("streak"),
    group_board=group_board_of("streak"),
)
NUMBERED = numbered_table(QMARK)


class Streaks:
    def __init__(self, db: Connection, sql: StreakStatements) -> None:
        self.db = db
        self.sql = sql

    async def open_streak(self, user_id: int, chat_id: int, lang: str,
                          at: float) -> Streak | None:
        """A new streak, or None when the person has one on already."""
        try:
            streak_id = await self.db.insert(self.sql.open_streak, (user_id, chat_id, lang, at))
        except Refused:
            return None
        return Streak(streak_id, user_id, chat_id, None, 0, lang, at, "on")

    async def streak_on(self, user_id: int) -> Streak | None:
        rows = await self.db.fetch(self.sql.streak_on, (user_id,))
        return Streak(*rows[0]) if rows else None

    async def streaks_on(self) -> list[Streak]:
        return [Streak(*row) for row in await self.db.fetch(self.sql.streaks_on)]

    async def play_hand(self, streak_id: int, round_id: int) -> bool:
        """The streak's next hand is this round; False if it ended, or plays one already."""
        return await self.db.run(self.sql.play_hand, (round_id, streak_id)) == 1

    async def hand_solved(self, streak_id: int, round_id: int) -> bool:
        """The hand `round_id` was solved: one more to the streak, no hand in play; False if it
        was counted already (or is not the streak's hand, or the streak ended)."""
        return await self.db.run(self.sql.hand_solved, (streak_id, round_id)) == 1

    async def end_streak(self, streak_id: int, status: str, at: float,
                         periods: Sequence[str] = ()) -> bool:
        """End a streak ('missed' or 'stopped') and keep its length as its person's best of
        each of `periods` (those it began in) where it is longer, in one transaction; False if
        it had ended already (nothing written)."""
        return await self.db.run_guarded(
            (self.sql.end_streak, (status, at, streak_id)),
            [(self.sql.keep_best, (period, streak_id)) for period in periods])

    async def best_streak(self, user_id: int) -> int:
        """The most hands any of the person's streaks solved (0: none yet)."""
        return int((await self.db.fetch(self.sql.best_streak, (user_id,)))[0][0])

    async def best_of_period(self, user_id: int, period: str) -> int:
        """The longest of the person's streaks of the period, ended (0: none)."""
        return await read_best(self.db, self.sql.best_of_period, user_id, period)

    async def board(self, period: str, limit: int, chat_id: int | None = None
                    ) -> list[SoloBest]:
        """Each person's longest streak of the period, the longest first: everyone's, or
        those of the people who play in the group `chat_id`."""
        return await read_board(self.db, self.sql.board, self.sql.group_board, period, limit,
                                chat_id)
