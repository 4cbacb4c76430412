"""The trips to SQLite's thread (bot.store.sqlite.database `Trips`): the thread hands each trip's
outcomes straight to the event loop, where one callback answers every caller and sends what was
asked meanwhile. Nothing may hang on the way: a caller cancelled, a statement that raises what
is no Exception, the connection closed with statements still asked, each answers every other
caller and leaves the thread running."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from pathlib import Path

import aiosqlite
import pytest

from bot.store.sqlite.database import Database

CLOSED = (ValueError, sqlite3.ProgrammingError)
WAIT = 10.0  # seconds before a test calls a caller hung (each step takes milliseconds)


@pytest.fixture
async def db(tmp_path: Path):
    database = await Database.open(tmp_path / "trips.sqlite3")
    await database.run("CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT)")
    yield database
    if database.connection._connection is not None:
        await database.close()


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

    beside = asyncio.ensure_future(db.fetch("SELECT 1"))
    broken = asyncio.ensure_future(db.trips.run(interrupted))
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
