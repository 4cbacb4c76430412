"""The trips to SQLite's thread (bot.store.sqlite.database `Trips`): the thread hands each trip's
outcomes straight to the event loop, where one callback answers every caller and sends what was
asked meanwhile. Nothing may hang on the way: a caller cancelled, a statement that raises what
is no Exception, the connection closed with statements still asked, each answers every other
caller and leaves the thread running."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path

import aiosqlite
import pytest

from bot.store.sqlite import trips
from bot.store.sqlite.database import Database
from tests.bot.store.sqlite.conftest import FILE

CLOSED = (ValueError, sqlite3.ProgrammingError)
WAIT = 10.0  # seconds before a test calls a caller hung (each step takes milliseconds)


def blocking(release: threading.Event, started: threading.Event):
    """A statement that holds the database's thread until `release` is set."""
    def work(connection: sqlite3.Connection) -> str:
        started.set()
        release.wait(WAIT)
        return "held"
    return work


async def test_what_is_asked_while_a_trip_is_away_leaves_together_when_it_is_back(db: Database):
    release, started = threading.Event(), threading.Event()
    held = asyncio.ensure_future(db.trips.run(blocking(release, started)))
    await asyncio.to_thread(started.wait, WAIT)
    sent = db.trips.sent
    asked = [asyncio.ensure_future(db.run("INSERT INTO t (n, v) VALUES (?, ?)", (n, str(n))))
             for n in range(10)]
    asked.append(asyncio.ensure_future(db.fetch("SELECT COUNT(*) FROM t")))
    await asyncio.sleep(0.05)
    assert db.trips.sent == sent  # none left while the thread was held
    release.set()
    results = await asyncio.wait_for(asyncio.gather(held, *asked), WAIT)
    assert results == ["held", *[1] * 10, [(10,)]]  # in the order asked: the count sees all
    assert db.trips.sent == sent + 1  # all ten and the read in one trip


async def test_a_cancelled_caller_leaves_the_others_of_its_trip_answered(db: Database):
    release, started = threading.Event(), threading.Event()
    held = asyncio.ensure_future(db.trips.run(blocking(release, started)))
    await asyncio.to_thread(started.wait, WAIT)
    gone = asyncio.ensure_future(db.run("INSERT INTO t (n, v) VALUES (1, 'gone')"))
    kept = asyncio.ensure_future(db.fetch("SELECT 2"))
    await asyncio.sleep(0)
    gone.cancel()
    release.set()
    assert await asyncio.wait_for(kept, WAIT) == [(2,)]
    assert await held == "held"
    assert gone.cancelled()
    assert await db.fetch("SELECT v FROM t") == [("gone",)]  # asked, so written all the same


async def test_a_statement_raising_what_is_no_exception_cancels_its_trip_and_spares_the_next(
        db: Database):
    release, started = threading.Event(), threading.Event()
    held = asyncio.ensure_future(db.trips.run(blocking(release, started)))
    await asyncio.to_thread(started.wait, WAIT)

    def interrupted(connection: sqlite3.Connection) -> None:
        raise KeyboardInterrupt  # what `each` does not catch: the whole trip ends with it

    broken = asyncio.ensure_future(db.trips.run(interrupted))  # on the thread (no key)
    beside = asyncio.ensure_future(db.fetch("SELECT 1"))  # after it, so on the thread too
    release.set()
    await asyncio.wait([beside, broken], timeout=WAIT)
    assert beside.cancelled() and broken.cancelled()
    assert await held == "held"
    assert await asyncio.wait_for(db.fetch("SELECT 3"), WAIT) == [(3,)]  # the thread runs on


async def test_statements_asked_around_the_close_are_each_answered(tmp_path: Path):
    """Asked while the close is under way: answered, or told the connection is closed
    (aiosqlite's ValueError once it knows, sqlite3's while its close runs); asked after it:
    told so at once. None waits for ever."""
    database = await Database.open(tmp_path / "closing.sqlite3")
    before = [asyncio.ensure_future(database.fetch("SELECT ?", (n,))) for n in range(5)]
    await asyncio.sleep(0)  # they are asked; their trip leaves in the next turns
    closing = asyncio.ensure_future(database.close())
    await asyncio.sleep(0)
    after = asyncio.ensure_future(database.fetch("SELECT 9"))
    _, pending = await asyncio.wait([*before, closing, after], timeout=WAIT)
    assert not pending
    for n, future in enumerate([*before, after]):
        assert isinstance(future.exception(), CLOSED) \
            or future.result() == [(n if n < 5 else 9,)]
    with pytest.raises(ValueError):
        await database.fetch("SELECT 1")


def test_the_aiosqlite_under_test_is_the_one_asked_for():
    """`make test` runs these tests again on the oldest aiosqlite allowed (AIOSQLITE_EXPECTED):
    that pass proves nothing if another copy was imported."""
    assert aiosqlite.__version__ == os.environ.get("AIOSQLITE_EXPECTED", aiosqlite.__version__)


def where_am_i(db: Database, *slow: float) -> None:
    """SQL functions on the connection: where_am_i() is the thread that runs the statement,
    slow() that, after the next of `slow`'s seconds of the clock (0 once they are used up)."""
    db.connection._conn.create_function("where_am_i", 0, threading.get_ident)
    delays = iter(slow)

    def late() -> int:
        time.sleep(next(delays, 0.0))
        return threading.get_ident()
    db.connection._conn.create_function("slow", 0, late)


