"""Statements asked for together, run together: on the event loop's own thread when they are
quick, on aiosqlite's thread when they may take long or must wait for a lock.

A statement of a round's path takes tens of microseconds in SQLite; handing it to another
thread and back (a queue, a future, waking the thread, then the loop through its self-pipe, and
the two threads taking the interpreter's lock in turns) cost more than the statement, and the
thread's turns at that lock made every update's time longer when the loop was busy. So a trip
whose statements are all near runs where it was asked for, in one go; `bench/bench_guard.py`
against the code that sent every trip to the thread: the burst 1.07-1.10x, CPU an update
0.89-0.93x, the half-load p99 at most the same at a higher rate (docs/benchmarks.md).

What stays on aiosqlite's thread (a "far" statement): what a caller marks so (migrations, the log's
cut, a group's move, /forget, the pages' reads), a statement whose runs on the loop took more than
NEAR_CPU of the thread's CPU or NEAR_WALL of the clock twice in a row (from then on, for this
process; twice, as a statement's first run in a connection is slow once while SQLite prepares it,
its triggers included: a round's close took 4.3 ms of CPU the first time, and 0.9-2.8 ms after it),
and whatever met another connection's write lock: on the loop the connection waits for no lock
(busy_timeout 0), and the statement that met one goes, with the rest of its trip, to the thread,
which waits BUSY_SECONDS as it always did. One connection serves both threads, never both at once:
a trip runs on the loop only while no trip is on the thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import sqlite3
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import aiosqlite

Work = Callable[[sqlite3.Connection], Any]  # a statement as the connection runs it
Key = Hashable | None  # what a statement is known by (its SQL); None: always far
Asked = tuple[asyncio.Future[Any], Work, Key]
Outcome = tuple[bool, Any]

NEAR_CPU = 0.005  # seconds of the loop thread's CPU past which a statement runs far from then on
NEAR_WALL = 0.050  # seconds of the clock past which it does (a read that waited on the disk)
FAR_KEPT = 1_000  # statements known to be far, at most (the code's statements are fewer)
log = logging.getLogger(__name__)


def is_locked(error: BaseException) -> bool:
    """SQLITE_BUSY (and its extended codes): another connection holds the write lock."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.OperationalError) and code is not None \
        and code & 0xFF == sqlite3.SQLITE_BUSY


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
    """One trip at a time carries every statement asked for since the last one, in the order
    they were asked, each with its own outcome (one failing fails only its caller). The leading
    near statements run on the loop, two or more in one transaction committed once
    (`together`); from the first far one on, the rest goes to aiosqlite's thread, each its own
    transaction, whose outcomes come back in one callback that answers every caller and starts
    the next trip (what was asked while this one was away)."""

    def __init__(self, connection: aiosqlite.Connection, busy_seconds: float) -> None:
        self.connection = connection
        self.busy_ms = int(busy_seconds * 1000)
        self._next: list[Asked] = []
        self._under_way = False  # a trip is on the thread, or about to leave
        self.sent = 0  # trips so far, wherever they ran (tests count them)
        self.far = 0  # of them, those that went to the thread
        self.far_keys: set[Hashable] = set()  # statements slow on the loop twice in a row
        self._slow_once: set[Hashable] = set()  # statements whose last run on the loop was slow

    async def run(self, work: Work, key: Key = None) -> Any:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._next.append((future, work, key))
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
            _answer(batch, [(False, ValueError("Connection closed"))] * len(batch))
            self._under_way = False
            return
        self.sent += 1
        ran = self._near(connection._conn, batch)
        if ran == len(batch):
            self._under_way = False  # nothing can have been asked meanwhile
            return
        self._far(loop, batch[ran:])

    def _near(self, connection: sqlite3.Connection, batch: list[Asked]) -> int:
        """The leading near statements, on the loop; how many ran (the rest go far). Where two
        or more of them write, they run in one transaction (`together`). Each is timed on the
        clock (70 ns); the thread's CPU clock (a system call, 1 us) is read once a trip, and
        again only when a statement took longer than NEAR_CPU of the clock, to tell a slow
        statement from a loop that was not running."""
        outcomes: list[Outcome] = []
        slow: list[tuple[float, Hashable]] = []
        cpu = time.thread_time()
        grouped = self._near_writes(batch) > 1 and together(connection)
        try:
            for _, work, key in batch:
                if key is None or key in self.far_keys:
                    break
                start = time.perf_counter()
                try:
                    outcomes.append((True, work(connection)))
                except Exception as error:
                    if is_locked(error) and not grouped:  # another connection writes: the
                        break  # thread waits for it (a trip together holds the lock already)
                    outcomes.append((False, error))
                if grouped and not connection.in_transaction:  # SQLite ended it: a full disk,
                    outcomes = lost(outcomes)  # an I/O error; what ran before it is undone
                    grouped = False
                    break
                wall = time.perf_counter() - start
                if wall > NEAR_CPU:
                    slow.append((wall, key))
                elif key in self._slow_once:
                    self._slow_once.discard(key)
            if grouped:
                outcomes = committed(connection, outcomes)
        except BaseException:  # what no statement should raise: no caller is left waiting
            if grouped:
                outcomes = lost(outcomes, rollback=connection)
            _answer(batch[:len(outcomes)], outcomes)
            for future, _, _ in batch[len(outcomes):]:
                future.cancel()
            self._under_way = False
            raise
        _answer(batch[:len(outcomes)], outcomes)  # their callers run in the loop's next turns
        if slow:
            cpu = time.thread_time() - cpu
            for wall, key in slow:
                self._judge(key, cpu, wall)
        return len(outcomes)

    def _near_writes(self, batch: list[Asked]) -> int:
        """How many of the batch's leading near statements may write: a transaction is worth
        its BEGIN and COMMIT only to two or more (reads alone need none)."""
        count = 0
        for _, _, key in batch:
            if key is None or key in self.far_keys:
                break
            count += not reads(key)
        return count

    def _judge(self, key: Hashable, cpu: float, wall: float) -> None:
        """A run past NEAR_CPU of the clock: slow if it (or its trip) used that much of the
        thread's CPU or NEAR_WALL of the clock; else the loop was not running meanwhile (the
        machine busy elsewhere), which says nothing of the statement, and is not slow either:
        the next slow run is not its second in a row."""
        if cpu > NEAR_CPU or wall > NEAR_WALL:
            self._slow(key, cpu, wall)
        else:
            self._slow_once.discard(key)

    def _slow(self, key: Hashable, cpu: float, wall: float) -> None:
        """A statement slow on the loop: far from then on if its last run was slow too (its
        first run in a connection may be slow only once: SQLite prepares it, its triggers
        included, and keeps it prepared)."""
        if key not in self._slow_once:
            if len(self._slow_once) < FAR_KEPT:
                self._slow_once.add(key)
        elif len(self.far_keys) < FAR_KEPT:
            self.far_keys.add(key)
            log.info("a statement took %.1f ms (its trip %.1f of CPU) on the event loop twice "
                     "in a row; it runs on the database's thread from now on: %.80s",
                     wall * 1000, cpu * 1000, key)

    def _far(self, loop: asyncio.AbstractEventLoop, batch: list[Asked]) -> None:
        """The rest of a trip, on aiosqlite's thread, waiting for a lock as long as the
        database allows; the outcomes come back to `_back` on the loop."""
        connection = self.connection
        busy_ms = self.busy_ms

        def trip() -> None:  # on the database's thread
            try:
                conn = connection._conn
                conn.execute(f"PRAGMA busy_timeout={busy_ms}")
                try:
                    outcomes = each(conn, [work for _, work, _ in batch])
                finally:
                    conn.execute("PRAGMA busy_timeout=0")  # the loop's statements never wait
            except BaseException as error:  # the connection closed under it: each hears so
                outcomes = [(False, error)] * len(batch)
            with contextlib.suppress(RuntimeError):  # the loop closed: no caller is left
                loop.call_soon_threadsafe(self._back, loop, batch, outcomes)

        connection._tx.put_nowait((RECEIPT, trip))  # type: ignore[arg-type]  # as a future
        self.far += 1

    def _back(self, loop: asyncio.AbstractEventLoop, batch: list[Asked],
              outcomes: list[Outcome]) -> None:
        """On the loop: each caller's outcome, then the next trip at once (what was asked while
        this one was away)."""
        _answer(batch, outcomes)
        self._leave(loop)


