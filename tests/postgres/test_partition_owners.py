"""Many workers on one database (migration 20): each registers a lease of its own and owns some
partitions. A partition a live worker owns is never taken; a dead worker's are, once its
writes in flight have ended; a worker's writes stop with its lease (TF024), and a round's life
is written only by the owner of its chat's partition (TF025), whose giving the partition up
waits for those writes.

Leases run by the database's clock: where a lease must have run out, the test waits for that
clock, never for a fixed while."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.cluster.partitions import partition_of
from bot.store.postgres import open_postgres, partition_owners
from bot.store.postgres.connection import FENCED, Database
from bot.store.postgres.partition_owners import PartitionOwners
from bot.store.postgres.worker_lease import WorkerLease
from tests.postgres import PostgresServer, new_database
from tests.waiting import until

PARTITIONS = 16
LEASE = 1.0
OTHERS = "TF025"  # a partition the writer does not own
CLOSE = "UPDATE rounds SET status = 'expired', ended_at = 170 WHERE id = $1"


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    fresh = await new_database(postgres_server)
    await (await open_postgres(fresh)).close()
    return fresh


class Worker:
    """A worker's lease, its fenced pool and its view of the owners' table."""

    def __init__(self, lease: WorkerLease, database: Database) -> None:
        self.lease = lease
        self.database = database
        self.owners = PartitionOwners(database.pool, PARTITIONS)
        self.lost: list[str] = []
        self.renewing = asyncio.create_task(lease.lost())

    async def freeze(self) -> None:
        """No renewal from now on, as in a frozen process."""
        self.renewing.cancel()
        await asyncio.gather(self.renewing, return_exceptions=True)

    async def close(self) -> None:
        await self.freeze()
        await self.database.close()
        await self.lease.close()


@pytest.fixture
async def workers(url: str) -> AsyncIterator[list[Worker]]:
    """`workers` grows by `await join(workers, url)`; every one closed at the end."""
    made: list[Worker] = []
    yield made
    for worker in made:
        await worker.close()


async def join(made: list[Worker], url: str) -> Worker:
    lost: list[str] = []
    lease = WorkerLease(url, PARTITIONS, LEASE, on_lost=lost.append)
    database = await Database.open(url, lease=lease)
    assert await lease.acquire()  # registering always succeeds
    worker = Worker(lease, database)  # renewing from now on
    worker.lost = lost
    worker.owners.epoch = lease.epoch
    await worker.owners.seed()
    made.append(worker)
    return worker


def chat_in(partition: int) -> int:
    """A group's id whose partition is `partition`."""
    return next(chat for chat in range(-1000, -2000, -1)
                if partition_of(chat, PARTITIONS) == partition)


async def open_round(connection: asyncpg.Connection | asyncpg.Pool, chat: int) -> int:
    await connection.execute("INSERT INTO chats (id, type) VALUES ($1, 'group') "
                             "ON CONFLICT (id) DO NOTHING", chat)
    return await connection.fetchval(
        "INSERT INTO rounds (chat_id, hand, target, level, points, started_at, deadline) "
        "VALUES ($1, '[1, 2, 3, 4]', 24, 'easy', 10, 100.0, 160.0) RETURNING id", chat)


async def lease_ended(url: str, worker: Worker) -> None:
    """Wait until the worker's lease has run out by the database's clock."""
    connection = await asyncpg.connect(url)
    try:
        await until(lambda: connection.fetchval(
            "SELECT NOT EXISTS (SELECT 1 FROM worker_leases WHERE epoch = $1 "
            "AND expires_at > now())", worker.lease.epoch), "the lease run out")
    finally:
        await connection.close()


async def test_workers_take_free_partitions_and_never_a_live_workers(url, workers):
    first = await join(workers, url)
    second = await join(workers, url)
    assert first.lease.epoch != second.lease.epoch
    assert (await first.owners.survey()).workers == 2
    assert await first.owners.take(10) == list(range(10))
    assert await second.owners.take(10) == list(range(10, 16))  # what is left
    assert await second.owners.take(10) == []  # none free: the first lives
    assert (await second.owners.survey()).free == 0
    await first.owners.give_up([8, 9])
    assert await second.owners.take(10) == [8, 9]
    # what an operator's look (and the cluster's tests and bench) reads: both leases are this
    # process's, so every partition is owned by its pid
    assert await partition_owners.owner_pids(url) == {p: os.getpid() for p in range(PARTITIONS)}


async def test_a_dead_workers_partitions_are_taken_and_its_writes_refused(url, workers):
    first = await join(workers, url)
    second = await join(workers, url)
    assert await first.owners.take(PARTITIONS) == list(range(PARTITIONS))
    chat = chat_in(3)
    round_id = await open_round(first.database.pool, chat)  # its lease runs: written
    await first.freeze()
    await lease_ended(url, first)
    with pytest.raises(asyncpg.PostgresError) as refused:
        await first.database.pool.execute(CLOSE, round_id)
    assert refused.value.sqlstate == FENCED
    assert (await second.owners.survey()).free == PARTITIONS
    assert await second.owners.take(PARTITIONS) == list(range(PARTITIONS))
    await second.database.pool.execute(CLOSE, round_id)
    async with first.database.pool.acquire() as watching:
        assert await watching.fetchval("SELECT COUNT(*) FROM worker_leases") == 1  # buried
    await first.lease.lost()  # woken: its next renewal finds it gone
    assert first.lost and not await first.lease.acquire()  # never taken back


