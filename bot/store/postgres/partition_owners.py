"""Which worker owns which partition (migration 20's `partition_owners`): a row a partition,
its owner the epoch of a worker's lease (bot.store.postgres.worker_lease), or none.

A partition is free when it has no owner or its owner's lease has run out. Taking a dead
worker's partitions first ends the dead worker's sessions (`pg_terminate_backend`, found by
their application name, which carries the epoch), so that one frozen inside a transaction (a
SIGSTOP, a paused VM) gives its locks up now rather than when the server's
idle_in_transaction_session_timeout ends it; then it deletes every lease whose time is up and
takes each one's advisory lock alone, so it waits for the dead worker's writes still in flight
(the fence holds that lock shared until they commit), and only then does the new owner take,
resume and write. The delete and the take share one transaction, hence one `now()`: a lease
that had run out at its start is gone before any of its partitions is taken. Ending a session
of a lease that ran out loses nothing the fence would have let through: its transaction, not
committed, is rolled back, as if the worker had died a moment sooner. Giving a partition up
takes the partition's advisory lock alone, which waits for the owner's own round writes in
flight (the per-partition fence holds it shared), so the next owner reads them.

The survey says, besides the live workers and the free partitions, how long until the first
of the other workers' leases ends, so that a worker looks again the moment a dead one's runs
out (bot.cluster.ownership) rather than up to a look's interval later.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import asyncpg

log = logging.getLogger(__name__)

LOCK_MS = 1000  # a take or a give-up waits this long on writes in flight, then tries later

SEED = ("INSERT INTO partition_owners (partition) SELECT generate_series(0, $1 - 1) "
        "ON CONFLICT (partition) DO NOTHING")
# Live workers, the partitions no live worker owns, and the seconds until the first of the
# other live leases ($2: this worker's epoch) ends (NULL: none).
SURVEY = """
    WITH live AS (SELECT epoch, expires_at FROM worker_leases WHERE expires_at > now())
    SELECT (SELECT count(*) FROM live),
           (SELECT count(*) FROM partition_owners
            WHERE partition < $1 AND (owner IS NULL OR owner NOT IN (SELECT epoch FROM live))),
           (SELECT EXTRACT(EPOCH FROM min(expires_at) - now())::float8 FROM live
            WHERE epoch IS DISTINCT FROM $2)"""
# The sessions of the leases that ran out, ended (waiting up to TERMINATE_MS for each to go):
# a worker frozen inside a transaction holds the fence's locks and its rows' until then. The
# application name carries the epoch (bot.store.postgres.worker_lease.session_name).
TERMINATE_MS = 1000
END_DEAD = f"""
    SELECT count(*) FILTER (WHERE pg_terminate_backend(a.pid, {TERMINATE_MS}))
    FROM pg_stat_activity a JOIN worker_leases w
      ON a.application_name LIKE 'twentyfour/% worker ' || w.epoch
    WHERE w.expires_at <= now() AND a.pid <> pg_backend_pid()"""
# the fence's advisory locks (migration 20 repeats the keys): a worker's, a partition's
WORKER_LOCK, PARTITION_LOCK = 2425, 2426
BURY = ("WITH dead AS (DELETE FROM worker_leases WHERE expires_at <= now() RETURNING epoch) "
        f"SELECT pg_advisory_xact_lock({WORKER_LOCK}, epoch::INTEGER) FROM dead")
# Up to $2 free partitions for worker $1, the lowest first, while its own lease runs; rows
# another taker holds are left to it.
TAKE = """
    WITH free AS (
        SELECT partition FROM partition_owners
        WHERE partition < $3
          AND (owner IS NULL
               OR owner NOT IN (SELECT epoch FROM worker_leases WHERE expires_at > now()))
          AND EXISTS (SELECT 1 FROM worker_leases WHERE epoch = $1 AND expires_at > now())
        ORDER BY partition LIMIT $2 FOR UPDATE SKIP LOCKED)
    UPDATE partition_owners o SET owner = $1 FROM free
    WHERE o.partition = free.partition RETURNING o.partition"""
HOLD = (f"SELECT pg_advisory_xact_lock({PARTITION_LOCK}, p) FROM unnest($1::INTEGER[]) AS p "
        "ORDER BY p")
GIVE_UP = "UPDATE partition_owners SET owner = NULL WHERE partition = ANY($2) AND owner = $1"


# partition -> the holder ("pid@host") of the live lease owning it: what an operator's look,
# a test or a bench reads to see who plays which chats
OWNED = ("SELECT o.partition, w.holder FROM partition_owners o JOIN worker_leases w "
         "ON w.epoch = o.owner AND w.expires_at > now()")


async def owner_pids(url: str) -> dict[int, int]:
    """partition -> the pid of the live worker owning it (workers on this machine)."""
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(OWNED)
    finally:
        await connection.close()
    return {row[0]: int(row[1].split("@")[0]) for row in rows}


@dataclass(frozen=True)
class Survey:
    workers: int  # live leases, this worker's among them
    free: int  # partitions no live worker owns
    next_end: float | None = None  # seconds until another worker's lease ends, if it is not
    # renewed first (None: no other worker)


class PartitionOwners:
    """The owners' table as one worker sees it; `epoch` is its lease's (None: not registered)."""

    def __init__(self, pool: asyncpg.Pool, partitions: int, epoch: int | None = None) -> None:
        self.pool = pool
        self.partitions = partitions
        self.epoch = epoch
        self.refused_said = False

    async def seed(self) -> None:
        """A row for every partition (the first worker to come makes them)."""
        await self.pool.execute(SEED, self.partitions)

    async def survey(self) -> Survey:
        workers, free, next_end = await self.pool.fetchrow(SURVEY, self.partitions, self.epoch)
        return Survey(int(workers), int(free), None if next_end is None else float(next_end))

    async def end_dead_sessions(self) -> int:
        """End the sessions of the workers whose lease ran out; how many. A server that does
        not let this role end them (another role's sessions) is said once: the server's
        idle_in_transaction_session_timeout ends a frozen one then."""
        try:
            return int(await self.pool.fetchval(END_DEAD))
        except asyncpg.InsufficientPrivilegeError as error:
            if not self.refused_said:
                self.refused_said = True
                log.warning("partitions: may not end a dead worker's sessions (%s); one frozen "
                            "inside a transaction holds its locks until the server ends it",
                            error)
            return 0

    async def take(self, most: int) -> list[int]:
        """Up to `most` free partitions, now this worker's; a dead worker's after its writes
        in flight ended. Raises when the database is out of reach or a lock took too long."""
        assert self.epoch is not None, "registered first"
        if await self.end_dead_sessions():
            log.info("partitions: ended the sessions of a worker whose lease ran out")
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute(f"SET LOCAL lock_timeout = {LOCK_MS}")
            await connection.fetch(BURY)
            rows = await connection.fetch(TAKE, self.epoch, most, self.partitions)
        return sorted(row[0] for row in rows)

    async def give_up(self, partitions: list[int]) -> None:
        """The partitions are free again, once this worker's round writes in flight ended."""
        assert self.epoch is not None, "registered first"
        async with self.pool.acquire() as connection, connection.transaction():
            await connection.execute(f"SET LOCAL lock_timeout = {LOCK_MS * 5}")
            await connection.fetch(HOLD, partitions)
            await connection.execute(GIVE_UP, self.epoch, partitions)
