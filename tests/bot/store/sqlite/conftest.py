"""A database of one table `t (n, v)`, opened as the bot opens its own (the trips' tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store.sqlite.database import Database

FILE = "t.sqlite3"  # under the test's tmp_path: another connection opens it there


@pytest.fixture
async def db(tmp_path: Path):
    database = await Database.open(tmp_path / FILE)
    await database.run("CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT)")
    yield database
    if database.connection._connection is not None:
        await database.close()
