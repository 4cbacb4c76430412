"""One SQLite connection over aiosqlite, shared by every SQLite store, and the schema's steps
applied to it (bot.store.schema).

Every state change is one SQL statement, so one transaction: closing a round is a conditional
UPDATE whose row count decides, atomically, whether this caller closed it (two right answers
make one winner), and the database's own trigger scores the round in that same statement.
Single statements are pipelined through aiosqlite's thread, those asked for while a trip to it
is under way going together in the next (`Trips`); the few multi-statement transactions
(migrations, a chat's move, a round's close with its ratings, a round opened under its update's
claim) are each one call on that thread, BEGIN to COMMIT, and ride in a trip like a statement:
aiosqlite's thread runs one call at a time, so nothing of another's comes inside them. (A gate
once held a transaction apart from every statement in flight, from when a transaction was
spread over several awaits; it made a burst's closes wait for every statement under way.) A
trip (a queue, a future, waking the thread and then the event loop) costs more CPU than the
statements it carries: one per statement was a good part of an update's CPU.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.schema import LATEST
from bot.store.sql.connection import Refused, Step
from bot.store.sqlite.checkpoints import JOURNAL_LIMIT, Checkpoints
from bot.store.sqlite.hold import hold, release
from bot.store.sqlite.schema import steps
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


def is_locked(error: BaseException) -> bool:
    """SQLITE_BUSY (and its extended codes): another connection holds the write lock."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.OperationalError) and code is not None \
        and code & 0xFF == sqlite3.SQLITE_BUSY


def unavailable(path: Path | str, error: BaseException) -> DatabaseUnavailable:
    """The operator's line for a database that cannot be opened, migrated or written."""
    why = f"{error.strerror}: {error.filename}" if isinstance(error, OSError) and \
        error.strerror else str(error) or type(error).__name__
    hint = next((hint for words, hint in HINTS if words in why.lower()),
                "the folder must exist and be writable by the bot's user"
                if isinstance(error, OSError) else None)
    return DatabaseUnavailable(f"cannot open the database {path}: {why}"
                               + (f" ({hint})" if hint else ""))


Work = Callable[[sqlite3.Connection], Any]  # a statement as the database's thread runs it


class Receipt:
    """What aiosqlite's thread is handed in place of a future with a trip: the thread's
    `get_loop().call_soon_threadsafe(...)` on it does nothing, as the trip hands its outcomes to
    the loop itself. Each item of aiosqlite's queue is a (future, function) pair, the function's
    outcome passed to the future's loop, from 0.20 to 0.22 (the range pyproject.toml allows; the
    store's tests run on both ends)."""

    def get_loop(self) -> Receipt:
        return self

    def call_soon_threadsafe(self, *_: object) -> None:
        return None


RECEIPT = Receipt()


class Trips:
    """Statements to aiosqlite's thread, together: one trip at a time carries every statement
    asked for since the last one left, in the order they were asked, each its own transaction
    with its own outcome (one failing fails only its caller). The thread runs statements one
    after another anyway, so waiting for the trip under way delays none of them.

    The thread hands a trip's outcomes straight to the event loop: one callback answers every
    caller and sends the next trip (what was asked while this one was away). A caller runs
    again two turns of the loop after its trip's end, not three (aiosqlite's future, then a task
    that awaited it, then the caller), and the next trip leaves a turn sooner. At half load each
    turn waits behind every other update's ready callbacks, and a right answer's result waits
    on about six trips in turn (docs/benchmarks.md)."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection
        self._next: list[tuple[asyncio.Future[Any], Work]] = []
        self._under_way = False  # a trip is on the thread, or about to leave
        self.sent = 0  # trips sent so far (tests count them)

    async def run(self, work: Work) -> Any:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._next.append((future, work))
        if not self._under_way:
            # the first trip leaves two turns of the loop from now: what is asked together is
            # often asked from tasks that `gather` made a moment ago and that start in the
            # next turn (a new chat's row and its player's, beside the chat's settings), so
            # they ride this trip rather than wait for the next
            self._under_way = True
            loop.call_soon(loop.call_soon, self._leave, loop)
        return await future

    def _leave(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the loop: every statement asked for since the last trip left, in one trip."""
        batch, self._next = self._next, []
        if not batch:
            self._under_way = False
            return
        connection = self.connection
        if not connection._running or connection._connection is None:  # as aiosqlite says
            self._back(loop, batch, [(False, ValueError("Connection closed"))] * len(batch))
            return

        def trip() -> None:  # on the database's thread
            try:
                outcomes = each(connection._conn, [work for _, work in batch])
            except BaseException as error:  # the connection closed under it: each hears so
                outcomes = [(False, error)] * len(batch)
            with contextlib.suppress(RuntimeError):  # the loop closed: no caller is left
                loop.call_soon_threadsafe(self._back, loop, batch, outcomes)

        connection._tx.put_nowait((RECEIPT, trip))  # type: ignore[arg-type]  # as a future
        self.sent += 1

    def _back(self, loop: asyncio.AbstractEventLoop, batch: list[tuple[asyncio.Future[Any], Work]],
              outcomes: list[tuple[bool, Any]]) -> None:
        """On the loop: each caller's outcome, then the next trip at once (what was asked while
        this one was away)."""
        for (future, _), (done, value) in zip(batch, outcomes, strict=True):
            if future.done():  # its caller was cancelled
                continue
            if done:
                future.set_result(value)
            elif isinstance(value, Exception):
                future.set_exception(value)
            else:
                future.cancel()
        self._leave(loop)


