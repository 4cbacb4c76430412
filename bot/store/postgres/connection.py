"""A pool of asyncpg connections to one PostgreSQL database, shared by every PostgreSQL store,
and its numbered migrations (bot.store.postgres.migrations) applied at start-up.

As in SQLite, every state change that must be atomic is one statement (a conditional UPDATE
whose row count says who won it, the trigger scoring in the same statement); the few
multi-statement transactions take a connection of their own (`transaction`). Several bot
processes may open the same database at once (a leader and standbys): migrations run under a
transaction-level advisory lock, so exactly one of them applies each.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from bot.store.postgres.migrations import LATEST, MIGRATIONS
from bot.store.sql.connection import Refused, Step
from bot.store.unavailable import DatabaseUnavailable

# Advisory lock keys (the two-integer form, apart from the chats' one-bigint scoring locks).
LOCK_CLASS = 2424
MIGRATION_LOCK = (LOCK_CLASS, 1)
LEADER_LOCK = (LOCK_CLASS, 2)
POOL_SIZE = 8  # the bot runs up to 32 updates at once; most of their time is not the database's
CONNECT_SECONDS = 10.0


# What a server out of reach, a refused login or a failed migration raise.
UNREACHABLE = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)


def unavailable(url: str, error: BaseException) -> DatabaseUnavailable:
    """The operator's line: the server and database from DATABASE_URL (no user, no password)
    and the driver's words."""
    parts = urlsplit(url)
    try:
        port = parts.port or 5432
    except ValueError:
        port = 5432
    where = f"{parts.hostname or 'localhost'}:{port}{parts.path or ''}"
    why = str(error).replace(parts.password, "***") if parts.password else str(error)
    return DatabaseUnavailable(
        f"cannot open the database postgresql://{where}: {why or type(error).__name__} "
        "(is PostgreSQL running and reachable there, and DATABASE_URL's user and password "
        "right?)")


def rows_changed(status: str) -> int:
    """The row count in a command tag ("UPDATE 1", "INSERT 0 1", "DELETE 3")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class Database:
    """The pool; build with `await Database.open(url)` (migrations applied)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str, migrate_to: int = LATEST, size: int = POOL_SIZE) -> Database:
        """Connect and migrate; DatabaseUnavailable, naming the server but never the password,
        when the server is out of reach, refuses the login or the migration fails."""
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=size,
                                             timeout=CONNECT_SECONDS)
        except UNREACHABLE as error:
            raise unavailable(url, error) from error
        assert pool is not None
        database = cls(pool)
        try:
            await database.migrate(migrate_to)
        except BaseException as error:
            await pool.close()
            if isinstance(error, UNREACHABLE):
                raise unavailable(url, error) from error
            raise
        return database

    async def close(self) -> None:
        await self.pool.close()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        return [tuple(row) for row in await self.pool.fetch(sql, *params)]

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, its own transaction; the number of rows it changed."""
        return rows_changed(await self.pool.execute(sql, *params))

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One INSERT; the new row's id (PostgreSQL has no last rowid: the statement returns
        it), or Refused when a unique index refuses it."""
        try:
            return int(await self.pool.fetchval(sql + " RETURNING id", *params))
        except asyncpg.UniqueViolationError as error:
            raise Refused(str(error)) from error

    async def run_all(self, steps: Sequence[Step]) -> None:
        """The statements in one transaction, on a connection of their own."""
        async with self.transaction() as connection:
            for sql, params in steps:
                await connection.execute(sql, *params)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of its own inside one transaction (committed unless it raises)."""
        async with self.pool.acquire() as connection, connection.transaction():
            yield connection

    async def version(self) -> int:
        async with self.pool.acquire() as connection:
            return await _version(connection)

    async def migrate(self, to: int = LATEST) -> None:
        """Apply the migrations after the current version, each in its own transaction, under
        a lock: of processes starting together, one migrates and the others then see it done."""
        async with self.pool.acquire() as connection:
            while True:
                async with connection.transaction():
                    await connection.execute("SELECT pg_advisory_xact_lock($1, $2)",
                                             *MIGRATION_LOCK)
                    await connection.execute(
                        "CREATE TABLE IF NOT EXISTS schema_migrations ("
                        "number INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL "
                        "DEFAULT now())")
                    current = await _version(connection)
                    if current >= to:
                        return
                    await connection.execute(MIGRATIONS[current])  # a script: simple protocol
                    await connection.execute("INSERT INTO schema_migrations (number) VALUES ($1)",
                                             current + 1)


async def _version(connection: asyncpg.Connection) -> int:
    exists = await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await connection.fetchval("SELECT COALESCE(MAX(number), 0) "
                                         "FROM schema_migrations"))
