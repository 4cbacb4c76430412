"""While PostgreSQL is out of reach: one warning line a minute, never asyncpg's traceback.

A server of the test's own is stopped under an open pool, a lease's renewals and a standby's
tries (the shared session server stays up for the other tests)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from bot.store.outage import POOL_LOGGER, Outage, PoolOutageFilter
from bot.store.postgres import PostgresLeader
from bot.store.postgres.connection import Database
from tests.postgres import PostgresServer


def test_an_outage_is_said_once_then_at_most_once_a_minute(caplog):
    log = logging.getLogger("test.outage")
    outage = Outage(log, "the thing")
    with caplog.at_level(logging.INFO, logger="test.outage"):
        said = [outage.failed(OSError(f"refused\nline {n}")) for n in range(50)]
        outage.recovered()
        again = outage.failed(OSError("refused"))
    assert said == [True] + [False] * 49 and again  # a new outage is said again
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3 and all("\n" not in line for line in lines)
    assert "the thing" in lines[0] and "refused line 0" in lines[0]
    assert "answers again" in lines[1]


def test_the_pool_filter_turns_tracebacks_into_the_outage_line(caplog):
    quiet = PoolOutageFilter()
    record = logging.LogRecord(POOL_LOGGER, logging.WARNING, __file__, 1,
                               "Failed to restore the pool connection floor; retrying", None,
                               (OSError, OSError("Connect call failed"), None))
    with caplog.at_level(logging.INFO):
        assert [quiet.filter(record) for _ in range(5)] == [False] * 5
    assert len(caplog.records) == 1 and caplog.records[0].exc_info is None
    assert "Connect call failed" in caplog.records[0].getMessage()
    debug = logging.LogRecord(POOL_LOGGER, logging.DEBUG, __file__, 1, "x", None, None)
    assert quiet.filter(debug)  # anything else passes


@pytest.mark.slow
@pytest.mark.postgres
async def test_a_stopped_server_gives_one_line_per_source_and_no_traceback(caplog):
    with PostgresServer() as server:
        url = server.url()
        database = await Database.open(url)
        lease = PostgresLeader(url, 0.2, 1.0, on_lost=lambda why: None)
        standby = PostgresLeader(url, 0.2, 1.0, on_lost=lambda why: None)
        assert await lease.acquire()
        renewing = asyncio.create_task(lease.lost())
        pool_filter = next(f for f in logging.getLogger(POOL_LOGGER).filters
                           if isinstance(f, PoolOutageFilter))
        failures = pool_filter.outage.failures
        with caplog.at_level(logging.INFO):
            await asyncio.to_thread(server.halt)
            for _ in range(30):  # about 6 s of queries, renewals and tries against nothing
                for work in (database.fetch("SELECT 1"), standby.acquire()):
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(work, 1)
                await asyncio.sleep(0.2)
        renewing.cancel()
        await asyncio.gather(renewing, return_exceptions=True)
        await lease.close()
        await standby.close()
        await database.close()
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert pool_filter.outage.failures > failures  # asyncpg did try to restore its pool
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in records), records
    assert not [r for r in records if r.name == POOL_LOGGER]
    outages = [r.getMessage() for r in records if "out of reach" in r.getMessage()]
    # at most one line per source: the pool, the lease's renewals (then its loss)
    assert len(outages) <= 2, outages
