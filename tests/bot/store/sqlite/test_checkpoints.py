"""The write-ahead log is folded into the file off the writer's thread (bot.store.sqlite
.checkpoints): the writer never checkpoints on its own, the checkpointer does every second,
the log stays small under writes that never stop, and a close leaves the file whole and the
log gone."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.store.sqlite.checkpoints import JOURNAL_LIMIT
from bot.store.sqlite.database import Database
from tests.waiting import until


async def test_the_writer_never_checkpoints_and_the_log_is_folded_in(tmp_path: Path):
    path = tmp_path / "bot.sqlite3"
    database = await Database.open(path)
    try:
        assert database.checkpoints is not None
        database.checkpoints.every = 0.05
        rows = await database.fetch("PRAGMA wal_autocheckpoint")
        assert rows[0][0] == 0  # a commit past 1,000 pages no longer checkpoints the writer
        await database.run_all([("CREATE TABLE t (x BLOB)", ())])
        for _ in range(300):  # far past what one autocheckpoint would have let the log hold
            await database.run("INSERT INTO t VALUES (?)", (b"x" * 8000,))
        await until(lambda: database.checkpoints is not None and database.checkpoints.done >= 3,
                    "three checkpoints")
        busy, frames, folded = database.checkpoints.fold()
        assert busy == 0 and folded == frames  # nothing left that a reader holds
    finally:
        await database.close()
    assert not (tmp_path / "bot.sqlite3-wal").exists() or \
        (tmp_path / "bot.sqlite3-wal").stat().st_size == 0
    with sqlite3.connect(path) as reopened:
        assert reopened.execute("SELECT count(*) FROM t").fetchone()[0] == 300


async def test_under_writes_that_never_stop_the_log_is_started_over(tmp_path: Path):
    """Commits back to back, as a busy bot makes them: a PASSIVE fold never finds a moment
    without one, so alone it never lets the log start over. Past its bound the log is started
    over (RESTART), and its frames stay near the bound."""
    path = tmp_path / "bot.sqlite3"
    database = await Database.open(path)
    try:
        checkpoints = database.checkpoints
        assert checkpoints is not None
        checkpoints.every, checkpoints.restart_frames = 0.02, 200
        await database.run_all([("CREATE TABLE t (x BLOB)", ())])
        # the first fold comes a second after the start (`every` was read then); the writes
        # go on until the checkpointer has folded twelve times under them. A statement on the
        # event loop takes some 30 us, so how many are written between two folds is the
        # machine's to say (a fold's sync of a few ms here, tens on a slow disk): each insert
        # adds a frame, so a log never started over holds one for every insert, and one started
        # over holds only those since the last restart, a fold or two's worth
        written = 0
        while checkpoints.done < 12:
            assert written < 2_000_000, "the checkpointer never folded under the writes"
            await database.run("INSERT INTO t VALUES (?)", (b"x" * 3000,))
            written += 1
        assert checkpoints.restarts >= 1
        frames = -1
        while frames < 0:  # -1 while the checkpointer's fold holds the log
            frames = (await database.fetch("PRAGMA wal_checkpoint(PASSIVE)"))[0][1]
        assert frames < written // 2, f"the log holds {frames} frames after {written} inserts"
        assert (await database.fetch("PRAGMA journal_size_limit"))[0][0] == JOURNAL_LIMIT
    finally:
        await database.close()


async def test_a_reader_holding_the_log_delays_the_restart_and_stops_no_write(tmp_path: Path):
    """A reader in the middle of a read (a backup's, another process's page) keeps the log from
    starting over: the RESTART waits at most RESTART_WAIT for it, says busy, and the writer
    goes on meanwhile; once the reader lets go, the next fold starts the log over."""
    path = tmp_path / "bot.sqlite3"
    database = await Database.open(path)
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        checkpoints = database.checkpoints
        assert checkpoints is not None
        checkpoints.every, checkpoints.restart_frames = 3600, 50  # folds run by hand below
        await database.run_all([("CREATE TABLE t (x BLOB)", ())])
        for _ in range(100):
            await database.run("INSERT INTO t VALUES (?)", (b"x" * 3000,))
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM t").fetchone()[0] == 100  # its snapshot
        for _ in range(100):
            await database.run("INSERT INTO t VALUES (?)", (b"y" * 3000,))
        held = checkpoints.fold()
        assert checkpoints.restarts == 0 and held[1] > 50  # the reader held the log
        await database.run("INSERT INTO t VALUES (?)", (b"z",))  # the writer was never stopped
        reader.execute("COMMIT")
        checkpoints.fold()
        assert checkpoints.restarts == 1
        await database.run("INSERT INTO t VALUES (?)", (b"z",))  # this commit starts it over
        frames = (await database.fetch("PRAGMA wal_checkpoint(PASSIVE)"))[0][1]
        assert frames < 10, frames
        assert (await database.fetch("SELECT count(*) FROM t"))[0][0] == 202
    finally:
        reader.close()
        await database.close()


async def test_a_database_in_memory_has_no_checkpointer():
    database = await Database.open(":memory:")
    try:
        assert database.checkpoints is None
    finally:
        await database.close()


# Another process's checkpoint under way, as SQLite sees it: the exclusive lock on the byte of
# the shared-memory file that a checkpointer holds (WAL_CKPT_LOCK, at 120 + 1), for `seconds`.
HOLD_CHECKPOINTER = """
import fcntl, sys, time
with open(sys.argv[1], "r+b") as shm:
    fcntl.lockf(shm, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 121)
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def checkpointer_elsewhere(path: Path, seconds: float) -> subprocess.Popen[str]:
    held = subprocess.Popen([sys.executable, "-c", HOLD_CHECKPOINTER, f"{path}-shm",
                             str(seconds)], stdout=subprocess.PIPE, text=True)
    assert held.stdout is not None and held.stdout.readline().strip() == "held"
    return held


async def test_the_writers_checkpoint_waits_out_another_a_moment(tmp_path: Path):
    """/forget cuts the log itself (TRUNCATE); with another checkpoint under way (the log's own
    fold, a few milliseconds, longer on a loaded machine) SQLite says busy at once rather than
    wait, and the deleted rows' bytes stayed in the log (seen in a full run of the suite). It
    is tried again a moment later; a checkpointer that never lets go is said (False)."""
    path = tmp_path / "bot.sqlite3"
    database = await Database.open(path)
    try:
        await database.run_all([("CREATE TABLE t (x BLOB)", ())])
        await database.run("INSERT INTO t VALUES (?)", (b"x" * 8000,))
        held = checkpointer_elsewhere(path, 0.25)
        try:
            assert await database.checkpoint()
        finally:
            held.wait()
        assert (tmp_path / "bot.sqlite3-wal").stat().st_size == 0
        await database.run("INSERT INTO t VALUES (?)", (b"y" * 8000,))
        held = checkpointer_elsewhere(path, 5.0)
        try:
            assert not await database.checkpoint()
            assert (tmp_path / "bot.sqlite3-wal").stat().st_size > 0
        finally:
            held.kill()
            held.wait()
    finally:
        await database.close()
