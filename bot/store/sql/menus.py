"""The digest of the command menus a bot last set on Telegram, as both databases store it: a
start compares its own with it and sets the menus only when they changed (bot.telegram.menus)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.sql.connection import Connection, numbered_table


@dataclass(frozen=True)
class MenuStatements:
    digest: str
    note: str


QMARK = MenuStatements(
    digest="SELECT digest FROM bot_menus WHERE bot_id = ?",
    note="INSERT INTO bot_menus (bot_id, digest, set_at) VALUES (?, ?, ?) "
         "ON CONFLICT (bot_id) DO UPDATE SET digest = excluded.digest, set_at = excluded.set_at",
)
NUMBERED = numbered_table(QMARK)


class MenuDigests:
    def __init__(self, db: Connection, sql: MenuStatements) -> None:
        self.db = db
        self.sql = sql

    async def menu_digest(self, bot_id: int) -> str | None:
        """The digest of what the bot's menus were last set to (None: never, from here)."""
        rows = await self.db.fetch(self.sql.digest, (bot_id,))
        return rows[0][0] if rows else None

    async def note_menus(self, bot_id: int, digest: str, at: float) -> None:
        """The bot's menus were set to `digest`'s content at `at` (Telegram took every call)."""
        await self.db.run(self.sql.note, (bot_id, digest, at))
