"""A trip's writes committed together (bot.store.sqlite.together): one transaction for a trip
that carries two writes or more, each caller told its own outcome, and no caller told of a write
that was not kept — when one call is refused, when one call's own transaction fails, when a call
ends the whole transaction, when the COMMIT itself fails, and with a statement that cannot run
inside a transaction in the same trip."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import pytest

from bot.store.sql.connection import Refused
from bot.store.sqlite.database import Database

WAIT = 10.0
INSERT = "INSERT INTO t (n, v) VALUES (?, ?)"


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "together.sqlite3")
    await database.run("CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT NOT NULL)")
    await database.run("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
    await database.run("CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES "
                       "parent(id) DEFERRABLE INITIALLY DEFERRED)")
    yield database
    await database.close()


async def traced(db: Database) -> list[str]:
    """The transactions' statements the connection runs from now on."""
    seen: list[str] = []

    def trace(sql: str) -> None:
        word = sql.split(maxsplit=1)[0].upper()
        if word in ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"):
            seen.append(" ".join(sql.split()[:2]).upper())
    await db.trips.run(lambda connection: connection.set_trace_callback(trace))
    return seen


async def in_one_trip(db: Database, *asked: Awaitable[Any]) -> list[Any]:
    """The calls asked while the thread is held, so that they leave in one trip; each outcome
    (its result or its error)."""
    release, started = threading.Event(), threading.Event()

    def hold(connection: sqlite3.Connection) -> None:
        started.set()
        release.wait(WAIT)
    held = asyncio.ensure_future(db.trips.run(hold))
    await asyncio.to_thread(started.wait, WAIT)
    sent = db.trips.sent
    calls = [asyncio.ensure_future(call) for call in asked]
    await asyncio.sleep(0.05)  # each asked, none sent: the thread is held
    release.set()
    await held
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert db.trips.sent == sent + 1  # all of them in one trip
    return outcomes


async def rows(db: Database) -> list[tuple]:
    return await db.fetch("SELECT n, v FROM t ORDER BY n")


async def test_a_trip_s_writes_are_one_transaction(db: Database) -> None:
    seen = await traced(db)
    got = await in_one_trip(db, *(db.run(INSERT, (n, str(n))) for n in range(5)),
                            db.insert(INSERT, (9, "nine")), db.fetch("SELECT COUNT(*) FROM t"))
    assert got == [1, 1, 1, 1, 1, 9, [(6,)]]  # the read saw the trip's own writes
    assert seen == ["BEGIN IMMEDIATE", "COMMIT"]
    assert await rows(db) == [(0, "0"), (1, "1"), (2, "2"), (3, "3"), (4, "4"), (9, "nine")]


async def test_a_trip_of_reads_or_of_one_write_runs_as_before(db: Database) -> None:
    seen = await traced(db)
    await in_one_trip(db, db.fetch("SELECT 1"), db.fetch("SELECT 2"))
    await in_one_trip(db, db.run(INSERT, (1, "a")), db.fetch("SELECT 2"))
    assert seen == []  # each read and the single write in SQLite's own transactions


async def test_a_refused_write_fails_alone(db: Database) -> None:
    await db.run(INSERT, (1, "one"))
    got = await in_one_trip(db, db.run(INSERT, (2, "two")), db.insert(INSERT, (1, "again")),
                            db.run(INSERT, (3, None)), db.run(INSERT, (4, "four")))
    assert got[0] == 1 and got[3] == 1
    assert isinstance(got[1], Refused)  # the primary key
    assert isinstance(got[2], sqlite3.IntegrityError)  # NOT NULL
    assert await rows(db) == [(1, "one"), (2, "two"), (4, "four")]


async def test_a_call_s_own_transaction_is_undone_alone(db: Database) -> None:
    got = await in_one_trip(
        db, db.run(INSERT, (1, "one")),
        db.run_all([(INSERT, (2, "two")), (INSERT, (1, "clash"))]),  # its second step refused
        db.run_guarded(("UPDATE t SET v = 'uno' WHERE n = 1", ()), [(INSERT, (5, "five"))]),
        db.run(INSERT, (6, "six")))
    assert got[0] == 1 and got[2] is True and got[3] == 1
    assert isinstance(got[1], sqlite3.IntegrityError)
    assert await rows(db) == [(1, "uno"), (5, "five"), (6, "six")]  # none of run_all's steps


async def test_a_call_that_ends_the_transaction_loses_no_other_call_s_write(db: Database) -> None:
    """INSERT OR ROLLBACK refused rolls back the whole transaction: the calls before it are run
    again on their own, the calls after it too, and only it fails."""
    await db.run(INSERT, (1, "one"))
    got = await in_one_trip(db, db.run(INSERT, (2, "two")), db.insert(INSERT, (3, "three")),
                            db.run("INSERT OR ROLLBACK INTO t (n, v) VALUES (1, 'x')"),
                            db.run(INSERT, (4, "four")))
    assert got[0] == 1 and got[1] == 3 and got[3] == 1
    assert isinstance(got[2], sqlite3.IntegrityError)
    assert await rows(db) == [(1, "one"), (2, "two"), (3, "three"), (4, "four")]


async def test_a_refused_commit_loses_no_other_call_s_write(db: Database) -> None:
    """A deferred foreign key is checked at COMMIT: the trip's transaction cannot be kept, so
    each call runs again on its own and the one that breaks the key fails alone."""
    await db.run("INSERT INTO parent (id) VALUES (1)")
    got = await in_one_trip(db, db.run(INSERT, (1, "one")),
                            db.run("INSERT INTO child (id, parent) VALUES (1, 1)"),
                            db.run("INSERT INTO child (id, parent) VALUES (2, 99)"),
                            db.run(INSERT, (2, "two")))
    assert got[0] == 1 and got[1] == 1 and got[3] == 1
    assert isinstance(got[2], sqlite3.IntegrityError)
    assert await rows(db) == [(1, "one"), (2, "two")]
    assert await db.fetch("SELECT id, parent FROM child") == [(1, 1)]


async def test_a_checkpoint_in_a_trip_of_writes_runs_outside_any_transaction(
        db: Database) -> None:
    seen = await traced(db)
    got = await in_one_trip(db, db.run(INSERT, (1, "one")), db.run(INSERT, (2, "two")),
                            db.fetch("PRAGMA wal_checkpoint(TRUNCATE)"),
                            db.run(INSERT, (3, "three")))
    assert got[0] == got[1] == got[3] == 1
    assert got[2][0][0] == 0  # not busy: it ran outside any transaction
    assert seen == []
    assert len(await rows(db)) == 3