async def test_quick_statements_run_on_the_event_loop_and_far_ones_on_the_thread(db: Database):
    where_am_i(db)
    here = threading.get_ident()
    far = db.trips.far
    assert await db.fetch("SELECT where_am_i()") == [(here,)]
    assert await db.run("INSERT INTO t (n, v) VALUES (1, 'a')") == 1
    assert db.trips.far == far  # no trip to the thread
    (elsewhere,), = await db.far.fetch("SELECT where_am_i()")
    assert elsewhere != here and db.trips.far == far + 1
    # asked together: the leading quick ones on the loop, the rest of the trip on the thread,
    # in the order asked (the far read sees the write before it, the last read both)
    results = await asyncio.gather(
        db.run("INSERT INTO t (n, v) VALUES (2, 'b')"),
        db.far.fetch("SELECT count(*), where_am_i() FROM t"),
        db.fetch("SELECT count(*), where_am_i() FROM t"))
    assert results[0] == 1
    assert results[1] == [(2, elsewhere)] and results[2] == [(2, elsewhere)]


async def test_a_statement_slow_on_the_event_loop_twice_in_a_row_runs_on_the_thread_then(
        db: Database, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.INFO, "bot.store.sqlite.trips")
    where_am_i(db, 0.08, 0.08, 0.08)  # past NEAR_WALL
    here = threading.get_ident()
    assert await db.fetch("SELECT slow()") == [(here,)]  # slow once: as a first run may be
    assert await db.fetch("SELECT slow()") == [(here,)]  # twice in a row: known from now on
    assert "runs on the database's thread from now on: SELECT slow()" in caplog.text
    (third,), = await db.fetch("SELECT slow()")
    assert third != here
    assert await db.fetch("SELECT where_am_i()") == [(here,)]  # the others stay


async def test_a_statement_slow_now_and_then_stays_on_the_event_loop(
        db: Database, monkeypatch: pytest.MonkeyPatch):
    """A first run is slow while SQLite prepares the statement (a round's close with its
    scoring trigger: 4.3 ms of CPU); a slow spell of the machine may make any run slow. Neither
    sends a statement of a round's path to the thread for good: only twice in a row does. (The
    slow runs sleep past a NEAR_WALL of 0.2 s, so that a loaded machine's stall of the quick
    ones between them is not taken for slowness; a stall past 5 ms that is not slow clears the
    run before it, `Trips._judge`.)"""
    monkeypatch.setattr(trips, "NEAR_WALL", 0.2)
    where_am_i(db, 0.25, 0.0, 0.25, 0.0, 0.25)
    here = threading.get_ident()
    for _ in range(6):
        assert await db.fetch("SELECT slow()") == [(here,)]
    assert not db.trips.far_keys


async def test_the_thread_waits_for_a_lock_and_the_event_loop_never_does(db: Database,
                                                                         tmp_path: Path):
    """Another connection holds the write lock for 0.3 s: a write asked meanwhile is not
    refused (it goes to the thread, which waits for the lock as long as BUSY_SECONDS allows),
    and the event loop runs on while it waits; the connection's wait is its own again after."""
    where_am_i(db)
    other = sqlite3.connect(tmp_path / FILE, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    ticks = 0

    async def ticking() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.ensure_future(ticking())
    loop = asyncio.get_running_loop()
    loop.call_later(0.3, other.execute, "COMMIT")
    try:
        started = loop.time()
        assert await asyncio.wait_for(db.run("INSERT INTO t (n, v) VALUES (7, 'x')"), WAIT) == 1
        assert loop.time() - started >= 0.25  # it waited for the lock
        assert ticks >= 10  # and the loop went on meanwhile
    finally:
        ticker.cancel()
        other.close()
    assert await db.fetch("PRAGMA busy_timeout") == [(0,)]  # on the loop: no wait
    assert await db.far.fetch("PRAGMA busy_timeout") == [(5000,)]  # on the thread: BUSY_SECONDS
    assert await db.fetch("SELECT v, where_am_i() FROM t") == [("x", threading.get_ident())]


async def test_the_long_work_runs_on_the_thread_whatever_its_first_run(tmp_path: Path):
    """A group's move (a year of rounds, 100 a transaction, then one for the rest), /forget's
    erasure and the pages' reads may each take tens of milliseconds on a year's file: they go
    to aiosqlite's thread from the start, so the event loop never waits on them."""
    from bot.store.sqlite import open_sqlite
    stores = await open_sqlite(tmp_path / "bot.sqlite3")
    db = stores.rounds.db
    try:
        where_am_i(db)
        await stores.people.migrate_chat(-1, -1001)
        await stores.forgetting.forget_user(7)
        near = db.trips.sent - db.trips.far
        far = db.trips.far
        await stores.people.migrate_chat(-2, -1002)
        await stores.forgetting.forget_user(8)
        assert db.trips.sent - db.trips.far == near  # not one statement on the loop
        assert db.trips.far >= far + 6
        (elsewhere,), = await stores.pages.db.fetch("SELECT where_am_i()")
        assert elsewhere != threading.get_ident()
    finally:
        await stores.close()


async def test_a_run_slow_on_the_clock_alone_clears_the_slow_run_before_it(db: Database):
    """Past 5 ms of the clock with little CPU and under NEAR_WALL: the loop was not running
    (the machine busy elsewhere). Not slow, and not a quick run to ignore either: the next slow
    run is not the statement's second in a row."""
    key = "SELECT slow()"
    db.trips._judge(key, cpu=0.02, wall=0.02)  # slow once (its CPU)
    assert key in db.trips._slow_once
    db.trips._judge(key, cpu=0.0, wall=trips.NEAR_CPU * 2)  # a stall, not slowness
    assert key not in db.trips._slow_once
    db.trips._judge(key, cpu=0.02, wall=0.02)  # slow again: once, not twice in a row
    assert key not in db.trips.far_keys
