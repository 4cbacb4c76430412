"""A pool of asyncpg connections to one PostgreSQL database, shared by every PostgreSQL store,
and the schema's steps (bot.store.schema) applied at start-up.

As in SQLite, every state change that must be atomic is one statement (a conditional UPDATE
whose row count says who won it, the trigger scoring in the same statement); the few
multi-statement transactions take a connection of their own (`transaction`). Several bot
processes may open the same database at once (a leader and standbys): migrations run under a
transaction-level advisory lock, so exactly one of them applies each.

Fencing: once this process leads, every connection of the pool is opened with its lease's
epoch (the session setting `twentyfour.epoch`, given at connect time so that the pool's RESET
ALL keeps it), and migration 9's trigger on every table refuses, in the writing statement's own
transaction, a write whose epoch no longer leads. Such a refusal ends the lead (the lease's
`lose`): no statement needs to know about it.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import asyncpg

from bot.store.outage import quiet_pool_outages
from bot.store.schema import LATEST, script
from bot.store.sql.connection import Refused, Step
from bot.store.unavailable import DatabaseUnavailable

if TYPE_CHECKING:
    from bot.store.postgres.leader import PostgresLeader

# Advisory lock keys (the two-integer form, apart from the chats' one-bigint scoring locks).
LOCK_CLASS = 2424
MIGRATION_LOCK = (LOCK_CLASS, 1)  # (LOCK_CLASS, 2) was the leader lock before the lease
# Every bot process's lease session holds this one shared, from start-up to exit, and a restore
# takes it alone (bot.runtime.backup repeats the key): a frozen process keeps its session, and
# so its hold, which a lease that ran out does not show.
HOLD_LOCK = (LOCK_CLASS, 3)
# Migration 12's triggers take this one (its SQL repeats the key) whenever scores change: the
# totals they keep are every chat's (tests/postgres/test_totals_lock.py).
TOTALS_LOCK = (LOCK_CLASS, 4)
POOL_SIZE = 8  # the bot runs up to 32 updates at once; most of their time is not the database's
CONNECT_SECONDS = 10.0
EPOCH_SETTING = "twentyfour.epoch"
FENCED = "TF024"  # the SQLSTATE migration 9's trigger raises (bot.store.postgres.leader)
# A session frozen inside a transaction holds the lease row FOR KEY SHARE (the fence's lock),
# which keeps a standby from taking it over: the server ends such a session after this long.
# A process killed while one of its statements waits on a lock leaves that statement running,
# and it would commit once the lock is free, after the fence (checked as the statement starts)
# let it through, while the lease's row it holds keeps the next leader waiting: the server
# checks every half second that the session's client is still there and cancels it if not.
# The application name says which process a session is (pg_stat_activity, a fault's target).
SERVER_SETTINGS = {"idle_in_transaction_session_timeout": "5000",
                   "client_connection_check_interval": "500",
                   "application_name": f"twentyfour/{os.getpid()}"}


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


async def keep_session(_connection: asyncpg.Connection) -> None:
    """What a connection released to the pool keeps: its session as it was opened. asyncpg
    rolls back an open transaction first either way; its default reset adds a round trip at
    every release (RESET ALL, releasing session advisory locks, closing cursors, UNLISTEN)
    for state the stores never make — their settings (SET LOCAL) and advisory locks are
    their transaction's, and the fence's settings are given at connect time. In a worker's
    profiled burst those resets were 15,748 of its 37,419 round trips."""


def rows_changed(status: str) -> int:
    """The row count in a command tag ("UPDATE 1", "INSERT 0 1", "DELETE 3")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class Database:
    """The pool; build with `await Database.open(url)` (migrations applied)."""

    def __init__(self, pool: asyncpg.Pool, url: str = "",
                 lease: PostgresLeader | None = None) -> None:
        self.pool = pool
        self.url = url
        self.lease = lease
        if lease is not None:
            lease.on_lead.append(self.fence)

    @classmethod
    async def open(cls, url: str, migrate_to: int = LATEST, size: int = POOL_SIZE,
                   lease: PostgresLeader | None = None) -> Database:
        """Connect and migrate; DatabaseUnavailable, naming the server but never the password,
        when the server is out of reach, refuses the login or the migration fails. With a
        `lease`, the pool's writes carry its epoch once this process leads (`fence`)."""
        quiet_pool_outages()
        if lease is not None:
            try:
                await lease.hold()  # before anything is read: a restore may be under way
            except UNREACHABLE as error:
                raise unavailable(url, error) from error
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=size,
                                             timeout=CONNECT_SECONDS,
                                             server_settings=SERVER_SETTINGS,
                                             reset=keep_session)
        except UNREACHABLE as error:
            raise unavailable(url, error) from error
        assert pool is not None
        database = cls(pool, url, lease)
        try:
            await database.migrate(migrate_to)
        except BaseException as error:
            await pool.close()
            if isinstance(error, UNREACHABLE):
                raise unavailable(url, error) from error
            raise
        return database

    async def fence(self, epoch: int) -> None:
        """From now on every connection of the pool writes as `epoch`: new ones are opened
        with it and those open now are replaced (a busy one once it is released)."""
        fence = self.lease.settings(epoch) if self.lease is not None else {
            EPOCH_SETTING: str(epoch)}
        self.pool.set_connect_args(self.url, timeout=CONNECT_SECONDS, server_settings={
            **SERVER_SETTINGS, **fence})
        await self.pool.expire_connections()

    @contextmanager
    def fenced(self) -> Iterator[None]:
        """A write refused for an ended lease ends this process's lead."""
        try:
            yield
        except asyncpg.PostgresError as error:
            if getattr(error, "sqlstate", None) == FENCED and self.lease is not None:
                self.lease.lose(f"a write was refused: {error}")
            raise

    async def close(self) -> None:
        await self.pool.close()

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self.fenced():
            return [tuple(row) for row in await self.pool.fetch(sql, *params)]

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, its own transaction; the number of rows it changed."""
        with self.fenced():
            return rows_changed(await self.pool.execute(sql, *params))

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One INSERT; the new row's id (PostgreSQL has no last rowid: the statement returns
        it), or Refused when a unique index refuses it."""
        try:
            with self.fenced():
                return int(await self.pool.fetchval(sql + " RETURNING id", *params))
        except asyncpg.UniqueViolationError as error:
            raise Refused(str(error)) from error

    async def run_all(self, steps: Sequence[Step]) -> None:
        """The statements in one transaction, on a connection of their own."""
        async with self.transaction() as connection:
            for sql, params in steps:
                await connection.execute(sql, *params)

    async def run_guarded(self, guard: Step, steps: Sequence[Step]) -> bool:
        """`guard`, then `steps`, in one transaction, only if the guard changed a row; whether
        it did (if not, nothing is written)."""
        async with self.transaction() as connection:
            if not rows_changed(await connection.execute(guard[0], *guard[1])):
                return False
            for sql, params in steps:
                await connection.execute(sql, *params)
            return True

    async def insert_guarded(self, guard: Step, sql: str, params: Sequence[Any] = ()
                             ) -> int | None:
        """`guard`, then the INSERT, in one transaction, only if the guard changed a row; the
        new id, None if it changed nothing, or Refused when a unique index refuses it."""
        try:
            async with self.transaction() as connection:
                if not rows_changed(await connection.execute(guard[0], *guard[1])):
                    return None
                return int(await connection.fetchval(sql + " RETURNING id", *params))
        except asyncpg.UniqueViolationError as error:
            raise Refused(str(error)) from error

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of its own inside one transaction (committed unless it raises)."""
        with self.fenced():
            async with self.pool.acquire() as connection, connection.transaction():
                yield connection

    async def version(self) -> int:
        async with self.pool.acquire() as connection:
            return await _version(connection)

    async def migrate(self, to: int = LATEST) -> None:
        """Apply the schema's steps after the current version, each in its own transaction,
        under a lock: of processes starting together, one migrates and the others then see it
        done."""
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
                    step = script(current + 1, "postgres")
                    if step:  # (a step may be SQLite's alone)
                        await connection.execute(step)  # a script: the simple protocol
                        await analyse_written(connection)
                    await connection.execute("INSERT INTO schema_migrations (number) VALUES ($1)",
                                             current + 1)


# The tables the transaction wrote rows into so far (its own counts, its triggers' writes too)
WRITTEN = ("SELECT relid::regclass::text FROM pg_stat_xact_user_tables "
           "WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY 1")


async def analyse_written(connection: asyncpg.Connection) -> None:
    """The planner's statistics of every table the step wrote, taken in its transaction. A
    table a step made and filled (migration 31's week totals: a week of every player's wins
    on a year-old database) had none until autovacuum came by, a minute or more later, and its
    plans were made for an empty table meanwhile: every chat's week read all its rows and
    sorted them, 1.7 ms where its index in order took 0.2 (docs/benchmarks.md)."""
    for (table,) in await connection.fetch(WRITTEN):
        await connection.execute(f"ANALYZE {table}")  # a name as regclass quotes it


async def _version(connection: asyncpg.Connection) -> int:
    exists = await connection.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await connection.fetchval("SELECT COALESCE(MAX(number), 0) "
                                         "FROM schema_migrations"))
