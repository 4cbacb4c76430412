"""The write-ahead log is folded into the file off the writer's thread (bot.store.sqlite
.checkpoints): the writer never checkpoints on its own, the checkpointer does every second,
the log stays small under writes, and a close leaves the file whole and the log gone."""

from __future__ import annotations

import sqlite3
from pathlib import Path

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


async def test_a_database_in_memory_has_no_checkpointer():
    database = await Database.open(":memory:")
    try:
        assert database.checkpoints is None
    finally:
        await database.close()
