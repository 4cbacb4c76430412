"""A group's move while a member's /play in the supergroup is being stored (issue 48), on
PostgreSQL, where the two transactions run side by side: the move's last transaction could not see
the supergroup's round, not yet committed, and meets it in the "one open round per topic" index
once it is; it is tried again, and then ends the group's round as any merge does."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import asyncpg
import pytest

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


async def test_a_group_first_stored_while_its_move_commits_moves_whole(
        stores: Stores, postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The group's first /play commits inside the move's last transaction, after its statement
    that copies the group's row for the supergroup (nothing to copy yet: the /play was not
    committed) and before the one that moves the rounds, which then sees the new round (each
    statement of a READ COMMITTED transaction sees what was committed before it began). The
    move makes the supergroup's row whether or not it found the group's, so the round moves
    instead of failing the foreign key (the PostgreSQL fuzz found this)."""
    old, new, ann = -4902, -1_000_004_902, 493
    await stores.people.remember_user(ann, "Ann")
    playing = await asyncpg.connect(postgres_url)  # the group's first /play, not committed
    storing = playing.transaction()
    await storing.start()
    await playing.execute("INSERT INTO chats (id, type, title) VALUES ($1, 'group', 'Old')", old)
    round_id = await playing.fetchval(
        stores.rounds.sql.open_round + " RETURNING id",  # type: ignore[attr-defined]
        old, "24", json.dumps([1, 2, 3, 4]), 24, "", 10, "en", 1000.0, 1060.0, ann, 0,
        None, None)
    sql = stores.people.sql  # type: ignore[attr-defined]
    db = stores.people.db  # type: ignore[attr-defined]
    transaction = db.transaction

    class Stepping:
        """The move's connection, the /play committed just before the statement that moves
        the group's language (after the row copy, before the rounds move)."""

        def __init__(self, connection: asyncpg.Connection) -> None:
            self.connection = connection

        async def execute(self, statement: str, *params: object) -> str:
            if statement == sql.move_language and not committed:
                await storing.commit()
                committed.append(True)
            return await self.connection.execute(statement, *params)

        def __getattr__(self, name: str) -> object:
            return getattr(self.connection, name)

    @contextlib.asynccontextmanager
    async def committed_meanwhile() -> AsyncIterator[object]:
        async with transaction() as connection:
            yield Stepping(connection)

    committed: list[bool] = []
    monkeypatch.setattr(db, "transaction", committed_meanwhile)
    try:
        await stores.people.migrate_chat(old, new)
    finally:
        monkeypatch.setattr(db, "transaction", transaction)
        await playing.close()

    assert committed
    assert [(r.id, r.chat_id, r.status) for r in await stores.rounds.open_rounds()] == \
        [(round_id, new, "open")]
    assert await stores.people.unfinished_moves() == []
