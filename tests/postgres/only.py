"""`pytest -p tests.postgres.only`: the tests that use a PostgreSQL server, for `make test`'s
second pass over the oldest supported version (POSTGRES_BIN names its binaries).

A test uses the server when it asks for `postgres_server` (or a fixture built on it, such as
`postgres_url`), runs with a parameter "postgres" (the `backend`, `harness` and `bot`
fixtures ask for the server by that name), or is marked `postgres` (one that starts a server of
its own).

One kind is left to the first pass, on the newest server: the cluster's processes (the
`cluster` fixture: an ingress and workers on NATS, ten to fifty seconds a test). What their
workers send to the server is the stores' statements, which the in-process tests (tests/bot)
send here on the same server, and the partitions' and leases' own SQL, which tests/postgres
and tests/cluster/test_partitions.py send here; what they test beyond that is processes and
the broker, which do not change with the server's version. A cluster test whose subject is
the server's own behaviour (a session's timeouts) is marked `server_behaviour` and runs here
too. Measured with line coverage of bot/store by test (on the newest server): of the lines
the tests left out reach in their own process, none is missed by the tests run here (their
bots' processes were not traced one by one).
"""

from __future__ import annotations

import pytest

LEFT_TO_THE_NEWEST = "cluster"  # the fixture that starts the cluster's processes


def uses_postgres(item: pytest.Item) -> bool:
    """Whether the test runs against the session's PostgreSQL server."""
    if "postgres_server" in getattr(item, "fixturenames", ()) or \
            item.get_closest_marker("postgres") is not None:
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any(value == "postgres"
                                        for value in callspec.params.values())


def on_the_oldest(item: pytest.Item) -> bool:
    """Whether the oldest server's pass runs the test."""
    if not uses_postgres(item):
        return False
    return LEFT_TO_THE_NEWEST not in getattr(item, "fixturenames", ()) or \
        item.get_closest_marker("server_behaviour") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    others = [item for item in items if not on_the_oldest(item)]
    if others:
        config.hook.pytest_deselected(items=others)
        items[:] = [item for item in items if on_the_oldest(item)]
