"""Scores in PostgreSQL: read from the `scores` table, which the database's triggers keep exact as
rounds close and late answers land (migrations 3 and 5)."""

from __future__ import annotations

from typing import Any

from bot.store.postgres.connection import Database
from bot.store.records import Standing, Stats


class PostgresScores:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def top(self, chat_id: int | None, game: str | None = None,
                  limit: int = 10) -> list[Standing]:
        """The best players of a chat (or of all chats), in one game or all together."""
        where, params = ["s.points > 0"], list[Any]()
        if chat_id is not None:
            params.append(chat_id)
            where.append(f"s.chat_id = ${len(params)}")
        if game is not None:
            params.append(game)
            where.append(f"s.game = ${len(params)}")
        params.append(limit)
        rows = await self.db.fetch(
            "SELECT u.first_name, SUM(s.points) AS p, SUM(s.wins) AS w FROM scores s "
            f"JOIN users u ON u.id = s.user_id WHERE {' AND '.join(where)} "
            f"GROUP BY s.user_id, u.first_name ORDER BY p DESC, w DESC, s.user_id "
            f"LIMIT ${len(params)}", params)
        return [Standing(*row) for row in rows]

    async def stats(self, chat_id: int, user_id: int) -> list[Stats]:
        """A player's scores in a chat, one row per game played."""
        rows = await self.db.fetch(
            "SELECT game, points, wins, rounds_played, fastest_win, current_streak, best_streak "
            "FROM scores WHERE chat_id = $1 AND user_id = $2 ORDER BY game", (chat_id, user_id))
        return [Stats(*row) for row in rows]
