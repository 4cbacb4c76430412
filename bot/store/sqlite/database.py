"""One SQLite connection over aiosqlite, shared by every SQLite store, and the schema's steps
applied to it (bot.store.schema).

Every state change is one SQL statement, so one transaction: closing a round is a conditional
UPDATE whose row count decides, atomically, whether this caller closed it (two right answers
make one winner), and the database's own trigger scores the round in that same statement.
Single statements are pipelined, those asked for while a trip is under way going together in
the next (bot.store.sqlite.trips): on the event loop's thread when they are quick, else on
aiosqlite's; the few multi-statement transactions (migrations, a chat's move, a round's close
with its ratings, a round opened under its update's claim) are each one call, BEGIN to COMMIT
(a savepoint, when its trip's statements on the loop share one transaction), and ride in a trip
like a statement: one trip runs at a time, its calls one after another, so nothing of
another's comes inside them. (A gate once held a transaction apart from every
statement in flight, from when a transaction was spread over several awaits; it made a burst's
closes wait for every statement under way.)
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Hashable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.schema import LATEST
from bot.store.sql.connection import Refused, Step
from bot.store.sqlite.checkpoints import JOURNAL_LIMIT, Checkpoints
from bot.store.sqlite.hold import hold, release
from bot.store.sqlite.schema import steps
from bot.store.sqlite.trips import Trips, Work, is_locked
from bot.store.unavailable import DatabaseUnavailable

# A write lock held by someone else is waited for BUSY_SECONDS (SQLite's busy_timeout); past
# that, a statement is tried again LOCKED_RETRIES more times, after LOCKED_PAUSE, before the
# error is let through: a long checkpoint or a backup must not cost a player's answer.
BUSY_SECONDS = 5.0
SECURE_DELETE = "ON"
LOCKED_RETRIES = 3
LOCKED_PAUSE = 0.5
# A checkpoint that must cut the log (/forget) and found another under way: tried this many times
# in all, CHECKPOINT_PAUSE seconds more apart each time (0.6 s at most before it says so)
CHECKPOINT_TRIES = 4
CHECKPOINT_PAUSE = 0.1
T = TypeVar("T")
log = logging.getLogger(__name__)

# What to check, by SQLite's words for the failure (the start of the operator's line).
HINTS = (
    ("not a database", "is DATABASE_PATH the bot's SQLite file? move this file away"),
    ("locked", "another process holds the database: a second bot on the same file?"),
    ("readonly", "the database file and its folder must be writable by the bot's user"),
    ("unable to open", "the folder must exist and be writable by the bot's user"),
    ("disk i/o", "the disk is full or failing"),
)


def unavailable(path: Path | str, error: BaseException) -> DatabaseUnavailable:
    """The operator's line for a database that cannot be opened, migrated or written."""
    why = f"{error.strerror}: {error.filename}" if isinstance(error, OSError) and \
        error.strerror else str(error) or type(error).__name__
    hint = next((hint for words, hint in HINTS if words in why.lower()),
                "the folder must exist and be writable by the bot's user"
                if isinstance(error, OSError) else None)
    return DatabaseUnavailable(f"cannot open the database {path}: {why}"
                               + (f" ({hint})" if hint else ""))


def begin(connection: sqlite3.Connection) -> bool:
    """A call's transaction begun: within the trip's (bot.store.sqlite.trips.together) a
    savepoint, undone alone if the call fails; else a transaction of its own. Whether it is
    within."""
    within = connection.in_transaction
    connection.execute("SAVEPOINT steps" if within else "BEGIN IMMEDIATE")
    return within


def end(connection: sqlite3.Connection, within: bool) -> None:
    connection.execute("RELEASE steps" if within else "COMMIT")


def undo(connection: sqlite3.Connection, within: bool) -> None:
    """The call's steps undone; the trip's transaction (if within one) goes on without them.
    Nothing to undo when SQLite ended the transaction itself (a full disk, an I/O error)."""
    if not connection.in_transaction:
        return
    if within:
        connection.execute("ROLLBACK TO steps")
        connection.execute("RELEASE steps")
    else:
        connection.execute("ROLLBACK")


def transaction(connection: sqlite3.Connection, guard: Step | None,
                steps: Sequence[Step]) -> bool:
    """`guard` (if any), then `steps` only if it changed a row, in one transaction, on the
    database's thread; whether the guard changed a row (True without one). Rolled back whole
    on any error; a lock that outlasts the busy timeout fails BEGIN, before anything began."""
    within = begin(connection)
    try:
        changed = guard is None or connection.execute(*guard).rowcount > 0
        for sql, params in steps if changed else ():
            connection.execute(sql, params)
        end(connection, within)
    except BaseException:
        undo(connection, within)
        raise
    return changed


