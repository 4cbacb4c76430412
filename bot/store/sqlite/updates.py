"""Update claims in SQLite: the shared store (bot.store.sql.updates), with the claims made at
the same moment (a getUpdates answer's updates start together) written by one statement, and
a claim that gives up, rather than fails, when another connection keeps the database locked.

One statement per batch, not per update: each statement is a trip to aiosqlite's thread and a
commit, and a burst's updates paid one each. A batch holds plain and owed claims alike (a /play
of the burst is owed): one upsert that takes an owed row over only for an owed claim of another
owner, as the shared `claim_owed` does, and leaves a plain claim's conflict alone, as the
shared `claim_update` does. PostgreSQL keeps a statement per claim (its writes are fenced by the
leader's lease, and the shared store's claim is one of them)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

from bot.store.protocols import StoreBusy
from bot.store.sql.updates import QMARK, Updates
from bot.store.sqlite.database import Database
from bot.store.sqlite.trips import is_locked

log = logging.getLogger(__name__)

BATCH_MOST = 100  # ids in one statement: a getUpdates answer's most
# a plain claim's owner is NULL: on a conflict `owed_by <> NULL` is never true, so it takes
# nothing over; RETURNING (SQLite 3.35 on) names the rows inserted or taken over
CLAIM_MANY = ("INSERT INTO handled_updates (update_id, at, owed_by) VALUES {} "
              "ON CONFLICT (update_id) DO UPDATE SET owed_by = excluded.owed_by "
              "WHERE handled_updates.owed_by IS NOT NULL "
              "AND handled_updates.owed_by <> excluded.owed_by RETURNING update_id")
BATCHES = sqlite3.sqlite_version_info >= (3, 35, 0)

# the claims of a batch: by update id, each asker's time, owner (None: a plain claim), answer
Claims = dict[int, list[tuple[float, int | None, asyncio.Future[bool]]]]


class SqliteUpdates(Updates):
    def __init__(self, db: Database, batched: bool = BATCHES) -> None:
        super().__init__(db, QMARK)
        self.batched = batched
        self._waiting: Claims | None = None  # claims asked since the last batch went
        self._writing: set[asyncio.Task[None]] = set()

    async def claim_update(self, update_id: int, at: float) -> bool:
        """As the shared claim (True the first time the update is seen, and to one caller
        only); StoreBusy when the database stayed locked through every retry (only SQLite's
        file lock can do that): an update that cannot be claimed is not handled (unclaimed, a
        redelivery could act twice), and the player is told to try again."""
        try:
            if not self.batched:
                return await super().claim_update(update_id, at)
            return await self._claim_in_batch(update_id, at, None)
        except sqlite3.OperationalError as error:
            if not is_locked(error):
                raise
            raise busy(error, update_id) from error

    async def claim_owed(self, update_id: int, at: float, owner: int) -> bool:
        """As the shared one, in the batch of the claims asked this turn, with claim_update's
        StoreBusy."""
        try:
            if not self.batched:
                return await super().claim_owed(update_id, at, owner)
            return await self._claim_in_batch(update_id, at, owner)
        except sqlite3.OperationalError as error:
            if not is_locked(error):
                raise
            raise busy(error, update_id) from error

    async def _claim_in_batch(self, update_id: int, at: float, owner: int | None) -> bool:
        loop = asyncio.get_running_loop()
        if self._waiting is None:  # the first claim of a batch: it goes once this turn ends
            self._waiting = {}
            loop.call_soon(self._send_batch)
        claimed: asyncio.Future[bool] = loop.create_future()
        self._waiting.setdefault(update_id, []).append((at, owner, claimed))
        return await claimed

    def _send_batch(self) -> None:
        claims, self._waiting = self._waiting or {}, None
        task = asyncio.ensure_future(self._write(claims))
        self._writing.add(task)
        task.add_done_callback(self._writing.discard)

    async def _write(self, claims: Claims) -> None:
        """One statement per BATCH_MOST ids; the first to ask for an id gets whether it was new
        (a second asking in the same batch: False), each of them the statement's error."""
        ids = list(claims)
        try:
            for start in range(0, len(ids), BATCH_MOST):
                part = ids[start:start + BATCH_MOST]
                params = [value for update_id in part
                          for value in (update_id, *claims[update_id][0][:2])]
                rows_sql = ", ".join(["(?, ?, ?)"] * len(part))
                try:
                    rows = await self.db.fetch(CLAIM_MANY.format(rows_sql), params)
                except Exception as error:  # handed to each claim of the part
                    for update_id in part:
                        for _, _, claimed in claims[update_id]:
                            if not claimed.done():
                                claimed.set_exception(error)
                    continue
                new = {row[0] for row in rows}
                for update_id in part:
                    for order, (_, _, claimed) in enumerate(claims[update_id]):
                        if not claimed.done():
                            claimed.set_result(order == 0 and update_id in new)
        finally:  # cancelled (the bot stopping): nobody waits for ever
            for waiting in claims.values():
                for _, _, claimed in waiting:
                    claimed.cancel()


def busy(error: sqlite3.OperationalError, update_id: int) -> StoreBusy:
    """What a claim the database's lock kept out raises: the update is not handled."""
    log.error("update %d not handled: the database stayed locked by another connection",
              update_id)
    return StoreBusy(str(error))
