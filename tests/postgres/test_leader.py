"""The leader's lease on a real server: one leader at a time; a lease not renewed runs out and a
standby takes it over with the next epoch; a write from an ended epoch fails in its own
statement (the fence), and so does the gate before a send; and the start-up of
bot.wiring over it, a standby waiting in post_init and taking over from a leader
that stopped renewing.

The lease runs by the database's clock: where a test needs a lease's time to have run out, it
waits until that clock has passed the lease's end (ServerClock), never for a fixed while.
"""

from __future__ import annotations

import asyncio
import types
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import asyncpg
import pytest

from bot.runtime.config import Config
from bot.runtime.health import LEADER, STANDBY, heartbeat_path, heartbeat_role
from bot.runtime.lead import Lead
from bot.store.postgres import PostgresLeader, open_postgres
from bot.store.postgres.connection import FENCED, Database
from bot.store.postgres.leader import RENEW, LeaseLost
from bot.wiring import take_lead, watch_lead
from tests.postgres import PostgresServer, new_database
from tests.waiting import until

CHECK = 0.2  # seconds between a standby's tries, quick for the tests
LEASE = 1.0  # seconds a lease runs unrenewed


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    """A fresh database, migrated (the bot opens its stores before it tries for the lead)."""
    fresh = await new_database(postgres_server)
    await (await open_postgres(fresh)).close()
    return fresh


def lease(url: str, lost: list[str] | None = None) -> PostgresLeader:
    """A lease whose loss is recorded in `lost` rather than ending the test's process."""
    record = lost if lost is not None else []
    return PostgresLeader(url, CHECK, LEASE, on_lost=record.append)


async def lease_row(url: str) -> tuple[int, str, bool]:
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow("SELECT epoch, holder, expires_at > now() "
                                        "FROM leader_lease")
        return tuple(row)
    finally:
        await connection.close()


class ServerClock:
    """The database's clock, which the lease runs by, read on a session of the test's own
    (each statement its own transaction: now() is the moment it runs)."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.connection = connection

    async def lease_end(self) -> datetime:
        return await self.connection.fetchval("SELECT expires_at FROM leader_lease")

    async def passed(self, moment: datetime) -> bool:
        return await self.connection.fetchval("SELECT now() > $1", moment)

    async def ended(self) -> bool:
        """Whether the lease has run out by now."""
        return await self.connection.fetchval("SELECT expires_at <= now() FROM leader_lease")

    async def past_the_end(self) -> None:
        """Wait until the clock passes the lease's end as it stands now: unless it was renewed
        meanwhile, the lease has run out."""
        end = await self.lease_end()
        await until(lambda: self.passed(end), f"the database's clock past {end}")

    async def run_out(self) -> None:
        """Wait until the lease has run out by the database's clock."""
        await until(self.ended, "the lease run out by the database's clock")


@pytest.fixture
async def server_clock(url: str) -> AsyncIterator[ServerClock]:
    connection = await asyncpg.connect(url)
    try:
        yield ServerClock(connection)
    finally:
        await connection.close()


async def test_one_leader_at_a_time_and_a_close_hands_on_at_once(url):
    first, second = lease(url), lease(url)
    assert await first.acquire()
    assert await first.acquire()  # asking again changes nothing
    assert not await second.acquire()
    epoch = first.epoch
    await first.close()
    assert await second.acquire()
    assert second.epoch == epoch + 1
    assert not await first.acquire()  # a lead once lost is never taken back
    await second.close()


