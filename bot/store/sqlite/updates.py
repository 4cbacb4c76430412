"""Update claims in SQLite: the ids of the Telegram updates already handled."""

from __future__ import annotations

from bot.store.sqlite.database import Database


class SqliteUpdates:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim_update(self, update_id: int, at: float) -> bool:
        """True the first time an update is seen: Telegram sends an update again when the bot
        stopped before confirming it, and it must not act or reply twice."""
        return await self.db.run("INSERT INTO handled_updates (update_id, at) VALUES (?, ?) "
                                 "ON CONFLICT DO NOTHING", (update_id, at)) == 1

    async def forget_updates(self, before: float) -> int:
        """Drop the ids of updates handled before `before` (Telegram redelivers for 24 hours at
        most, and picks new ids at random after a week without updates)."""
        return await self.db.run("DELETE FROM handled_updates WHERE at < ?", (before,))
