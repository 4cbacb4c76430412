"""A trip's statements on the event loop in one transaction (bot.store.sqlite.trips `together`):
committed once, each still failing alone, a call of several steps undoing only its own, no
caller told a write was kept when the transaction ended without its commit, and a trip that
meets another connection's lock waiting on the thread as before."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.store.sqlite import trips
from bot.store.sqlite.database import Database, Refused
from tests.bot.store.sqlite.conftest import FILE

WAIT = 10.0
INSERT = "INSERT INTO t (n, v) VALUES (?, ?)"


def kept(path: Path) -> list[int]:
    """The rows another connection sees: what was committed."""
    other = sqlite3.connect(path)
    try:
        return [n for (n,) in other.execute("SELECT n FROM t ORDER BY n")]
    finally:
        other.close()


def traced(db: Database) -> list[str]:
    said: list[str] = []
    db.connection._conn.set_trace_callback(said.append)
    return said


async def test_a_trips_statements_commit_once(db: Database, tmp_path: Path):
    said = traced(db)
    results = await asyncio.wait_for(asyncio.gather(
        *(db.run(INSERT, (n, str(n))) for n in range(5)), db.fetch("SELECT COUNT(*) FROM t")),
        WAIT)
    assert results == [1, 1, 1, 1, 1, [(5,)]]  # the read sees the trip's writes before it
    assert said.count("BEGIN IMMEDIATE") == 1 and said.count("COMMIT") == 1
    assert kept(tmp_path / FILE) == [0, 1, 2, 3, 4]


async def test_a_statement_alone_is_its_own_transaction(db: Database, tmp_path: Path):
    said = traced(db)
    assert await db.run(INSERT, (1, "a")) == 1
    assert "BEGIN IMMEDIATE" not in said and "COMMIT" not in said  # SQLite's own, unsaid
    assert kept(tmp_path / FILE) == [1]


async def test_a_failing_statement_fails_alone(db: Database, tmp_path: Path):
    await db.run(INSERT, (1, "a"))
    first, twice, third = await asyncio.wait_for(asyncio.gather(
        db.run(INSERT, (2, "b")), db.insert(INSERT, (1, "again")), db.run(INSERT, (3, "c")),
        return_exceptions=True), WAIT)
    assert first == 1 and third == 1
    assert isinstance(twice, Refused)  # the key was taken: only its caller hears it
    assert kept(tmp_path / FILE) == [1, 2, 3]


async def test_a_failing_call_of_several_steps_undoes_only_its_own(db: Database,
                                                                   tmp_path: Path):
    await db.run(INSERT, (1, "a"))
    before, steps, after = await asyncio.wait_for(asyncio.gather(
        db.run(INSERT, (2, "b")),
        db.run_all([(INSERT, (10, "x")), (INSERT, (1, "again"))]),  # its second step fails
        db.run(INSERT, (3, "c")), return_exceptions=True), WAIT)
    assert before == 1 and after == 1
    assert isinstance(steps, sqlite3.IntegrityError)
    assert kept(tmp_path / FILE) == [1, 2, 3]  # 10 undone with its call


async def test_guarded_calls_in_a_trip_write_only_when_their_guard_did(db: Database,
                                                                       tmp_path: Path):
    await db.run(INSERT, (1, "a"))
    guard = ("UPDATE t SET v = 'taken' WHERE n = 1 AND v = 'a'", ())
    first, second, steps = await asyncio.wait_for(asyncio.gather(
        db.insert_guarded(guard, INSERT, (2, "b")), db.insert_guarded(guard, INSERT, (3, "c")),
        db.run_guarded(guard, [(INSERT, (4, "d"))])), WAIT)
    assert first == 2 and second is None and steps is False  # the first took it
    assert kept(tmp_path / FILE) == [1, 2]


async def test_no_caller_hears_a_write_kept_that_its_transaction_lost(db: Database,
                                                                      tmp_path: Path):
    """SQLite ends a transaction itself on a full disk or an I/O error; a statement that ends
    it stands in for those here. What ran before it in the trip was undone with it, so its
    callers fail too; the connection writes on after."""
    written, ended = await asyncio.wait_for(asyncio.gather(
        db.run(INSERT, (1, "a")), db.run("ROLLBACK"), return_exceptions=True), WAIT)
    assert isinstance(written, sqlite3.OperationalError)
    assert isinstance(ended, sqlite3.OperationalError)
    assert kept(tmp_path / FILE) == []
    assert await db.run(INSERT, (2, "b")) == 1
    assert kept(tmp_path / FILE) == [2]


async def test_a_trip_meeting_another_connections_lock_waits_on_the_thread(db: Database,
                                                                          tmp_path: Path):
    other = sqlite3.connect(tmp_path / FILE, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    loop = asyncio.get_running_loop()
    loop.call_later(0.3, other.execute, "COMMIT")
    try:
        started = loop.time()
        results = await asyncio.wait_for(asyncio.gather(
            *(db.run(INSERT, (n, str(n))) for n in range(3))), WAIT)
        assert results == [1, 1, 1]
        assert loop.time() - started >= 0.25  # they waited for the lock, none was refused
    finally:
        other.close()
    assert kept(tmp_path / FILE) == [0, 1, 2]
    assert await db.fetch("PRAGMA busy_timeout") == [(0,)]  # the loop's wait is none again


async def test_reads_alone_or_with_one_write_take_no_transaction(db: Database):
    """A transaction spares commits only to two writes or more: the pages' reads in a trip of
    their own, or beside one write, take no BEGIN (nor the write lock)."""
    said = traced(db)
    await asyncio.wait_for(asyncio.gather(
        db.fetch("SELECT COUNT(*) FROM t"), db.fetch("WITH x AS (SELECT 1) SELECT * FROM x"),
        db.fetch("PRAGMA user_version")), WAIT)
    await asyncio.wait_for(asyncio.gather(
        db.fetch("SELECT COUNT(*) FROM t"), db.run(INSERT, (1, "a"))), WAIT)
    assert "BEGIN IMMEDIATE" not in said
    await asyncio.wait_for(asyncio.gather(
        db.run(INSERT, (2, "b")), db.fetch("SELECT COUNT(*) FROM t"),
        db.run("WITH x (n) AS (SELECT 3) INSERT INTO t (n, v) SELECT n, 'c' FROM x")), WAIT)
    assert said.count("BEGIN IMMEDIATE") == 1


def test_what_counts_as_a_read():
    assert trips.reads("SELECT 1") and trips.reads("  pragma user_version")
    assert trips.reads("WITH RECURSIVE w (k) AS (SELECT 0) SELECT k FROM w")
    assert not trips.reads("WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x")
    assert not trips.reads("INSERT INTO t (n) VALUES (1) RETURNING n")
    assert not trips.reads(("UPDATE t SET v = 'x'", "INSERT INTO t (n) VALUES (2)"))


async def test_a_trip_whose_transaction_cannot_begin_runs_each_statement_alone(db: Database):
    """BEGIN refused for what is no lock (here: a transaction the connection is already in,
    left by no code of the bot's) answers every caller, each statement meeting what it meets."""
    await db.run("BEGIN")  # alone in its trip: no transaction of the trip's around it
    results = await asyncio.wait_for(asyncio.gather(
        db.run(INSERT, (1, "a")), db.run(INSERT, (2, "b")), db.run("COMMIT")), WAIT)
    assert results[:2] == [1, 1]
    assert await db.fetch("SELECT n FROM t ORDER BY n") == [(1,), (2,)]
