"""Schema step 37 (the solo modes' boards) on a database written before it, on SQLite and
PostgreSQL: each person's longest ended streak is on the all-time board and on the board of each
season they played one in (the UTC month it began), the earlier of equal ones kept; a streak still
on, or one that solved nothing, is on none. From then on a streak's end keeps its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.play.community.periods import ALL_TIME, season_key
from bot.store.postgres import open_postgres
from bot.store.postgres.connection import Database
from bot.store.sql.connection import Connection, numbered
from bot.store.sqlite import open_sqlite
from bot.store.sqlite.database import Database as SqliteDatabase
from bot.store.stores import Stores
from tests.postgres import new_database

BEFORE = 36  # the streaks' step
ANN, BEN, CY = 1, 2, 3
OCTOBER, NOVEMBER = 1_791_000_000.0, 1_794_000_000.0  # 2026-10-03 and 2026-11-06, UTC
# (person, solved, began, status)
STREAKS = [(ANN, 4, OCTOBER, "missed"), (ANN, 7, OCTOBER + 60, "missed"),
           (ANN, 7, OCTOBER + 120, "stopped"), (ANN, 5, NOVEMBER, "missed"),
           (ANN, 9, NOVEMBER + 60, "on"), (BEN, 3, NOVEMBER + 10, "missed"),
           (CY, 0, NOVEMBER, "missed")]


async def written_before(db: Connection, engine: str) -> None:
    """The streaks a bot of step 36 wrote, and their people."""
    def said(sql: str) -> str:
        return numbered(sql) if engine == "postgres" else sql

    for person, name in ((ANN, "Ann"), (BEN, "Ben"), (CY, "Cy")):
        await db.run(said("INSERT INTO users (id, first_name) VALUES (?, ?)"), (person, name))
    for person, solved, at, status in STREAKS:
        await db.run(said("INSERT INTO streaks (user_id, chat_id, solved, lang, started_at, "
                          "status) VALUES (?, ?, ?, 'en', ?, ?)"),
                     (person, person, solved, at, status))


async def upgraded(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> Stores:
    if engine == "sqlite":
        where = str(tmp_path / "before.sqlite3")
        old: Connection = await SqliteDatabase.open(where, migrate_to=BEFORE)
    else:
        where = await new_database(request.getfixturevalue("postgres_server"))
        old = await Database.open(where, migrate_to=BEFORE)
    await written_before(old, engine)
    await old.close()  # type: ignore[attr-defined]
    return await (open_sqlite(where) if engine == "sqlite" else open_postgres(where))


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
async def test_the_streaks_played_before_are_on_their_boards(engine: str, tmp_path: Path,
                                                             request: pytest.FixtureRequest):
    stores = await upgraded(engine, tmp_path, request)
    try:
        streaks = stores.streaks
        rows = await streaks.db.fetch(  # type: ignore[attr-defined]
            "SELECT mode, period, user_id, best, at FROM solo_bests")
        assert sorted((m, p, u, b, float(a)) for m, p, u, b, a in rows) == [
            ("streak", ALL_TIME, ANN, 7, OCTOBER + 60), ("streak", ALL_TIME, BEN, 3,
                                                          NOVEMBER + 10),
            ("streak", season_key(OCTOBER), ANN, 7, OCTOBER + 60),
            ("streak", season_key(NOVEMBER), ANN, 5, NOVEMBER),
            ("streak", season_key(NOVEMBER), BEN, 3, NOVEMBER + 10)]
        board = await streaks.board(ALL_TIME, 10)
        assert [(row.name, row.solved) for row in board] == [("Ann", 7), ("Ben", 3)]
        # the streak on ends: its own length is kept, where it is longer
        [on] = [s for s in await streaks.streaks_on() if s.user_id == ANN]
        assert await streaks.end_streak(on.id, "missed", NOVEMBER + 600,
                                        (season_key(on.started_at), ALL_TIME))
        assert await streaks.best_of_period(ANN, ALL_TIME) == 9
        assert await streaks.best_of_period(ANN, season_key(NOVEMBER)) == 9
        assert await streaks.best_of_period(ANN, season_key(OCTOBER)) == 7
    finally:
        await stores.close()
