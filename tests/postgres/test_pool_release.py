"""A connection released to the pool keeps its session and costs no round trip (the stores
change no session state), while an open transaction is still rolled back and the fence's
settings, given at connect time, stay."""

from __future__ import annotations

import pytest

from bot.store.postgres import open_postgres
from bot.store.postgres.connection import Database
from tests.postgres import PostgresServer, new_database


@pytest.fixture
async def database(postgres_server: PostgresServer):
    url = await new_database(postgres_server)
    await (await open_postgres(url)).close()
    opened = await Database.open(url, size=1)
    yield opened
    await opened.close()


async def test_a_release_sends_nothing(database):
    async with database.pool.acquire() as connection:
        await connection.fetchval("SELECT 1")
        held = connection._con  # the connection behind the pool's proxy
        sent = held._protocol.queries_count  # the driver's count of queries sent
    async with database.pool.acquire() as connection:
        assert connection._con is held  # the pool's one connection
        assert held._protocol.queries_count == sent


async def test_a_transaction_left_open_is_rolled_back_and_the_fence_stays(database):
    await database.fence(7)
    async with database.pool.acquire() as connection:
        await connection.execute("BEGIN")
        await connection.execute("SET LOCAL lock_timeout = 1234")
        assert connection.is_in_transaction()
    async with database.pool.acquire() as connection:
        assert not connection.is_in_transaction()
        assert await connection.fetchval("SHOW lock_timeout") == "0"
        assert await connection.fetchval("SELECT current_setting('twentyfour.epoch')") == "7"
