"""Storms, as both databases store them: a row a storm, the hand it plays, what it solved and
missed and when its clock runs out; and each person's best storm of a period (a day, a season),
kept as each storm ends, which the boards read (bot.store.sql.solo_bests)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.records import Storm
from bot.store.sql.connection import Connection, numbered_table
from bot.store.sql.solo_bests import best_of, board_of, group_board_of, keep_of, read_best
from bot.store.sql.solo_runs import SoloRuns, all_on_of, on_of, play_hand_of

STORM_COLUMNS = "id, user_id, chat_id, round_id, solved, missed, lang, started_at, ends_at, status"


@dataclass(frozen=True)
class StormStatements:
    open_storm: str
    run_on: str
    runs_on: str
    play_hand: str
    hand_done: str
    end_run: str
    keep_best: str
    best_storm: str
    board: str
    group_board: str


QMARK = StormStatements(
    open_storm="INSERT INTO storms (user_id, chat_id, lang, started_at, ends_at) "
               "VALUES (?, ?, ?, ?, ?)",
    run_on=on_of("storms", STORM_COLUMNS),
    runs_on=all_on_of("storms", STORM_COLUMNS),
    play_hand=play_hand_of("storms"),
    # guarded by the hand: a result said again counts it once; the clock moved by `shift`
    hand_done="UPDATE storms SET solved = solved + ?, missed = missed + ?, ends_at = ends_at + ?, "
              "round_id = NULL WHERE id = ? AND round_id = ? AND status = 'on'",
    end_run="UPDATE storms SET status = ?, ended_at = ?, round_id = NULL "
              "WHERE id = ? AND status = 'on'",
    keep_best=keep_of("storm", "storms"),
    best_storm=best_of("storm"),
    board=board_of("storm"),
    group_board=group_board_of("storm"),
)
NUMBERED = numbered_table(QMARK)


class Storms(SoloRuns[Storm]):
    def __init__(self, db: Connection, sql: StormStatements) -> None:
        super().__init__(db, sql, Storm)
        self.sql = sql

    async def open_storm(self, user_id: int, chat_id: int, lang: str, at: float,
                         ends_at: float) -> Storm | None:
        """A new storm whose clock runs out at `ends_at`, or None when the person has one on."""
        storm_id = await self._open(self.sql.open_storm, (user_id, chat_id, lang, at, ends_at))
        return None if storm_id is None else Storm(storm_id, user_id, chat_id, None, 0, 0, lang,
                                                   at, ends_at, "on")

    async def storm_on(self, user_id: int) -> Storm | None:
        return await self._on(user_id)

    async def storms_on(self) -> list[Storm]:
        return await self._all_on()

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
        return await self._end(storm_id, status, at, periods)

    async def best_storm(self, user_id: int, period: str) -> int:
        """The most hands one of the person's storms of the period solved (0: none)."""
        return await read_best(self.db, self.sql.best_storm, user_id, period)
