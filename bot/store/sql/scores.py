"""Scores, as both databases store them: read from the `scores` table, which the database's
triggers keep exact as rounds close and late answers land (migrations 3 and 5)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.records import Standing, Stats
from bot.store.sql.connection import Connection, numbered_table


def top_query(by_chat: bool, by_game: bool) -> str:
    where = ["s.points > 0", *(["s.chat_id = ?"] if by_chat else []),
             *(["s.game = ?"] if by_game else [])]
    return ("SELECT u.first_name, SUM(s.points) AS p, SUM(s.wins) AS w FROM scores s "
            f"JOIN users u ON u.id = s.user_id WHERE {' AND '.join(where)} "
            "GROUP BY s.user_id, u.first_name ORDER BY p DESC, w DESC, s.user_id LIMIT ?")


@dataclass(frozen=True)
class ScoreStatements:
    top: tuple[str, str, str, str]  # by 2 * (a chat given) + (a game given)
    stats: str


QMARK = ScoreStatements(
    top=(top_query(False, False), top_query(False, True), top_query(True, False),
         top_query(True, True)),
    stats="SELECT game, points, wins, rounds_played, fastest_win, current_streak, best_streak "
          "FROM scores WHERE chat_id = ? AND user_id = ? ORDER BY game",
)
NUMBERED = numbered_table(QMARK)


class Scores:
    def __init__(self, db: Connection, sql: ScoreStatements) -> None:
        self.db = db
        self.sql = sql

    async def top(self, chat_id: int | None, game: str | None = None,
                  limit: int = 10) -> list[Standing]:
        """The best players of a chat (or of all chats), in one game or all together."""
        given = [value for value in (chat_id, game) if value is not None]
        query = self.sql.top[2 * (chat_id is not None) + (game is not None)]
        return [Standing(*row) for row in await self.db.fetch(query, (*given, limit))]

    async def stats(self, chat_id: int, user_id: int) -> list[Stats]:
        """A player's scores in a chat, one row per game played."""
        rows = await self.db.fetch(self.sql.stats, (chat_id, user_id))
        return [Stats(*row) for row in rows]