async def test_a_round_is_written_only_by_its_partitions_owner(url, workers):
    first = await join(workers, url)
    second = await join(workers, url)
    assert await first.owners.take(8) == list(range(8))
    assert await second.owners.take(8) == list(range(8, 16))
    mine, theirs = chat_in(3), chat_in(12)
    round_id = await open_round(first.database.pool, mine)
    also_mine = next(chat for chat in range(mine - 1, -5000, -1)
                     if partition_of(chat, PARTITIONS) == 3)
    for writer, chat in ((first, theirs), (second, also_mine)):
        with pytest.raises(asyncpg.PostgresError) as refused:
            await open_round(writer.database.pool, chat)
        assert refused.value.sqlstate == OTHERS
    with pytest.raises(asyncpg.PostgresError) as refused:  # nor closed by another
        await second.database.pool.execute(CLOSE, round_id)
    assert refused.value.sqlstate == OTHERS
    # a person's /forget, which leaves a round's life alone, is not refused
    await second.database.pool.execute(
        "UPDATE rounds SET started_by = NULL WHERE id = $1", round_id)
    await first.owners.give_up([3])
    with pytest.raises(asyncpg.PostgresError) as refused:
        await first.database.pool.execute(CLOSE, round_id)
    assert refused.value.sqlstate == OTHERS
    assert first.lost == []  # a partition given up ends nothing else
    assert await second.owners.take(8) == [3]
    await second.database.pool.execute(CLOSE, round_id)


async def waiting_on_a_lock(url: str) -> bool:
    connection = await asyncpg.connect(url)
    try:
        return await connection.fetchval("SELECT COUNT(*) > 0 FROM pg_locks WHERE NOT granted")
    finally:
        await connection.close()


async def test_giving_a_partition_up_waits_for_its_round_writes_in_flight(url, workers):
    first = await join(workers, url)
    assert await first.owners.take(PARTITIONS) == list(range(PARTITIONS))
    async with first.database.pool.acquire() as connection:
        writing = connection.transaction()
        await writing.start()
        await open_round(connection, chat_in(5))
        giving = asyncio.create_task(first.owners.give_up([5]))
        await until(lambda: waiting_on_a_lock(url), "the give-up waiting on the write")
        assert not giving.done()
        await writing.commit()
    await giving
    async with first.database.pool.acquire() as connection:
        assert await connection.fetchval(
            "SELECT owner FROM partition_owners WHERE partition = 5") is None


async def test_a_take_over_ends_the_dead_workers_transaction_in_flight(url, workers):
    """A worker frozen inside a transaction that wrote (the fence's locks held, its rows
    locked) while its lease ran out: the take-over ends its session at once — its write rolled
    back, never committed after the lease — rather than waiting for the server's
    idle_in_transaction_session_timeout (5 s)."""
    first = await join(workers, url)
    second = await join(workers, url)
    assert await first.owners.take(PARTITIONS) == list(range(PARTITIONS))
    async with first.database.pool.acquire() as connection:
        writing = connection.transaction()
        await writing.start()
        round_id = await open_round(connection, chat_in(5))  # fenced when it ran: its lease
        # held then; and the frozen worker never commits
        await first.freeze()
        await lease_ended(url, first)
        assert await asyncio.wait_for(second.owners.take(PARTITIONS), 3.0) == \
            list(range(PARTITIONS))
        with pytest.raises((asyncpg.PostgresError, asyncpg.InterfaceError, OSError)):
            await writing.commit()  # its session was ended
    async with second.database.pool.acquire() as connection:
        assert await connection.fetchval("SELECT COUNT(*) FROM rounds WHERE id = $1",
                                         round_id) == 0
        await open_round(connection, chat_in(5))  # the new owner writes the partition


async def test_a_take_over_waits_for_a_dead_workers_statement_it_may_not_end(url, workers,
                                                                            monkeypatch):
    """A server that refuses to end the dead worker's sessions (another role's): the
    take-over waits for its writes in flight, as before, and says why once."""
    first = await join(workers, url)
    second = await join(workers, url)
    assert await first.owners.take(PARTITIONS) == list(range(PARTITIONS))
    monkeypatch.setattr(partition_owners, "END_DEAD", REFUSED)
    async with first.database.pool.acquire() as connection:
        writing = connection.transaction()
        await writing.start()
        await open_round(connection, chat_in(5))
        await first.freeze()
        await lease_ended(url, first)
        taking = asyncio.create_task(second.owners.take(PARTITIONS))
        await until(lambda: waiting_on_a_lock(url), "the take-over waiting on the write")
        assert not taking.done()
        await writing.commit()
    assert await taking == list(range(PARTITIONS))
    assert second.owners.refused_said


# what the server answers a role ending a superuser's session: SQLSTATE 42501
REFUSED = "DO $$ BEGIN RAISE insufficient_privilege USING MESSAGE = 'not allowed'; END $$"


async def test_the_survey_says_when_the_first_other_lease_would_end(url, workers):
    first = await join(workers, url)
    assert (await first.owners.survey()).next_end is None  # alone
    second = await join(workers, url)
    ends = (await first.owners.survey()).next_end
    assert ends is not None and 0 < ends <= LEASE
    await second.freeze()
    await lease_ended(url, second)
    assert (await first.owners.survey()).next_end is None  # ran out: none live but its own
