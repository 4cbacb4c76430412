"""Chats and users, as both databases store them: names, chosen languages, a group's own
settings (/settings, a JSON object per chat), and a group's move to a supergroup."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.sql.connection import Connection, Step, numbered_table


@dataclass(frozen=True)
class PeopleStatements:
    remember_chat: str
    remember_user: str
    user_name: str
    chat_and_user: str
    languages: str
    set_language: str
    chat_settings: str
    set_chat_settings: str
    move_chat: tuple[str, str, str, str]  # (new, old) each: the chat, rounds, matches, settings
    recount: tuple[str, str]  # (old, new) then (new,): the two chats' scores counted again


QMARK = PeopleStatements(
    remember_chat="INSERT INTO chats (id, type, title) VALUES (?, ?, ?) ON CONFLICT (id) "
                  "DO UPDATE SET type = excluded.type, title = excluded.title",
    remember_user="INSERT INTO users (id, first_name, username) VALUES (?, ?, ?) "
                  "ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name, "
                  "username = excluded.username",
    user_name="SELECT first_name FROM users WHERE id = ?",
    chat_and_user="SELECT c.type, c.title, u.first_name, u.username FROM "
                  "chats c, users u WHERE c.id = ? AND u.id = ?",
    languages="SELECT id, lang FROM chats WHERE lang IS NOT NULL",
    set_language="UPDATE chats SET lang = ? WHERE id = ?",
    chat_settings="SELECT chat_id, body FROM chat_settings",
    set_chat_settings="INSERT INTO chat_settings (chat_id, body, updated_at) VALUES (?, ?, ?) "
                      "ON CONFLICT (chat_id) DO UPDATE SET body = excluded.body, "
                      "updated_at = excluded.updated_at",
    move_chat=("INSERT INTO chats (id, type, title, lang) SELECT ?, 'supergroup', title, lang "
               "FROM chats WHERE id = ? ON CONFLICT (id) DO NOTHING",
               "UPDATE rounds SET chat_id = ? WHERE chat_id = ?",
               "UPDATE matches SET chat_id = ? WHERE chat_id = ?",
               "INSERT INTO chat_settings (chat_id, body, updated_at) SELECT ?, body, updated_at "
               "FROM chat_settings WHERE chat_id = ? ON CONFLICT (chat_id) DO NOTHING"),
    recount=("DELETE FROM scores WHERE chat_id IN (?, ?)",
             "INSERT INTO scores (chat_id, user_id, game, points, wins, rounds_played, "
             "fastest_win, current_streak, best_streak) SELECT chat_id, user_id, game, points, "
             "wins, rounds_played, fastest_win, current_streak, best_streak "
             "FROM scores_from_rounds WHERE chat_id = ?"),
)
NUMBERED = numbered_table(QMARK)


class People:
    def __init__(self, db: Connection, sql: PeopleStatements) -> None:
        self.db = db
        self.sql = sql

    async def remember_chat(self, chat_id: int, chat_type: str, title: str | None) -> None:
        await self.db.run(self.sql.remember_chat, (chat_id, chat_type, title))

    async def remember_user(self, user_id: int, first_name: str,
                            username: str | None = None) -> None:
        await self.db.run(self.sql.remember_user, (user_id, first_name, username))

    async def user_name(self, user_id: int) -> str | None:
        rows = await self.db.fetch(self.sql.user_name, (user_id,))
        return rows[0][0] if rows else None

    async def chat_and_user(self, chat_id: int, user_id: int
                            ) -> tuple[tuple[str, str | None], tuple[str, str | None]] | None:
        """A known chat's (type, title) and a known user's (first name, username)."""
        rows = await self.db.fetch(self.sql.chat_and_user, (chat_id, user_id))
        return ((rows[0][0], rows[0][1]), (rows[0][2], rows[0][3])) if rows else None

    async def languages(self) -> dict[int, str]:
        """The language each chat chose with /lang."""
        return {chat_id: lang for chat_id, lang in await self.db.fetch(self.sql.languages)}

    async def set_language(self, chat_id: int, lang: str) -> None:
        await self.db.run(self.sql.set_language, (lang, chat_id))

    async def chat_settings(self) -> dict[int, dict[str, object]]:
        """What each chat set with /settings (only what it changed from the defaults)."""
        found: dict[int, dict[str, object]] = {}
        for chat_id, body in await self.db.fetch(self.sql.chat_settings):
            try:
                read = json.loads(body)
            except ValueError:  # written by nothing but this store: never, but never fatal
                continue
            if isinstance(read, dict):
                found[chat_id] = read
        return found

    async def set_chat_settings(self, chat_id: int, body: dict[str, object], at: float) -> None:
        """A chat's settings from now on (the chat is stored already)."""
        await self.db.run(self.sql.set_chat_settings,
                          (chat_id, json.dumps(body, sort_keys=True), at))

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its rounds, matches and settings follow the new chat id,
        and the new chat's scores are counted again from all its rounds (streaks cannot simply
        be added). One transaction over every table that names the chat."""
        delete, insert = self.sql.recount
        await self.db.run_all([*((sql, (new_id, old_id)) for sql in self.sql.move_chat),
                               *self.scoring_locks((old_id, new_id)),
                               (delete, (old_id, new_id)), (insert, (new_id,))])

    def scoring_locks(self, chats: Sequence[int]) -> list[Step]:
        """What takes the chats' scoring locks before their scores are counted again: nothing
        here (one SQLite writer at a time); PostgreSQL's own (bot.store.postgres.people)."""
        return []