def guarded_insert(connection: sqlite3.Connection, guard: Step, sql: str,
                   params: Sequence[Any]) -> int | None:
    """`guard`, then the INSERT only if it changed a row, in one transaction, on the database's
    thread; the new row's id, or None if the guard changed nothing. Rolled back whole on any
    error (a constraint's refusal included)."""
    within = begin(connection)
    try:
        new: int | None = None
        if connection.execute(*guard).rowcount > 0:
            new = connection.execute(sql, params).lastrowid
            assert new is not None  # an INSERT's: SQLite's last_insert_rowid()
        end(connection, within)
    except BaseException:
        undo(connection, within)
        raise
    return new


class Database:
    """The connection; build with `await Database.open(path)` (migrations applied)."""

    def __init__(self, connection: aiosqlite.Connection, busy_seconds: float = BUSY_SECONDS,
                 retries: int = LOCKED_RETRIES) -> None:
        self.connection = connection
        self.trips = Trips(connection, busy_seconds)
        self.far = Far(self)  # the same database, every statement on aiosqlite's thread
        self.retries = retries
        self.pause = min(LOCKED_PAUSE, busy_seconds)
        self.held: int | None = None  # the hold on the file (bot.store.sqlite.hold)
        self.checkpoints: Checkpoints | None = None  # off the writer's thread (a file's)

    @classmethod
    async def open(cls, path: Path | str, migrate_to: int = LATEST,
                   busy_seconds: float = BUSY_SECONDS) -> Database:
        """Open, migrate and try a write; DatabaseUnavailable (the connection closed, so that
        its thread lets the process exit) when any of it fails."""
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise unavailable(path, error) from error
        held = hold(path)  # before the file is read: a restore may be replacing it
        try:
            # the event loop's thread runs quick statements on it too, never while aiosqlite's does
            connection = await aiosqlite.connect(str(path), isolation_level=None,
                                                 check_same_thread=False)
        except (OSError, sqlite3.Error) as error:
            release(held)
            raise unavailable(path, error) from error
        try:
            await connection.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
            await connection.execute("PRAGMA journal_mode=WAL")
            await connection.execute("PRAGMA foreign_keys=ON")
            # WAL with synchronous=NORMAL: a commit survives a crash of the bot; only a power
            # cut may lose the last moments. Syncing every commit would cap it at disk speed.
            await connection.execute("PRAGMA synchronous=NORMAL")
            # A deleted row's bytes are overwritten with zeros, not left in the page's free
            # space (/forget: tests/bot/store/test_forget_on_disk.py). Debian's SQLite does it by
            # default; other builds must be told. It costs writing the zeros, in pages that are
            # written anyway (bench/bench_year.py: /forget and a right answer with and without).
            await connection.execute(f"PRAGMA secure_delete={SECURE_DELETE}")
            database = cls(connection, busy_seconds, retries=0)  # at start-up: fail at once
            await database.migrate(migrate_to)
            await database.prove_writable()
            database.retries = LOCKED_RETRIES
            database.held = held
            if str(path) != ":memory:":  # the log folded in off the writer's thread
                await connection.execute("PRAGMA wal_autocheckpoint=0")
                await connection.execute(f"PRAGMA journal_size_limit={JOURNAL_LIMIT}")
                database.checkpoints = Checkpoints(path)
                database.checkpoints.start()
            # on the loop no statement waits for a lock: a trip that meets one goes to the
            # thread, which sets the wait for itself (bot.store.sqlite.trips)
            await connection.execute("PRAGMA busy_timeout=0")
        except BaseException as error:
            await connection.close()
            release(held)
            if isinstance(error, OSError | sqlite3.Error):
                raise unavailable(path, error) from error
            raise
        return database

    async def close(self) -> None:
        if self.checkpoints is not None:
            await self.checkpoints.stop()
        await self.connection.close()
        release(self.held)  # after the last write: a restore may go ahead from here
        self.held = None

    async def prove_writable(self) -> None:
        """Write the schema version over itself: a database that opens and reads but cannot
        be written (a read-only file or mount) fails here, at start-up, not at the first move."""
        version = await self.version()
        await self.run_all([(f"PRAGMA user_version = {version}", ())])

    async def _patiently(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """`attempt()`, tried again while another connection holds the write lock past the
        busy timeout, `retries` times at most (a locked statement changed nothing)."""
        for tried in range(self.retries + 1):
            try:
                return await attempt()
            except sqlite3.OperationalError as error:
                if not is_locked(error) or tried == self.retries:
                    raise
                log.warning("the database is locked by another connection; trying again")
                await asyncio.sleep(self.pause * (tried + 1))
        raise AssertionError("unreachable")

    async def fetch(self, sql: str, params: Sequence[Any] = (), *, far: bool = False
                    ) -> list[tuple]:
        def work(connection: sqlite3.Connection) -> list[tuple]:
            return [tuple(row) for row in connection.execute(sql, params).fetchall()]
        return await self._patiently(lambda: self._single(work, None if far else sql))

    async def run(self, sql: str, params: Sequence[Any] = (), *, far: bool = False) -> int:
        """One statement, its own transaction; the number of rows it changed."""
        def work(connection: sqlite3.Connection) -> int:
            return connection.execute(sql, params).rowcount
        return await self._patiently(lambda: self._single(work, None if far else sql))

    async def insert(self, sql: str, params: Sequence[Any] = (), *, far: bool = False) -> int:
        """One INSERT; the new row's id (SQLite's last rowid: RETURNING would need SQLite 3.35),
        or Refused when a constraint refuses it (the callers' "one open round / match per chat
        topic")."""
        def work(connection: sqlite3.Connection) -> int:
            cursor = connection.execute(sql, params)
            assert cursor.lastrowid is not None  # an INSERT's: SQLite's last_insert_rowid()
            return cursor.lastrowid
        try:
            return await self._patiently(lambda: self._single(work, None if far else sql))
        except sqlite3.IntegrityError as error:
            raise Refused(str(error)) from error

    async def insert_guarded(self, guard: Step, sql: str, params: Sequence[Any] = (), *,
                             far: bool = False) -> int | None:
        """`guard`, then the INSERT, in one transaction, only if the guard changed a row; the
        new id, None if it changed nothing, or Refused. The transaction is one call, so it
        rides in a trip with the single statements (a burst's /play would otherwise wait for
        every statement in flight, and hold the next ones back)."""
        def work(connection: sqlite3.Connection) -> int | None:
            return guarded_insert(connection, guard, sql, params)
        key = None if far else (guard[0], sql)
        try:
            return await self._patiently(lambda: self._single(work, key))
        except sqlite3.IntegrityError as error:
            raise Refused(str(error)) from error

    async def _single(self, work: Work, key: Hashable | None) -> Any:
        """One statement (or one transaction's call), in the next trip; `key` (its SQL) None
        when it must run on aiosqlite's thread."""
        return await self.trips.run(work, key)

    async def run_all(self, steps: Sequence[Step], *, far: bool = False) -> None:
        """The statements in one transaction: one call, in a trip with the single statements
        (nothing of theirs can come inside it)."""
        def work(connection: sqlite3.Connection) -> None:
            transaction(connection, None, steps)
        key = None if far else tuple(sql for sql, _ in steps)
        await self._patiently(lambda: self._single(work, key))

    async def run_guarded(self, guard: Step, steps: Sequence[Step], *, far: bool = False
                          ) -> bool:
        """`guard`, then `steps`, in one transaction, only if the guard changed a row; whether
        it did (if not, nothing is written). One call, as run_all."""
        def work(connection: sqlite3.Connection) -> bool:
            return transaction(connection, guard, steps)
        key = None if far else (guard[0], *(sql for sql, _ in steps))
        return await self._patiently(lambda: self._single(work, key))

    async def checkpoint(self) -> bool:
        """Copy the write-ahead log into the file and cut the log to nothing, so that no
        earlier version of a page (a deleted row's bytes) stays in it. Busy while another
        checkpoint runs (the log's own fold, bot.store.sqlite.checkpoints: a few milliseconds,
        longer on a loaded machine) or a reader needs part of the log: tried up to
        CHECKPOINT_TRIES times in all, a little longer apart each time; False when a reader kept
        part of it through them all (a backup copying the file then): the log keeps those pages
        until the next checkpoint."""
        for tried in range(CHECKPOINT_TRIES):
            if tried:
                await asyncio.sleep(CHECKPOINT_PAUSE * tried)
            busy, _, _ = (await self.fetch("PRAGMA wal_checkpoint(TRUNCATE)", far=True))[0]
            if not busy:
                return True
        return False

    async def version(self) -> int:
        rows = await self.fetch("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def migrate(self, to: int = LATEST) -> None:
        """Apply the schema's steps after the current version (bot.store.schema), each in its
        own transaction."""
        for number in range(await self.version() + 1, to + 1):
            await self.run_all([*((sql, ()) for sql in steps(number)),
                                (f"PRAGMA user_version = {number}", ())], far=True)


class Far:
    """The database with every statement on aiosqlite's thread, for the stores whose reads may
    be long whatever the indexes (a group's page over its year, /forget's erasure): the event
    loop never waits on them, not even the first time."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        return await self.database.fetch(sql, params, far=True)

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self.database.run(sql, params, far=True)

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self.database.insert(sql, params, far=True)

    async def run_all(self, steps: Sequence[Step]) -> None:
        await self.database.run_all(steps, far=True)

    async def run_guarded(self, guard: Step, steps: Sequence[Step]) -> bool:
        return await self.database.run_guarded(guard, steps, far=True)

    async def insert_guarded(self, guard: Step, sql: str, params: Sequence[Any] = ()
                             ) -> int | None:
        return await self.database.insert_guarded(guard, sql, params, far=True)
