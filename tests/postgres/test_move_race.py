"""A group's move while a member's /play in the supergroup is being stored (issue 48), on
PostgreSQL, where the two transactions run side by side: the move's last transaction could not see
the supergroup's round, not yet committed, and meets it in the "one open round per topic" index
once it is; it is tried again, and then ends the group's round as any merge does."""

from __future__ import annotations

import asyncio
import json

import asyncpg

from bot.store.stores import Stores

OLD, NEW = -4901, -1_000_004_901
ANN, BEN = 491, 492


async def locked_waiters(url: str) -> int:
    """How many sessions of the server wait for a lock now."""
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"))
    finally:
        await connection.close()


async def test_a_round_begun_in_the_supergroup_during_the_move_meets_it_on_the_next_try(
        stores: Stores, postgres_url: str) -> None:
    await stores.people.remember_chat(OLD, "group", "Old")
    await stores.people.remember_chat(NEW, "supergroup", "New")
    for user in (ANN, BEN):
        await stores.people.remember_user(user, f"U{user}")
    group = await stores.rounds.open_round(OLD, "24", (1, 2, 3, 4), 24, "", 10, "en", 1000.0,
                                           1060.0, ANN)
    assert group is not None
    await stores.rounds.record_answer(group.id, BEN, "1+1", False, 1001.0)

    playing = await asyncpg.connect(postgres_url)  # the /play, stored but not yet committed
    try:
        storing = playing.transaction()
        await storing.start()
        supergroup = await playing.fetchval(
            stores.rounds.sql.open_round + " RETURNING id",  # type: ignore[attr-defined]
            NEW, "24", json.dumps([1, 1, 4, 6]), 24, "", 10, "en", 1002.0, 1062.0, BEN, 0,
            None, None)
        moving = asyncio.create_task(stores.people.migrate_chat(OLD, NEW))
        for _ in range(200):  # until the move waits on that row
            if moving.done() or await locked_waiters(postgres_url):
                break
            await asyncio.sleep(0.05)
        assert not moving.done()
        await storing.commit()
        await asyncio.wait_for(moving, 30)
    finally:
        await playing.close()

    assert [(r.id, r.chat_id) for r in await stores.rounds.open_rounds()] == \
        [(supergroup, NEW)]
    ended = await stores.rounds.get_round(group.id)
    assert ended is not None and (ended.status, ended.chat_id) == ("revealed", NEW)
    assert await stores.rounds.answerers(group.id) == [BEN]
    assert await stores.people.unfinished_moves() == []
