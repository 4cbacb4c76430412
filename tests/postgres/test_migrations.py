"""PostgreSQL's numbered migrations: applied once however many processes start together, the
same schema as SQLite's at every number, and old data carried over as SQLite's migrations do."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.store.postgres import open_postgres
from bot.store.postgres.connection import Database
from bot.store.postgres.migrations import LATEST
from bot.store.sqlite import open_sqlite
from bot.store.sqlite.migrations import LATEST as SQLITE_LATEST
from tests.postgres import PostgresServer, new_database

CHAT = -500
# Indexes PostgreSQL's workers alone read (migration 21: every worker's open rounds, by the keys
# requests reach them by); one process on SQLite holds every open round in memory.
WORKERS_ONLY = ("open_rounds_by_keys",)


def test_both_backends_have_every_migration():
    assert LATEST == SQLITE_LATEST


async def test_migrations_from_empty_then_nothing_twice(postgres_server: PostgresServer):
    url = await new_database(postgres_server)
    stores = await open_postgres(url)
    assert await stores.rounds.db.version() == LATEST
    await stores.close()
    again = await open_postgres(url)
    rows = await again.rounds.db.fetch("SELECT number FROM schema_migrations ORDER BY number")
    assert rows == [(n,) for n in range(1, LATEST + 1)]
    await again.close()


async def test_processes_starting_together_migrate_once(postgres_server: PostgresServer):
    url = await new_database(postgres_server)
    opened = await asyncio.gather(*(open_postgres(url) for _ in range(4)))
    for stores in opened:
        assert await stores.rounds.db.version() == LATEST
    rows = await opened[0].rounds.db.fetch("SELECT COUNT(*) FROM schema_migrations")
    assert rows == [(LATEST,)]
    await asyncio.gather(*(stores.close() for stores in opened))


async def postgres_schema(url: str) -> dict[str, list[str]]:
    """Tables and views with their columns in order; indexes and triggers by name."""
    connection = await asyncpg.connect(url)
    try:
        columns = await connection.fetch(
            "SELECT table_name, column_name FROM information_schema.columns WHERE "
            "table_schema = 'public' AND table_name <> 'schema_migrations' "
            "ORDER BY table_name, ordinal_position")
        indexes = await connection.fetch(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' "
            "AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key' "
            "AND indexname <> ALL($1::text[])", WORKERS_ONLY)
        triggers = await connection.fetch(  # the lease's fence: PostgreSQL's writers only
            "SELECT DISTINCT trigger_name FROM information_schema.triggers "
            "WHERE trigger_name NOT IN ('leader_fence', 'partition_fence')")
    finally:
        await connection.close()
    schema: dict[str, list[str]] = {}
    for row in columns:
        schema.setdefault(row["table_name"], []).append(row["column_name"])
    schema["(indexes)"] = sorted(row["indexname"] for row in indexes)
    schema["(triggers)"] = sorted(row["trigger_name"] for row in triggers)
    return schema


async def sqlite_schema(path, version: int) -> dict[str, list[str]]:
    stores = await open_sqlite(path, migrate_to=version)
    db = stores.rounds.db
    try:
        objects = await db.fetch("SELECT type, name FROM sqlite_master WHERE name NOT LIKE "
                                 "'sqlite_%'")
        schema: dict[str, list[str]] = {"(indexes)": [], "(triggers)": []}
        for kind, name in objects:
            if kind in ("table", "view"):
                schema[name] = [row[1] for row in await db.fetch(f"PRAGMA table_info({name})")]
            elif kind == "index":
                schema["(indexes)"].append(name)
            else:
                schema["(triggers)"].append(name)
    finally:
        await stores.close()
    return {key: sorted(value) if key.startswith("(") else value for key, value in schema.items()}


@pytest.mark.parametrize("version", range(1, LATEST + 1))
async def test_the_schema_is_sqlites_at_every_version(postgres_server, tmp_path, version):
    """Same tables, views, columns in the same order, indexes and triggers, at each number:
    the dialects differ, the schema does not."""
    url = await new_database(postgres_server)
    database = await Database.open(url, migrate_to=version)
    await database.close()
    assert await postgres_schema(url) == await sqlite_schema(tmp_path / "same.sqlite3", version)


async def old_rounds(connection: asyncpg.Connection, version: int) -> None:
    """Two rounds won by Ann with Ben answering, and an open one, written as a bot of that
    version did (the PostgreSQL twin of tests/bot/test_storage.py's)."""
    await connection.execute("INSERT INTO chats (id, type, title) VALUES ($1, 'group', 'G')",
                             CHAT)
    await connection.execute("INSERT INTO users (id, first_name) VALUES (1, 'Ann'), (2, 'Ben')")
    timed = ", win_seconds = 4.0" if version >= 3 else ""
    for _ in range(2):
        round_id = await connection.fetchval(
            "INSERT INTO rounds (chat_id, hand, target, level, points, started_at, deadline) "
            "VALUES ($1, '[1, 2, 3, 4]', 24, 'easy', 10, 100.0, 160.0) RETURNING id", CHAT)
        await connection.execute("INSERT INTO answers (round_id, user_id, text, correct, at) "
                                 "VALUES ($1, 2, '1+2', 0, 101.0)", round_id)
        await connection.execute(
            "UPDATE rounds SET status = 'won', winner_id = 1, awarded = points, ended_at = 104"
            f"{timed} WHERE id = $1", round_id)
    if version == 2:  # version 2 kept scores itself, as its code did when a round closed
        await connection.execute(
            "INSERT INTO scores (chat_id, user_id, points, wins, rounds_played, fastest_win) "
            "VALUES ($1, 1, 20, 2, 2, 4.0), ($1, 2, 0, 0, 2, NULL)", CHAT)
    await connection.execute(
        "INSERT INTO rounds (chat_id, hand, target, level, points, started_at, deadline) "
        "VALUES ($1, '[3, 3, 8, 8]', 24, 'hard', 30, 200.0, 260.0)", CHAT)


@pytest.mark.parametrize("version", range(1, LATEST))
async def test_migration_from_each_earlier_version(postgres_server, version):
    url = await new_database(postgres_server)
    database = await Database.open(url, migrate_to=version)
    async with database.transaction() as connection:
        await old_rounds(connection, version)
    await database.close()
    upgraded = await open_postgres(url)
    [ann] = await upgraded.scores.stats(CHAT, 1)
    [ben] = await upgraded.scores.stats(CHAT, 2)
    assert (ann.game, ann.points, ann.wins, ann.rounds_played) == ("24", 20, 2, 2)
    assert ann.fastest_win == 4.0
    assert (ben.points, ben.rounds_played) == (0, 2)
    [still_open] = await upgraded.rounds.open_rounds()
    assert (still_open.game, still_open.hand, still_open.lang) == ("24", (3, 3, 8, 8), "en")
    assert await upgraded.rounds.close_round(still_open.id, "won", 205.0, 2, "8/(3-8/3)", 30,
                                             5.0)
    [ben] = await upgraded.scores.stats(CHAT, 2)
    assert (ben.points, ben.wins, ben.rounds_played, ben.fastest_win) == (30, 1, 3, 5.0)
    if version < 5:  # migration 5 counts the rounds that ended before it as announced
        assert [r.round.id for r in await upgraded.rounds.unannounced()] == [still_open.id]
    await upgraded.close()