def _answer(batch: Sequence[Asked], outcomes: Sequence[Outcome]) -> None:
    for (future, _, _), (done, value) in zip(batch, outcomes, strict=True):
        if future.done():  # its caller was cancelled
            continue
        if done:
            future.set_result(value)
        elif isinstance(value, Exception):
            future.set_exception(value)
        else:
            future.cancel()


@functools.lru_cache(maxsize=FAR_KEPT)
def reads(key: Hashable) -> bool:
    """Whether a statement only reads, by its SQL: a SELECT or a PRAGMA, or a WITH whose
    statement writes nothing (a call of several steps may write; a reader taken for a writer
    is only not spared a commit, and a writer taken for a reader only not grouped). Asked of
    every statement of every trip, of the code's few hundred statements: each told once."""
    if not isinstance(key, str):
        return False
    sql = key.lstrip().upper()
    if sql.startswith("WITH"):
        return WRITES.search(sql) is None
    return sql.startswith(("SELECT", "PRAGMA"))


WRITES = re.compile(r"\b(INSERT|UPDATE|DELETE|REPLACE)\b")


def together(connection: sqlite3.Connection) -> bool:
    """A transaction for a trip's statements on the loop, begun if the write lock is free:
    whether it was. Each statement alone would be a transaction of its own and write the log
    at its commit; a trip's ten commit once (a burst's trips carry several each: every
    answer's row, its update's mark, a close with its ratings). A statement that fails still
    fails alone (SQLite undoes a failed statement, and a call of several steps undoes its own
    in a savepoint, bot.store.sqlite.database), and the callers hear only after the commit."""
    try:
        connection.execute("BEGIN IMMEDIATE")
    except sqlite3.Error:  # another connection's lock, or what each statement meets on its own
        return False  # (answered to its caller; raised here, it would answer no caller)
    return True


def committed(connection: sqlite3.Connection, outcomes: list[Outcome]) -> list[Outcome]:
    """The trip's transaction committed: the outcomes as they were, or each the commit's error
    (none of the trip's writes was kept)."""
    try:
        connection.execute("COMMIT")
    except sqlite3.Error as error:
        return lost(outcomes, error, rollback=connection)
    return outcomes


def lost(outcomes: list[Outcome], error: Exception | None = None,
         rollback: sqlite3.Connection | None = None) -> list[Outcome]:
    """Every statement of a trip's transaction that ended without its commit, failed: what it
    wrote was undone with the rest, so no caller may hear that it was kept."""
    if rollback is not None and rollback.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            rollback.execute("ROLLBACK")
    failure = error or sqlite3.OperationalError("the statements' transaction was rolled back")
    return [(False, failure)] * len(outcomes)


def each(connection: sqlite3.Connection, works: Sequence[Work]) -> list[Outcome]:
    """On the database's thread: every statement of a trip, (True, its result) or (False, its
    error) for each."""
    outcomes: list[Outcome] = []
    for work in works:
        try:
            outcomes.append((True, work(connection)))
        except Exception as error:  # handed to the statement's caller
            outcomes.append((False, error))
    return outcomes
