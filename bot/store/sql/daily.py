"""The daily puzzle's results, as both databases store them (table daily_results, migrations 8
and 30): a person's first right answer of a UTC day in one game; the primary key (day, game,
user) keeps it to one."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.daily_store import DailyResult
from bot.store.sql.connection import Connection, numbered_table

RESULT = ("SELECT d.day, d.user_id, u.first_name, d.chat_id, d.answer, d.seconds, d.at "
          "FROM daily_results d JOIN shown_users u ON u.id = d.user_id ")


@dataclass(frozen=True)
class DailyStatements:
    record: str
    result: str
    days: str
    board: str
    count: str
    rank: str


QMARK = DailyStatements(
    record="INSERT INTO daily_results (day, game, user_id, chat_id, answer, seconds, at) "
           "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (day, game, user_id) DO NOTHING",
    result=RESULT + "WHERE d.day = ? AND d.game = ? AND d.user_id = ?",
    days="SELECT day FROM daily_results WHERE user_id = ? AND game = ? ORDER BY day",
    board=RESULT + "WHERE d.day = ? AND d.game = ? ORDER BY d.seconds, d.at, d.user_id LIMIT ?",
    count="SELECT COUNT(*) FROM daily_results d JOIN shown_users u ON u.id = d.user_id "
          "WHERE d.day = ? AND d.game = ?",
    rank="SELECT 1 + (SELECT COUNT(*) FROM daily_results o JOIN shown_users u ON u.id = o.user_id "
         "WHERE o.day = m.day AND o.game = m.game AND o.seconds < m.seconds) "
         "FROM daily_results m WHERE m.day = ? AND m.game = ? AND m.user_id = ?",
)
NUMBERED = numbered_table(QMARK)


class Daily:
    def __init__(self, db: Connection, sql: DailyStatements) -> None:
        self.db = db
        self.sql = sql

    async def record_daily(self, day: str, game: str, user_id: int, chat_id: int, answer: str,
                           seconds: float, at: float) -> bool:
        return await self.db.run(self.sql.record,
                                 (day, game, user_id, chat_id, answer, seconds, at)) == 1

    async def daily_result(self, day: str, game: str, user_id: int) -> DailyResult | None:
        rows = await self.db.fetch(self.sql.result, (day, game, user_id))
        return DailyResult(*rows[0]) if rows else None

    async def daily_days(self, user_id: int, game: str) -> list[str]:
        return [day for (day,) in await self.db.fetch(self.sql.days, (user_id, game))]

    async def daily_board(self, day: str, game: str, limit: int = 10) -> list[DailyResult]:
        return [DailyResult(*row)
                for row in await self.db.fetch(self.sql.board, (day, game, limit))]

    async def daily_count(self, day: str, game: str) -> int:
        return int((await self.db.fetch(self.sql.count, (day, game)))[0][0])

    async def daily_rank(self, day: str, game: str, user_id: int) -> int | None:
        rows = await self.db.fetch(self.sql.rank, (day, game, user_id))
        return int(rows[0][0]) if rows else None
