"""The leader's lease on a real server: one leader at a time; a lease not renewed runs out and a
standby takes it over with the next epoch; a write from an ended epoch fails in its own
statement (the fence), and so does the gate before a send; and the start-up of
bot.wiring over it, a standby waiting in post_init and taking over from a leader
that stopped renewing."""

from __future__ import annotations

import asyncio
import time
import types
from pathlib import Path

import asyncpg
import pytest

from bot.runtime.config import Config
from bot.runtime.health import LEADER, STANDBY, heartbeat_path, heartbeat_role
from bot.store.postgres import PostgresLeader, open_postgres
from bot.store.postgres.connection import FENCED, Database
from bot.store.postgres.leader import RENEW, LeaseLost
from bot.wiring import build_bot
from tests.postgres import PostgresServer, new_database

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


async def until(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        await asyncio.sleep(CHECK / 4)


async def lease_row(url: str) -> tuple[int, str, bool]:
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow("SELECT epoch, holder, expires_at > now() "
                                        "FROM leader_lease")
        return tuple(row)
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


async def test_a_renewed_lease_holds_and_an_unrenewed_one_is_taken_over(url):
    lost: list[str] = []
    first, second = lease(url, lost), lease(url)
    assert await first.acquire()
    renewing = asyncio.create_task(first.lost())
    for _ in range(3):  # three lease lengths: renewals keep it
        await asyncio.sleep(LEASE)
        assert not await second.acquire()
        assert second.next_try <= CHECK
    assert not renewing.done() and first.fresh() and not lost
    renewing.cancel()  # frozen: no renewal from now on
    await asyncio.gather(renewing, return_exceptions=True)
    await until(second.acquire)
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
        await until(second.acquire)
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


async def test_writes_in_flight_never_hold_up_a_renewal_but_hold_up_a_take_over(url):
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
            await asyncio.sleep(LEASE + 0.2)  # the lease runs out, the write still open
            with pytest.raises(asyncpg.LockNotAvailableError):
                await second.acquire()  # waits for the write (until its lock_timeout)
        assert await second.acquire()  # committed: now the take-over goes through
        assert (await database.fetch("SELECT update_id FROM handled_updates")) == [(1,)]
    finally:
        await database.close()
        await first.close()
        await second.close()


async def test_a_write_after_the_lease_ran_out_fails_even_with_no_one_leading(url):
    lost: list[str] = []
    only = lease(url, lost)
    stores = await open_postgres(url, lease=only)
    try:
        assert await only.acquire()
        await until(lambda: asyncio.sleep(0, not only.fresh()))
        await asyncio.sleep(only.renew_seconds)  # past the database's end too
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
            "('leader_lease', 'schema_migrations') AND NOT EXISTS (SELECT 1 FROM pg_trigger g "
            "WHERE g.tgrelid = format('%I', t.tablename)::regclass "
            "AND g.tgname = 'leader_fence')")
        tables = await connection.fetchval("SELECT COUNT(*) FROM pg_tables WHERE schemaname "
                                           "= 'public'")
    finally:
        await connection.close()
    assert tables > 10 and [row[0] for row in unfenced] == []


def application(url: str, folder: Path, lost: list[str]) -> types.SimpleNamespace:
    """A bot as take_lead and watch_lead use it: its lease, its bot data, and a stop."""
    config = Config(token="1:x", database_path=folder / "bot.sqlite3", database_url=url,
                    lead_check=CHECK, lease_seconds=LEASE)
    stopped = asyncio.Event()
    bot = build_bot(config, webapp=None)
    bot.leader = lease(url, lost)
    bot.application.bot_data.stop = stopped.set
    return types.SimpleNamespace(bot=bot, bot_data=bot.application.bot_data, stopped=stopped,
                                 beat=heartbeat_path(config.database_path))


async def test_a_standby_waits_then_takes_over_from_a_leader_that_stopped_renewing(url,
                                                                                  tmp_path):
    lost: list[str] = []
    first = application(url, tmp_path / "first", lost)
    second = application(url, tmp_path / "second", [])
    await first.bot.take_lead()
    assert first.bot_data.role == LEADER and heartbeat_role(first.beat) == LEADER
    waiting = asyncio.create_task(second.bot.take_lead())
    await until(lambda: asyncio.sleep(0, heartbeat_role(second.beat) == STANDBY))
    await asyncio.sleep(2 * LEASE)
    assert not waiting.done()  # the leader renews: the standby waits
    first.bot.lead_watch.cancel()  # the leader freezes: renewals stop
    await asyncio.wait_for(waiting, 30)
    assert second.bot_data.role == LEADER and heartbeat_role(second.beat) == LEADER
    with pytest.raises(LeaseLost):
        first.bot.leader.check()  # the old one, waking, sends nothing
    assert len(lost) == 1
    second.bot.lead_watch.cancel()
    for app in (first, second):
        await app.bot.leader.close()


async def test_the_lead_watch_stops_nothing_while_the_lease_is_renewed(url, tmp_path):
    only = application(url, tmp_path, [])
    await only.bot.take_lead()
    await asyncio.sleep(3 * LEASE)
    assert not only.stopped.is_set() and not only.bot.lead_watch.done()
    only.bot.leader.check()
    only.bot.lead_watch.cancel()
    await only.bot.leader.close()


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
