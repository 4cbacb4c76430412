"""One SQLite connection over aiosqlite, shared by every SQLite store, and its migrations.

Every state change is one SQL statement, so one transaction: closing a round is a conditional
UPDATE whose row count decides, atomically, whether this caller closed it (two right answers
make one winner), and the database's own trigger scores the round in that same statement.
Single statements are pipelined through aiosqlite's thread; the few multi-statement
transactions (migrations, a chat's move) run alone behind `Gate`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.sqlite.migrations import LATEST, MIGRATIONS, statements


class Gate:
    """Many single statements at once, or one multi-statement transaction alone.

    aiosqlite runs statements one after another on its thread, so single statements need no
    lock; a transaction spread over several awaits must not have others' statements inside it.
    """

    def __init__(self) -> None:
        self._sharing = 0
        self._exclusive = False
        self._changed = asyncio.Condition()

    @asynccontextmanager
    async def shared(self) -> AsyncIterator[None]:
        if self._exclusive:
            async with self._changed:
                await self._changed.wait_for(lambda: not self._exclusive)
        self._sharing += 1
        try:
            yield
        finally:
            self._sharing -= 1
            if self._exclusive and not self._sharing:
                async with self._changed:
                    self._changed.notify_all()

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        async with self._changed:
            await self._changed.wait_for(lambda: not self._exclusive)
            self._exclusive = True
            await self._changed.wait_for(lambda: not self._sharing)
        try:
            yield
        finally:
            async with self._changed:
                self._exclusive = False
                self._changed.notify_all()


class Database:
    """The connection; build with `await Database.open(path)` (migrations applied)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self.gate = Gate()

    @classmethod
    async def open(cls, path: Path | str, migrate_to: int = LATEST) -> Database:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        # WAL with synchronous=NORMAL: a commit survives a crash of the bot; only a power cut
        # may lose the last moments. Syncing every commit would cap the bot at disk speed.
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA busy_timeout=5000")
        database = cls(connection)
        await database.migrate(migrate_to)
        return database

    async def close(self) -> None:
        await self.connection.close()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        async with self.gate.shared():
            return [tuple(row) for row in await self.connection.execute_fetchall(sql, params)]

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, its own transaction; the number of rows it changed."""
        async with self.gate.shared():
            cursor = await self.connection.execute(sql, params)  # left to the collector:
            return cursor.rowcount           # closing costs a trip to the database thread

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One INSERT; the new row's id. Raises sqlite3.IntegrityError when a constraint
        refuses it (the callers' "one open round / match per chat")."""
        async with self.gate.shared():
            row = await self.connection.execute_insert(sql, params)
        assert row is not None
        return int(row[0])

    async def transaction(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        async with self.gate.exclusive():
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in steps:
                    await self.connection.execute(sql, params)
                await self.connection.execute("COMMIT")
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise

    async def version(self) -> int:
        rows = await self.fetch("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def migrate(self, to: int = LATEST) -> None:
        """Apply the migrations after the current version, each in its own transaction."""
        for number in range(await self.version() + 1, to + 1):
            steps = [(sql, ()) for sql in statements(MIGRATIONS[number - 1])]
            await self.transaction([*steps, (f"PRAGMA user_version = {number}", ())])
