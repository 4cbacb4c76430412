"""The cluster's fixtures: the real NATS server (one for the session, per xdist worker), a
stream name of each test's own (so one test's update ids never meet another's in the stream's
duplicate window), a fresh database, the processes of a test's `cluster`, and the emulator's
and PostgreSQL's fixtures."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Iterator

import nats
import pytest
from nats.aio.client import Client
from nats.js.errors import NotFoundError

from bot.store.postgres import open_postgres
from demo.emulator import BotApiEmulator
from tests.cluster.broker_server import BrokerServer
from tests.cluster.processes import Cluster, MakeCluster
from tests.fake_telegram import telegram as telegram
from tests.postgres import PostgresServer, new_database
from tests.postgres import postgres_server as postgres_server


@pytest.fixture(scope="session")
def broker_server() -> Iterator[BrokerServer]:
    """One NATS server with JetStream for the whole session."""
    with BrokerServer() as server:
        yield server


@pytest.fixture
async def client(broker_server: BrokerServer) -> AsyncIterator[Client]:
    """A client of the session's server, closed after the test."""
    connection = await nats.connect(broker_server.url)
    yield connection
    await connection.close()


@pytest.fixture
async def stream(broker_server: BrokerServer) -> AsyncIterator[str]:
    """A stream of this test's own on the session's server, deleted after the test: each
    reserves its MAX_BYTES of the server's storage, which the server sizes from the disk's free
    space at its start, so a session's streams kept would fill it (a stream refused, "insufficient
    storage resources", after some fifty tests on a disk with 70 GB free; sooner on a smaller
    one)."""
    name = f"T{secrets.token_hex(6)}"
    yield name
    connection = await nats.connect(broker_server.url)
    try:
        with contextlib.suppress(NotFoundError):  # never made, or on a server of the test's
            await connection.jetstream().delete_stream(name)
    finally:
        await connection.close()


@pytest.fixture
async def database(postgres_server: PostgresServer) -> str:
    """A fresh database, migrated."""
    url = await new_database(postgres_server)
    await (await open_postgres(url)).close()
    return url


@pytest.fixture
async def cluster(telegram: BotApiEmulator, tmp_path, database, broker_server,
                  stream) -> AsyncIterator[MakeCluster]:
    """`cluster(nats_url=..., round_seconds=...)`: the cluster of this test, not started;
    every process of it stopped at the end."""
    made: list[Cluster] = []

    def make(nats_url: str | None = None, round_seconds: float = 60.0) -> Cluster:
        made.append(Cluster(telegram, tmp_path, database, nats_url or broker_server.url,
                            stream, round_seconds))
        return made[-1]

    yield make
    for each in made:
        await each.stop()
