"""Streaks, as both databases store them: a row a streak, the hand it plays and how many it
solved; a person's best is the longest of their streaks, read when asked; the boards, each
person's longest of a season and of all time, kept as each streak ends
(bot.store.sql.solo_bests)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.records import Streak
from bot.store.sql.connection import Connection, numbered_table
from bot.store.sql.solo_bests import best_of, board_of, group_board_of, keep_of, read_best
from bot.store.sql.solo_runs import SoloRuns, all_on_of, on_of, play_hand_of

STREAK_COLUMNS = "id, user_id, chat_id, round_id, solved, lang, started_at, status"


@dataclass(frozen=True)
class StreakStatements:
    open_streak: str
    run_on: str
    runs_on: str
    play_hand: str
    hand_solved: str
    end_run: str
    best_streak: str
    keep_best: str
    best_of_period: str
    board: str
    group_board: str


QMARK = StreakStatements(
    open_streak="INSERT INTO streaks (user_id, chat_id, lang, started_at) VALUES (?, ?, ?, ?)",
    run_on=on_of("streaks", STREAK_COLUMNS),
    runs_on=all_on_of("streaks", STREAK_COLUMNS),
    play_hand=play_hand_of("streaks"),
    # guarded by the hand: a result said again (a restart's late close) counts it once
    hand_solved="UPDATE streaks SET solved = solved + 1, round_id = NULL "
                "WHERE id = ? AND round_id = ? AND status = 'on'",
    end_run="UPDATE streaks SET status = ?, ended_at = ? WHERE id = ? AND status = 'on'",
    best_streak="SELECT COALESCE(MAX(solved), 0) FROM streaks WHERE user_id = ?",
    keep_best=keep_of("streak", "streaks"),
    best_of_period=best_of("streak"),
    board=board_of("streak"),
    group_board=group_board_of("streak"),
)
NUMBERED = numbered_table(QMARK)


class Streaks(SoloRuns[Streak]):
    def __init__(self, db: Connection, sql: StreakStatements) -> None:
        super().__init__(db, sql, Streak)
        self.sql = sql

    async def open_streak(self, user_id: int, chat_id: int, lang: str,
                          at: float) -> Streak | None:
        """A new streak, or None when the person has one on already."""
        streak_id = await self._open(self.sql.open_streak, (user_id, chat_id, lang, at))
        return None if streak_id is None else Streak(streak_id, user_id, chat_id, None, 0, lang,
                                                     at, "on")

    async def streak_on(self, user_id: int) -> Streak | None:
        return await self._on(user_id)

    async def streaks_on(self) -> list[Streak]:
        return await self._all_on()

    async def hand_solved(self, streak_id: int, round_id: int) -> bool:
        """The hand `round_id` was solved: one more to the streak, no hand in play; False if it
        was counted already (or is not the streak's hand, or the streak ended)."""
        return await self.db.run(self.sql.hand_solved, (streak_id, round_id)) == 1

    async def end_streak(self, streak_id: int, status: str, at: float,
                         periods: Sequence[str] = ()) -> bool:
        """End a streak ('missed' or 'stopped') and keep its length as its person's best of
        each of `periods` (those it began in) where it is longer, in one transaction; False if
        it had ended already (nothing written)."""
        return await self._end(streak_id, status, at, periods)

    async def best_streak(self, user_id: int) -> int:
        """The most hands any of the person's streaks solved (0: none yet)."""
        return int((await self.db.fetch(self.sql.best_streak, (user_id,)))[0][0])

    async def best_of_period(self, user_id: int, period: str) -> int:
        """The longest of the person's streaks of the period, ended (0: none)."""
        return await read_best(self.db, self.sql.best_of_period, user_id, period)
