"""The cluster's fixtures: the real NATS server (one for the session, per xdist worker), a
stream name of each test's own (so one test's update ids never meet another's in the stream's
duplicate window), and the emulator's and PostgreSQL's fixtures."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Iterator

import nats
import pytest
from nats.aio.client import Client

from tests.cluster.broker_server import BrokerServer
from tests.fake_telegram import telegram as telegram
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
def stream() -> str:
    """A stream of this test's own on the session's server."""
    return f"T{secrets.token_hex(6)}"
