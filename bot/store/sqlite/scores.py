"""Scores in SQLite: read from the `scores` table, which the database's triggers keep exact as
rounds close and late answers land (migrations 3 and 5)."""

from __future__ import annotations

from typing import Any

from bot.store.records import Standing, Stats
from bot.store.sqlite.database import Database


class SqliteScores:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def top(self, chat_id: int | None, game: str | None = None,
                  limit: int = 10) -> list[Standing]:
        """The best players of a chat (or of all chats), in one game or all together."""
        where, params = ["s.points > 0"], list[Any]()
        if chat_id is not None:
            where.append("s.chat_id = ?")
            params.append(chat_id)
        if game is not None:
            where.append("s.game = ?")
            params.append(game)
        rows = await self.db.fetch(
            "SELECT u.first_name, SUM(s.points) AS p, SUM(s.wins) AS w FROM scores s "
            f"JOIN users u ON u.id = s.user_id WHERE {' AND '.join(where)} "
            "GROUP BY s.user_id ORDER BY p DESC, w DESC, s.user_id LIMIT ?", (*params, limit))
        return [Standing(*row) for row in rows]

    async def stats(self, chat_id: int, user_id: int) -> list[Stats]:
        """A player's scores in a chat, one row per game played."""
        rows = await self.db.fetch(
            "SELECT game, points, wins, rounds_played, fastest_win, current_streak, best_streak "
            "FROM scores WHERE chat_id = ? AND user_id = ? ORDER BY game", (chat_id, user_id))
        return [Stats(*row) for row in rows]
