"""The leader lock on a real server: one leader at a time, handed on when its holder closes or
its connection is cut; and the start-up of bot.telegram.lifecycle over it, a standby waiting in
post_init and taking over when the leader's connection ends."""

from __future__ import annotations

import asyncio
import types
from pathlib import Path

import asyncpg
import pytest

from bot.runtime.config import Config
from bot.runtime.health import LEADER, STANDBY, heartbeat_path, heartbeat_role
from bot.store.postgres import PostgresLeader
from bot.store.postgres.connection import LEADER_LOCK
from bot.telegram.context import BotData
from bot.telegram.lifecycle import take_lead
from tests.postgres import PostgresServer, new_database

CHECK = 0.2  # seconds between a standby's tries and a leader's checks, quick for the tests


async def cut(url: str) -> int:
    """End the connection that holds the database's leader lock, from the server's side, as a
    network cut does; how many were ended."""
    connection = await asyncpg.connect(url)
    try:
        return len(await connection.fetch(
            "SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_database d "
            "ON d.oid = l.database WHERE d.datname = current_database() AND l.granted "
            "AND l.locktype = 'advisory' AND (l.classid, l.objid, l.objsubid) = ($1, $2, 2)",
            *LEADER_LOCK))
    finally:
        await connection.close()


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    return await new_database(postgres_server)


async def test_one_leader_at_a_time_until_it_closes(url):
    first, second = PostgresLeader(url, CHECK), PostgresLeader(url, CHECK)
    assert await first.acquire()
    assert await first.acquire()  # asking again changes nothing
    assert not await second.acquire()
    assert not await second.acquire()
    await first.close()
    assert await second.acquire()
    assert not await first.acquire()
    await second.close()
    await first.close()


async def test_a_cut_connection_ends_the_lead_and_frees_the_lock(url):
    first, second = PostgresLeader(url, CHECK), PostgresLeader(url, CHECK)
    assert await first.acquire()
    assert not await second.acquire()
    watching = asyncio.create_task(first.lost())
    await asyncio.sleep(3 * CHECK)
    assert not watching.done()  # a held lead is not lost by checking it
    assert await cut(url) == 1
    await asyncio.wait_for(watching, 30)
    assert not first.leading
    assert await second.acquire()
    await second.close()


async def test_an_unreachable_database_raises_and_leads_nobody(url):
    lock = PostgresLeader(url.replace(url.split(":")[2].split("/")[0], "1"), CHECK)
    with pytest.raises(OSError):
        await lock.acquire()
    assert not lock.leading


def application(url: str, folder: Path) -> types.SimpleNamespace:
    """What take_lead and watch_lead use of an Application: bot_data, and a stop."""
    config = Config(token="1:x", database_path=folder / "bot.sqlite3", database_url=url,
                    lead_check=CHECK)
    stopped = asyncio.Event()
    data = BotData()
    data.config, data.leader, data.stop = config, PostgresLeader(url, CHECK), stopped.set
    return types.SimpleNamespace(bot_data=data, stopped=stopped,
                                 beat=heartbeat_path(config.database_path))


async def test_a_standby_waits_then_takes_over_when_the_leader_is_cut(url, tmp_path):
    first = application(url, tmp_path / "first")
    second = application(url, tmp_path / "second")
    await take_lead(first)  # type: ignore[arg-type]
    assert first.bot_data.role == LEADER and heartbeat_role(first.beat) == LEADER
    waiting = asyncio.create_task(take_lead(second))  # type: ignore[arg-type]
    for _ in range(200):
        if heartbeat_role(second.beat) == STANDBY:
            break
        await asyncio.sleep(CHECK / 4)
    assert heartbeat_role(second.beat) == STANDBY and not waiting.done()
    await cut(url)
    await asyncio.wait_for(first.stopped.wait(), 30)  # the old leader stops itself
    assert first.bot_data.lost_lead and first.bot_data.role == STANDBY
    await asyncio.wait_for(waiting, 30)
    assert second.bot_data.role == LEADER and heartbeat_role(second.beat) == LEADER
    for app in (first, second):
        app.bot_data.lead_watch.cancel()
        await app.bot_data.leader.close()


async def test_the_lead_watch_stops_nothing_while_the_lead_holds(url, tmp_path):
    only = application(url, tmp_path)
    await take_lead(only)  # type: ignore[arg-type]
    await asyncio.sleep(5 * CHECK)
    assert not only.stopped.is_set() and not only.bot_data.lead_watch.done()
    only.bot_data.lead_watch.cancel()
    await only.bot_data.leader.close()
