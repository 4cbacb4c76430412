"""A real PostgreSQL for the tests: the session's server (tests/postgres/server.py), a migrated
database that each test empties first, fresh databases for the tests that need their own, and
`open_backend`, which opens every store on SQLite or on PostgreSQL by name (BACKENDS), so the
store, scoring and service tests run on both.

The server starts the first time a PostgreSQL test asks for it, and it must start: a machine
without one fails these tests, never skips them. `make test` runs every test that uses it twice:
on the newest supported version, then on the oldest (`-p tests.postgres.only`, POSTGRES_BIN and
POSTGRES_VERSION: tests/postgres/only.py and server.py); a test asks for the server by the
`postgres_server` fixture, a parameter "postgres", or the `postgres` mark, or it runs once only.
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
import tempfile
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest

from bot.store.stores import Stores
from tests.postgres.server import PostgresServer

BACKENDS = ("sqlite", "postgres")
SHARED = "twentyfour"  # the session's migrated database, emptied by each test
_names = itertools.count(1)
T = TypeVar("T")
_template = tempfile.TemporaryDirectory(prefix="migrated-")  # this process's, gone at its exit


def outside_the_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end from synchronous code (a session fixture), on a thread of
    its own so the tests' event loop is left alone."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


async def admin(server: PostgresServer, *statements: str) -> None:
    """Statements run on the server's `postgres` database (CREATE / DROP DATABASE)."""
    connection = await asyncpg.connect(server.url())
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


async def new_database(server: PostgresServer) -> str:
    """The URL of a new, empty database (no migrations applied)."""
    name = f"fresh_{next(_names)}"
    await admin(server, f"CREATE DATABASE {name}")
    return server.url(name)


async def emptied(url: str) -> None:
    """Every table of a migrated database emptied and its ids started again, as a new file.
    DELETE with the triggers off (the replication role: neither scoring nor foreign keys
    fire), not TRUNCATE: a test's few rows go at half the cost (34 ms against 72: TRUNCATE
    makes every table's files anew). The week's start (schema step 31), one row a migration
    writes, is kept and set back to seven days before now, as a new file has it."""
    connection = await asyncpg.connect(url)
    try:
        tables = await connection.fetch("SELECT tablename FROM pg_tables WHERE schemaname = "
                                        "'public' AND tablename <> 'schema_migrations'")
        sequences = await connection.fetch("SELECT sequencename FROM pg_sequences "
                                           "WHERE schemaname = 'public'")
        async with connection.transaction():
            await connection.execute(
                "SET LOCAL session_replication_role = replica; "
                + "".join(f"DELETE FROM {row['tablename']}; " for row in tables
                          if row["tablename"] != "week_start")
                + "UPDATE week_start SET since = EXTRACT(EPOCH FROM now()) - 604800; "
                + "".join(f"ALTER SEQUENCE {row['sequencename']} RESTART; "
                          for row in sequences))
    finally:
        await connection.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole test session."""
    with PostgresServer() as server:
        yield server


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """The session's migrated database (`emptied` by whoever uses it)."""
    from bot.store.postgres import open_postgres

    async def migrate() -> None:
        await admin(postgres_server, f"CREATE DATABASE {SHARED}")
        stores = await open_postgres(postgres_server.url(SHARED))
        await stores.close()

    outside_the_loop(migrate())
    return postgres_server.url(SHARED)


async def migrated_sqlite(path: Path) -> Path:
    """A migrated, empty SQLite database at `path` (left as it is if there is one): a copy of
    one this process migrated once. Every step of the schema at each test's start took 54 ms
    of its setup; the steps themselves are tested from an empty file and from a year-old one
    (tests/bot/store/sqlite, tests/postgres/test_migrations.py)."""
    from bot.store.sqlite import open_sqlite

    template = Path(_template.name) / "migrated.sqlite3"
    if not template.exists():
        await (await open_sqlite(template)).close()
    if not path.exists():
        shutil.copyfile(template, path)
    return path


async def open_backend(backend: str, tmp_path: Path, request: pytest.FixtureRequest,
                       keep: bool = False) -> Stores:
    """Every store over a fresh, migrated database of that backend (`keep`: the one the
    test opened before, as it was left, as a restart finds it)."""
    if backend == "sqlite":
        from bot.store.sqlite import open_sqlite

        return await open_sqlite(await migrated_sqlite(tmp_path / "g.sqlite3"))
    from bot.store.postgres import open_postgres

    url = request.getfixturevalue("postgres_url")
    if not keep:
        await emptied(url)
    return await open_postgres(url)


__all__ = ["BACKENDS", "PostgresServer", "emptied", "migrated_sqlite", "new_database",
           "open_backend", "outside_the_loop", "postgres_server", "postgres_url"]
