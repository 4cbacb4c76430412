"""A group that becomes a supergroup mid-round, across workers, end to end (the Bot API emulator,
a real PostgreSQL and NATS): the group's partition is one worker's, the supergroup's the other's.
The group's worker moves the rows and hands the round over through the stream; the supergroup's
worker shows the deal again there and judges the answer made there, once."""

from __future__ import annotations

import asyncpg
import pytest

from solver import solve
from tests.cluster.processes import Cluster, RoleProcess
from tests.e2e.test_bot_process import hand_of
from tests.waiting import until

pytestmark = pytest.mark.slow
ANN = {"id": 711, "is_bot": False, "first_name": "Ann", "language_code": "en"}


async def owned_apart(running: Cluster) -> tuple[int, int, RoleProcess, RoleProcess]:
    """A group's id and a supergroup's whose partitions two different workers own, and those
    workers."""
    group = -7101
    first = await running.owner(group)
    assert first is not None
    for supergroup in range(-1_000_007_101, -1_000_007_140, -1):
        second = await running.owner(supergroup)
        if second is not None and second is not first:
            return group, supergroup, first, second
    raise AssertionError("no supergroup id in another worker's partitions")


async def test_a_round_moved_to_another_workers_supergroup_goes_on_there(
        telegram, cluster, database):
    running = cluster()
    await running.start_ingress()
    workers = [await running.start_worker("a"), await running.start_worker("b")]
    await running.shared(workers)
    group, supergroup, first, second = await owned_apart(running)
    telegram.chat(group)
    await telegram.say(group, ANN, "/play")
    assert await running.deliver() == [200]
    hand = hand_of((await telegram.reply(group, timeout=30)).text)
    connection = await asyncpg.connect(database)
    try:
        await until(lambda: connection.fetchval(
            "SELECT message_id IS NOT NULL FROM rounds WHERE chat_id = $1", group),
            "the deal's message id stored")
        await telegram.migrate(group, supergroup, ANN)
        assert await running.deliver() == [200]
        again = await telegram.reply(supergroup, timeout=30)
        assert "Make 24" in again.text and again.pid == second.pid  # the deal, shown there
        await telegram.say(supergroup, ANN, f"/a {solve(hand)[0]}", kind="supergroup")
        assert await running.deliver() == [200]
        won = await telegram.reply(supergroup, timeout=30)
        assert "Ann wins" in won.text and won.pid == second.pid
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE chat_id = $1 AND status = 'won'",
            supergroup) == 1
        assert await connection.fetchval("SELECT COUNT(*) FROM rounds WHERE chat_id = $1",
                                         group) == 0  # every row moved
        results = [s for s in telegram.sent if "wins" in s.text or "Time is up" in s.text]
        assert len(results) == 1
        assert {s.pid for s in telegram.sent if s.chat_id == group} == {first.pid}
    finally:
        await connection.close()
