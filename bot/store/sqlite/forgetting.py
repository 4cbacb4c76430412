"""/forget in SQLite: the shared erasure (bot.store.sql.forgetting), then the write-ahead log
copied into the file and cut to nothing, so that neither file keeps the deleted rows' bytes (the
connection overwrites deleted content with zeros as it goes: PRAGMA secure_delete, set where
it opens, bot.store.sqlite.database). The note of the forget goes only once the log is cut, so a
kill before then leaves the note, and the forget is done again, log and all; the note's own
deletion is cut out of the log the same way."""

from __future__ import annotations

import logging

from bot.store.sql.forgetting import QMARK, Forgetting
from bot.store.sqlite.database import Database

log = logging.getLogger(__name__)


class SqliteForgetting(Forgetting):
    def __init__(self, db: Database) -> None:
        super().__init__(db.far, QMARK)  # its parts on aiosqlite's thread: the loop never waits
        self.database = db

    async def forget_user(self, user_id: int) -> None:
        await self.erase(user_id)
        await self._checkpoint()
        await self.db.run(self.sql.done, (user_id,))
        await self._checkpoint()

    async def _checkpoint(self) -> None:
        if not await self.database.checkpoint():
            log.warning("/forget: a reader held the database; the write-ahead log keeps the "
                        "deleted pages until its next checkpoint")
