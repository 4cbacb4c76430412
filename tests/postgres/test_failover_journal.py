"""The failover bench's count of actions after a lease ended (bench/bench_failover.py) sees them
when they happen: with the fence taken off one table, a write from an ended epoch is counted
from the database's journal, and a request from the old leader's process after its lease's end
from the emulator's."""

from __future__ import annotations

import types

import asyncpg

from bench.bench_failover import JOURNAL, after_the_lease
from bot.store.postgres import open_postgres
from demo.emulator import Request
from tests.postgres import new_database

OLD, NEW = 4242, 4343  # the two processes' ids


async def test_the_journals_count_what_an_old_leader_did(postgres_server):
    url = await new_database(postgres_server)
    await (await open_postgres(url)).close()
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(JOURNAL)
        await connection.execute(  # epoch 1 led and ended a second ago; epoch 2 leads
            "UPDATE leader_lease SET epoch = 1, holder = $1, "
            "expires_at = now() - interval '1 second'", f"{OLD}@here")
        await connection.execute("UPDATE leader_lease SET epoch = 2, holder = $1, "
                                 "expires_at = now() + interval '1 hour'", f"{NEW}@here")
        emulator = types.SimpleNamespace(journal=[])
        assert await after_the_lease(connection, emulator) == (0, 0, 0)  # type: ignore[arg-type]
        await connection.execute("DROP TRIGGER leader_fence ON handled_updates")
        await connection.execute("SET twentyfour.epoch = '1'")
        await connection.execute("INSERT INTO handled_updates (update_id, at) VALUES (1, 0)")
        await connection.execute("RESET twentyfour.epoch")
        # the emulator's times beside the lease's end, both by the database's clock
        now = await connection.fetchval("SELECT EXTRACT(EPOCH FROM now())::float8")
        agent = "python-telegram-bot twentyfour/{}"
        emulator.journal = [Request(now - 60, "sendMessage", agent.format(OLD)),  # in time
                            Request(now, "getUpdates", agent.format(OLD)),  # after its end
                            Request(now, "sendMessage", agent.format(NEW))]  # the new leader
        assert await after_the_lease(connection, emulator) == (1, 1, 1)  # type: ignore[arg-type]
    finally:
        await connection.close()
