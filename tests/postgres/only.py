"""`pytest -p tests.postgres.only`: only the tests that use a PostgreSQL server, for `make
test`'s second pass over the oldest supported version (POSTGRES_BIN names its binaries).

A test uses the server when it asks for `postgres_server` (or a fixture built on it, such as
`postgres_url`), runs with a parameter "postgres" (the `backend`, `harness` and `bot`
fixtures ask for the server by that name), or is marked `postgres` (one that starts a server of
its own).
"""

from __future__ import annotations

import pytest


def uses_postgres(item: pytest.Item) -> bool:
    """Whether the test runs against the session's PostgreSQL server."""
    if "postgres_server" in getattr(item, "fixturenames", ()) or \
            item.get_closest_marker("postgres") is not None:
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any(value == "postgres"
                                        for value in callspec.params.values())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    others = [item for item in items if not uses_postgres(item)]
    if others:
        config.hook.pytest_deselected(items=others)
        items[:] = [item for item in items if uses_postgres(item)]