async def test_a_lease_row_gone_is_made_again_and_taken_at_the_first_try(url):
    """Without its row (a table emptied by hand, as the tests empty theirs) the first try
    makes the row and leads, not a standby's whole try later."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("DELETE FROM leader_lease")
    finally:
        await connection.close()
    first, second = lease(url), lease(url)
    assert await first.acquire()
    assert (await lease_row(url))[:2] == (first.epoch, first.holder)
    assert not await second.acquire()
    await first.close()
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("DELETE FROM leader_lease")
    finally:
        await connection.close()
    both = [lease(url) for _ in range(3)]  # gone again, and three try at once: one leads
    assert sorted(await asyncio.gather(*(each.acquire() for each in both))) \
        == [False, False, True]
    for each in both:
        await each.close()


async def test_a_renewed_lease_holds_and_an_unrenewed_one_is_taken_over(url, server_clock):
    lost: list[str] = []
    first, second = lease(url, lost), lease(url)
    assert await first.acquire()
    renewing = asyncio.create_task(first.lost())
    for _ in range(3):  # past the lease's end three times: renewals keep it
        await server_clock.past_the_end()
        assert not await second.acquire()
        assert second.next_try <= CHECK
    assert not renewing.done() and first.fresh() and not lost
    renewing.cancel()  # frozen: no renewal from now on
    await asyncio.gather(renewing, return_exceptions=True)
    await until(second.acquire, "the standby's take-over", every=CHECK / 4)
    assert second.epoch == first.epoch + 1
    epoch, holder, running = await lease_row(url)
    assert (epoch, holder, running) == (second.epoch, second.holder, True)
    await second.close()
    await first.close()


async def test_a_write_from_an_old_epoch_fails_and_ends_the_lead(url):
    lost: list[str] = []
    first, second = lease(url, lost), lease(url)
    stores = await open_postgres(url, lease=first)
    try:
        assert await first.acquire()
        assert await stores.updates.claim_update(1, 0.0)  # its epoch leads: written
        # frozen past its lease; a standby takes over
        await until(second.acquire, "the standby's take-over", every=CHECK / 4)
        with pytest.raises(asyncpg.PostgresError) as refused:
            await stores.updates.claim_update(2, 0.0)
        assert refused.value.sqlstate == FENCED
        assert len(lost) == 1 and "refused" in lost[0]
        with pytest.raises(LeaseLost):
            first.check()  # and the gate before a send is shut
        rows = await stores.updates.db.fetch("SELECT update_id FROM handled_updates")
        assert rows == [(1,)]  # nothing of the old epoch's write is there
    finally:
        await stores.close()
        await first.close()
        await second.close()


async def test_writes_in_flight_never_hold_up_a_renewal_but_hold_up_a_take_over(url,
                                                                                   server_clock):
    """The fence's lock (FOR KEY SHARE) lets the leader renew beside its own open writes, and
    makes a take-over wait until the old epoch's writes in flight have committed."""
    lost: list[str] = []
    first, second = lease(url, lost), lease(url)
    database = await Database.open(url, lease=first)
    try:
        assert await first.acquire()
        async with database.transaction() as connection:  # a write in flight
            await connection.execute("INSERT INTO handled_updates (update_id, at) "
                                     "VALUES (1, 0)")
            assert await first._run(RENEW, first.epoch, LEASE) == 1  # at once, beside it
            await server_clock.run_out()  # the write still open
            with pytest.raises(asyncpg.LockNotAvailableError):
                await second.acquire()  # waits for the write (until its lock_timeout)
        assert await second.acquire()  # committed: now the take-over goes through
        assert (await database.fetch("SELECT update_id FROM handled_updates")) == [(1,)]
    finally:
        await database.close()
        await first.close()
        await second.close()


async def test_a_write_after_the_lease_ran_out_fails_even_with_no_one_leading(url,
                                                                             server_clock):
    lost: list[str] = []
    only = lease(url, lost)
    stores = await open_postgres(url, lease=only)
    try:
        assert await only.acquire()
        await server_clock.run_out()  # never renewed
        with pytest.raises(asyncpg.PostgresError) as refused:
            await stores.updates.claim_update(1, 0.0)
        assert refused.value.sqlstate == FENCED and len(lost) == 1
    finally:
        await stores.close()
        await only.close()


async def test_the_gate_shuts_once_the_lease_may_have_run_out(url):
    lost: list[str] = []
    only = lease(url, lost)
    only.check()  # a standby's sends pass (it leads nothing)
    assert await only.acquire()
    only.check()
    only.renewed -= LEASE  # as after a freeze of a lease's length
    with pytest.raises(LeaseLost):
        only.check()
    assert len(lost) == 1 and "not renewed" in lost[0]
    with pytest.raises(LeaseLost):
        only.check()
    assert len(lost) == 1  # told once
    await only.close()


async def test_sessions_without_an_epoch_are_not_fenced(url):
    """Migrations, tools and a standby's housekeeping write with no epoch."""
    stores = await open_postgres(url)
    try:
        assert await stores.updates.claim_update(1, 0.0)
    finally:
        await stores.close()


