"""Update claims in SQLite: the ids of the Telegram updates already handled."""

from __future__ import annotations

import logging
import sqlite3

from bot.store.sqlite.database import Database, is_locked

log = logging.getLogger(__name__)


class SqliteUpdates:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim_update(self, update_id: int, at: float) -> bool:
        """True the first time an update is seen: Telegram sends an update again when the bot
        stopped before confirming it, and it must not act or reply twice. False too when the
        database stayed locked through every retry: an update that cannot be claimed is not
        handled (unclaimed, a redelivery could act twice), and the chat is not told of an error."""
        try:
            return await self.db.run("INSERT INTO handled_updates (update_id, at) VALUES (?, ?) "
                                     "ON CONFLICT DO NOTHING", (update_id, at)) == 1
        except sqlite3.OperationalError as error:
            if not is_locked(error):
                raise
            log.error("update %d dropped: the database stayed locked by another connection",
                      update_id)
            return False

    async def forget_updates(self, before: float) -> int:
        """Drop the ids of updates handled before `before` (Telegram redelivers for 24 hours at
        most, and picks new ids at random after a week without updates)."""
        return await self.db.run("DELETE FROM handled_updates WHERE at < ?", (before,))
