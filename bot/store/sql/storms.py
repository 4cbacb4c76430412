"""Storms, as both databases store them: a row a storm, the hand it plays, what it solved and
missed and when its clock runs out; and each person's best storm of a period (a day, a season),
kept as each storm ends, which the boards read from the head of the period's index."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.records import Storm, StormBest
from bot.store.sql.connection import Connection, Refused, numbered_table

STORM_COLUMNS = "id, user_id, chat_id, round_id, solved, missed, lang, started_at, ends_at, status"
# a board's rows: each person's best of the period, the best first (the earlier among equals),
# their name as stored
BOARD = ("SELECT b.user_id, u.first_name, b.best FROM storm_bests b "
         "JOIN users u ON u.id = b.user_id WHERE b.period = ? {among}"
         "ORDER BY b.best DESC, b.at, b.user_id LIMIT ?")
# ... a group's board: the people who play in the group (a row of scores there), found in the
# period's order until the board is full
AMONG = "AND EXISTS (SELECT 1 FROM scores c WHERE c.chat_id = ? AND c.user_id = b.user_id) "


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
    # with the end, in its transaction: the storm's score as its person's best of a period,
    # where it is better (what it solved read from its row, as it ended)
    keep_best="INSERT INTO storm_bests (period, user_id, best, at) "
              "SELECT ?, user_id, solved, started_at FROM storms WHERE id = ? AND solved > 0 "
              "ON CONFLICT (period, user_id) DO UPDATE SET best = excluded.best, "
              "at = excluded.at WHERE excluded.best > storm_bests.best",
    best_storm="SELECT best FROM storm_bests WHERE period = ? AND user_id = ?",
    board=BOARD.format(among=""),
    group_board=BOARD.format(among=AMONG),
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
        rows = await self.db.fetch(self.sql.best_storm, (period, user_id))
        return int(rows[0][0]) if rows else 0

    async def board(self, period: str, limit: int, chat_id: int | None = None
                    ) -> list[StormBest]:
        """Each person's best storm of the period, the best first: everyone's, or those of
        the people who play in the group `chat_id`."""
        if chat_id is None:
            rows = await self.db.fetch(self.sql.board, (period, limit))
        else:
            rows = await self.db.fetch(self.sql.group_board, (period, chat_id, limit))
        return [StormBest(int(user_id), name, int(best)) for user_id, name, best in rows]
