"""Update claims in SQLite: the shared store (bot.store.sql.updates), with a claim that gives
up, rather than fails, when another connection keeps the database locked."""

from __future__ import annotations

import logging
import sqlite3

from bot.store.protocols import StoreBusy
from bot.store.sql.updates import QMARK, Updates
from bot.store.sqlite.database import Database, is_locked

log = logging.getLogger(__name__)


class SqliteUpdates(Updates):
    def __init__(self, db: Database) -> None:
        super().__init__(db, QMARK)

    async def claim_update(self, update_id: int, at: float) -> bool:
        """As the shared claim; StoreBusy when the database stayed locked through every retry
        (only SQLite's file lock can do that): an update that cannot be claimed is not handled
        (unclaimed, a redelivery could act twice), and the player is told to try again."""
        try:
            return await super().claim_update(update_id, at)
        except sqlite3.OperationalError as error:
            if not is_locked(error):
                raise
            log.error("update %d not handled: the database stayed locked by another connection",
                      update_id)
            raise StoreBusy(str(error)) from error