def each(connection: sqlite3.Connection, works: Sequence[Work]) -> list[tuple[bool, Any]]:
    """On the database's thread: every statement of a trip, (True, its result) or (False, its
    error) for each."""
    outcomes: list[tuple[bool, Any]] = []
    for work in works:
        try:
            outcomes.append((True, work(connection)))
        except Exception as error:  # handed to the statement's caller
            outcomes.append((False, error))
    return outcomes


def transaction(connection: sqlite3.Connection, guard: Step | None,
                steps: Sequence[Step]) -> bool:
    """`guard` (if any), then `steps` only if it changed a row, in one transaction, on the
    database's thread; whether the guard changed a row (True without one). Rolled back whole
    on any error; a lock that outlasts the busy timeout fails BEGIN, before anything began."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        changed = guard is None or connection.execute(*guard).rowcount > 0
        for sql, params in steps if changed else ():
            connection.execute(sql, params)
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return changed


def guarded_insert(connection: sqlite3.Connection, guard: Step, sql: str,
                   params: Sequence[Any]) -> int | None:
    """`guard`, then the INSERT only if it changed a row, in one transaction, on the database's
    thread; the new row's id, or None if the guard changed nothing. Rolled back whole on any
    error (a constraint's refusal included)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        new: int | None = None
        if connection.execute(*guard).rowcount > 0:
            new = connection.execute(sql, params).lastrowid
            assert new is not None  # an INSERT's: SQLite's last_insert_rowid()
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return new


class Database:
    """The connection; build with `await Database.open(path)` (migrations applied)."""

    def __init__(self, connection: aiosqlite.Connection, busy_seconds: float = BUSY_SECONDS,
                 retries: int = LOCKED_RETRIES) -> None:
        self.connection = connection
        self.trips = Trips(connection)
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
            connection = await aiosqlite.connect(str(path), isolation_level=None)
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

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        def work(connection: sqlite3.Connection) -> list[tuple]:
            return [tuple(row) for row in connection.execute(sql, params).fetchall()]
        return await self._patiently(lambda: self._single(work))

    async def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, its own transaction; the number of rows it changed."""
        def work(connection: sqlite3.Connection) -> int:
            return connection.execute(sql, params).rowcount
        return await self._patiently(lambda: self._single(work))

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One INSERT; the new row's id (SQLite's last rowid: RETURNING would need SQLite 3.35),
        or Refused when a constraint refuses it (the callers' "one open round / match per chat
        topic")."""
        def work(connection: sqlite3.Connection) -> int:
            cursor = connection.execute(sql, params)
            assert cursor.lastrowid is not None  # an INSERT's: SQLite's last_insert_rowid()
            return cursor.lastrowid
        try:
            return await self._patiently(lambda: self._single(work))
        except sqlite3.IntegrityError as error:
            raise Refused(str(error)) from error

    async def insert_guarded(self, guard: Step, sql: str, params: Sequence[Any] = ()
                             ) -> int | None:
        """`guard`, then the INSERT, in one transaction, only if the guard changed a row; the
        new id, None if it changed nothing, or Refused. The transaction is one call on the
        database's thread, so it rides in a trip with the single statements (a burst's /play
        would otherwise wait for every statement in flight, and hold the next ones back)."""
        def work(connection: sqlite3.Connection) -> int | None:
            return guarded_insert(connection, guard, sql, params)
        try:
            return await self._patiently(lambda: self._single(work))
        except sqlite3.IntegrityError as error:
            raise Refused(str(error)) from error

    async def _single(self, work: Work) -> Any:
        """One statement (or one transaction's call), in the next trip to the database's
        thread."""
        return await self.trips.run(work)

    async def run_all(self, steps: Sequence[Step]) -> None:
        """The statements in one transaction: one call on the database's thread, in a trip
        with the single statements (nothing of theirs can come inside it)."""
        def work(connection: sqlite3.Connection) -> None:
            transaction(connection, None, steps)
        await self._patiently(lambda: self._single(work))

    async def run_guarded(self, guard: Step, steps: Sequence[Step]) -> bool:
        """`guard`, then `steps`, in one transaction, only if the guard changed a row; whether
        it did (if not, nothing is written). One call on the database's thread, as run_all."""
        def work(connection: sqlite3.Connection) -> bool:
            return transaction(connection, guard, steps)
        return await self._patiently(lambda: self._single(work))

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
            busy, _, _ = (await self.fetch("PRAGMA wal_checkpoint(TRUNCATE)"))[0]
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
                                (f"PRAGMA user_version = {number}", ())])
