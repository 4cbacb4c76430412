"""The PostgreSQL server fixtures for the tests in this folder, and its stores."""

from collections.abc import AsyncIterator

import pytest

from bot.store.postgres import open_postgres
from bot.store.stores import Stores
from tests.postgres import emptied
from tests.postgres import postgres_server as postgres_server
from tests.postgres import postgres_url as postgres_url


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: starts a PostgreSQL server of its own "
                            "(tests.postgres.only selects it)")


@pytest.fixture
async def stores(postgres_url: str) -> AsyncIterator[Stores]:
    """Every store over the session's PostgreSQL database, emptied."""
    await emptied(postgres_url)
    opened = await open_postgres(postgres_url)
    yield opened
    await opened.close()