async def test_every_table_is_fenced(url):
    stores = await open_postgres(url)
    await stores.close()
    connection = await asyncpg.connect(url)
    try:
        unfenced = await connection.fetch(
            "SELECT tablename FROM pg_tables t WHERE schemaname = 'public' AND tablename NOT IN "
            "('leader_lease', 'worker_leases', 'partition_owners', 'schema_migrations') "
            "AND NOT EXISTS (SELECT 1 FROM pg_trigger g "
            "WHERE g.tgrelid = format('%I', t.tablename)::regclass "
            "AND g.tgname = 'leader_fence')")
        tables = await connection.fetchval("SELECT COUNT(*) FROM pg_tables WHERE schemaname "
                                           "= 'public'")
    finally:
        await connection.close()
    assert tables > 10 and [row[0] for row in unfenced] == []


def application(url: str, folder: Path, lost: list[str]) -> types.SimpleNamespace:
    """A process's lead as take_lead and watch_lead hold it: its lease, its Lead (built with
    the lease's gate, as the composition root builds it), and a stop."""
    config = Config(token="1:x", database_path=folder / "bot.sqlite3", database_url=url,
                    lead_check=CHECK, lease_seconds=LEASE)
    leader = lease(url, lost)
    return types.SimpleNamespace(config=config, leader=leader, lead=Lead(leader.check),
                                 stopped=asyncio.Event(), watch=None,
                                 beat=heartbeat_path(config.database_path))


async def take(app: types.SimpleNamespace) -> None:
    """The lead taken, then watched (as bot.wiring.leading holds it)."""
    await take_lead(app.leader, app.lead, app.config)
    app.watch = asyncio.create_task(watch_lead(app.leader, app.lead, app.stopped.set))


def counting_tries(app: types.SimpleNamespace) -> list[bool]:
    """What each of the application's tries for the lead answered, in order."""
    tries: list[bool] = []
    acquire = app.leader.acquire

    async def counted() -> bool:
        tries.append(await acquire())
        return tries[-1]

    app.leader.acquire = counted
    return tries


async def test_a_standby_waits_then_takes_over_from_a_leader_that_stopped_renewing(
        url, tmp_path, server_clock):
    lost: list[str] = []
    first = application(url, tmp_path / "first", lost)
    second = application(url, tmp_path / "second", [])
    tries = counting_tries(second)
    await take(first)
    assert first.lead.role == LEADER and heartbeat_role(first.beat) == LEADER
    waiting = asyncio.create_task(take(second))
    await until(lambda: heartbeat_role(second.beat) == STANDBY, "the standby's heartbeat")
    for _ in range(2):  # past the lease's end, and a try after it: twice
        await server_clock.past_the_end()
        tried = len(tries)
        await until(lambda tried=tried: len(tries) > tried or waiting.done(),
                    "the standby's next try")
        assert not waiting.done() and not any(tries)  # the leader renews: the standby waits
    first.watch.cancel()  # the leader freezes: renewals stop
    await asyncio.wait_for(waiting, 30)
    assert second.lead.role == LEADER and heartbeat_role(second.beat) == LEADER
    with pytest.raises(LeaseLost):
        first.leader.check()  # the old one, waking, sends nothing
    assert len(lost) == 1
    second.watch.cancel()
    for app in (first, second):
        await app.leader.close()


async def test_the_lead_watch_stops_nothing_while_the_lease_is_renewed(url, tmp_path,
                                                                      server_clock):
    only = application(url, tmp_path, [])
    await take(only)
    for _ in range(3):  # past the lease's end three times: still renewed, still running
        await server_clock.past_the_end()
        assert not await server_clock.ended()
    assert not only.stopped.is_set() and not only.watch.done()
    only.leader.check()
    only.watch.cancel()
    await only.leader.close()


async def test_renewals_stop_and_the_lead_ends_when_the_lease_went_stale(url):
    """A leader that wakes from a freeze finds its lease stale before renewing it again."""
    lost: list[str] = []
    only = lease(url, lost)
    assert await only.acquire()
    only.renewed -= LEASE  # as after a freeze of a lease's length
    await asyncio.wait_for(only.lost(), 30)
    assert len(lost) == 1 and "not renewed" in lost[0] and not only.leading
    epoch, _, _ = await lease_row(url)
    assert epoch == only.epoch  # it renewed nothing: the row ends as it was
    await only.close()
