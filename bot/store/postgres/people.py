"""Chats and users in PostgreSQL: names, chosen languages, and a group's move to a supergroup."""

from __future__ import annotations

from bot.store.postgres.connection import Database


class PostgresPeople:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def remember_chat(self, chat_id: int, chat_type: str, title: str | None) -> None:
        await self.db.run("INSERT INTO chats (id, type, title) VALUES ($1, $2, $3) "
                          "ON CONFLICT (id) DO UPDATE SET type = excluded.type, "
                          "title = excluded.title", (chat_id, chat_type, title))

    async def remember_user(self, user_id: int, first_name: str,
                            username: str | None = None) -> None:
        await self.db.run("INSERT INTO users (id, first_name, username) VALUES ($1, $2, $3) "
                          "ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name, "
                          "username = excluded.username", (user_id, first_name, username))

    async def user_name(self, user_id: int) -> str | None:
        rows = await self.db.fetch("SELECT first_name FROM users WHERE id = $1", (user_id,))
        return rows[0][0] if rows else None

    async def chat_and_user(self, chat_id: int, user_id: int
                            ) -> tuple[tuple[str, str | None], tuple[str, str | None]] | None:
        """A known chat's (type, title) and a known user's (first name, username)."""
        rows = await self.db.fetch("SELECT c.type, c.title, u.first_name, u.username FROM "
                                   "chats c, users u WHERE c.id = $1 AND u.id = $2",
                                   (chat_id, user_id))
        return ((rows[0][0], rows[0][1]), (rows[0][2], rows[0][3])) if rows else None

    async def languages(self) -> dict[int, str]:
        """The language each chat chose with /lang."""
        rows = await self.db.fetch("SELECT id, lang FROM chats WHERE lang IS NOT NULL")
        return {chat_id: lang for chat_id, lang in rows}

    async def set_language(self, chat_id: int, lang: str) -> None:
        await self.db.run("UPDATE chats SET lang = $1 WHERE id = $2", (lang, chat_id))

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its rounds and matches follow the new chat id, and the
        new chat's scores are counted again from all its rounds. One transaction; the rounds'
        rows are taken before the chats' scoring locks, in the order a round's close takes
        them, so the two never wait on each other."""
        async with self.db.transaction() as connection:
            await connection.execute(
                "INSERT INTO chats (id, type, title, lang) SELECT $1, 'supergroup', title, lang "
                "FROM chats WHERE id = $2 ON CONFLICT (id) DO NOTHING", new_id, old_id)
            await connection.execute("UPDATE rounds SET chat_id = $1 WHERE chat_id = $2",
                                     new_id, old_id)
            await connection.execute("UPDATE matches SET chat_id = $1 WHERE chat_id = $2",
                                     new_id, old_id)
            await connection.execute("SELECT pg_advisory_xact_lock(chat) FROM "
                                     "unnest($1::bigint[]) AS chat ORDER BY chat",
                                     sorted({old_id, new_id}))
            await connection.execute("DELETE FROM scores WHERE chat_id IN ($1, $2)",
                                     old_id, new_id)
            await connection.execute(
                "INSERT INTO scores (chat_id, user_id, game, points, wins, rounds_played, "
                "fastest_win, current_streak, best_streak) SELECT chat_id, user_id, game, "
                "points, wins, rounds_played, fastest_win, current_streak, best_streak "
                "FROM scores_from_rounds WHERE chat_id = $1", new_id)
