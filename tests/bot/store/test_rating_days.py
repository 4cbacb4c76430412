"""The rating's history the pages draw (migration 18, table rating_days) starts from the ratings
a database already holds: each season's row becomes the point of the day it was last written,
on either backend."""

from __future__ import annotations

from pathlib import Path

from bot.store.postgres import open_postgres
from bot.store.postgres.connection import Database as PostgresDatabase
from bot.store.sqlite import open_sqlite
from bot.store.stores import Stores
from tests.postgres import PostgresServer, new_database

RATING_DAYS = 18  # the migration that seeds the history (the schema before it, then it)
OCTOBER = 1_792_000_000.0  # 2026-10-14 (UTC)
NOVEMBER = 1_794_000_000.0  # 2026-11-06
ROWS = [(1, "24", "2026-10", 0.5, OCTOBER), (1, "24", "2026-11", 0.25, NOVEMBER),
        (2, "countdown", "2026-11", -0.5, NOVEMBER)]
GAMES = ("24", "countdown", "make10", "krypto")  # any games, up to the statement's slots
PUT = ("INSERT INTO player_ratings (user_id, game, season, rating, uncertainty, responses, "
       "updated_at) VALUES (?, ?, ?, ?, 1.0, 3, ?)")


async def seeded(stores: Stores) -> None:
    try:
        [october, november] = await stores.pages.rating_days(1, "2026-01-01", GAMES)
        assert (october.day, october.season, october.rating) == ("2026-10-14", "2026-10", 0.5)
        assert (november.day, november.season, november.rating) == ("2026-11-06", "2026-11", 0.25)
        [other] = await stores.pages.rating_days(2, "2026-01-01", GAMES)
        assert await stores.pages.rating_days(2, "2026-01-01", ("24",)) == []  # its games alone
        assert (other.game, other.day) == ("countdown", "2026-11-06")
        assert await stores.pages.rating_days(1, "2026-11-07", GAMES) == []
    finally:
        await stores.close()


async def test_sqlite_seeds_the_history_from_the_ratings(tmp_path: Path):
    path = tmp_path / "old.sqlite3"
    old = await open_sqlite(path, migrate_to=RATING_DAYS - 1)
    db = old.rounds.db  # type: ignore[attr-defined]
    await db.run("INSERT INTO users (id, first_name) VALUES (1, 'Ann'), (2, 'Ben')")
    for row in ROWS:
        await db.run(PUT, row)
    await old.close()
    await seeded(await open_sqlite(path))


async def test_postgres_seeds_the_history_from_the_ratings(postgres_server: PostgresServer):
    url = await new_database(postgres_server)
    database = await PostgresDatabase.open(url, migrate_to=RATING_DAYS - 1)
    async with database.transaction() as connection:
        await connection.execute("INSERT INTO users (id, first_name) VALUES (1, 'Ann'), "
                                 "(2, 'Ben')")
        for row in ROWS:
            await connection.execute(PUT.replace("?", "${}").format(*range(1, 6)), *row)
    await database.close()
    await seeded(await open_postgres(url))
