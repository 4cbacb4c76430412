"""A worker frozen (SIGSTOP) in the middle of a transaction that wrote: its session idle inside
the transaction, holding the fence's locks and the round's row. How it is put there, through
PostgreSQL alone: the test locks the table of the hands' ratings; a right answer's close (a
rated round's: the close and its rating are one transaction) writes the round's rating key,
locking the round's row, takes the fence's locks, and waits on the hand's upsert (on
PostgreSQL the close itself comes last: docs/ratings.md); the worker is SIGSTOPped there
and the table let go, so the session, inside its transaction, waits for its frozen client
(PostgreSQL shows it 'active', waiting on the client: the statement's messages half read,
which idle_in_transaction_session_timeout never ends, or 'idle in transaction').

The other worker takes the frozen one's partitions the moment its lease runs out, ending its
session (the close rolled back) rather than waiting on its locks; the round goes on there and
ends on time, once. Let go, the frozen worker finds its lease gone and exits (status 3) having
sent nothing."""

from __future__ import annotations

import asyncio
import signal
import time

import asyncpg
import pytest

from bot.runtime.config import WORKER_LEASE_SECONDS
from solver import solve
from tests.cluster.test_cluster_process import ANN, GROUP
from tests.e2e.test_bot_process import hand_of
from tests.waiting import until

pytestmark = [pytest.mark.slow, pytest.mark.server_behaviour]  # on the oldest server too
IDLE_TIMEOUT = 5.0  # the sessions' idle_in_transaction_session_timeout (bot/store/postgres)


def sessions_of(pid: int, state: str) -> str:
    return ("SELECT COUNT(*) > 0 FROM pg_stat_activity WHERE application_name LIKE "
            f"'twentyfour/{pid} worker %' AND {state}")


async def test_a_worker_frozen_inside_a_transaction_is_replaced_within_its_lease(
        telegram, cluster, database):
    connection = await asyncpg.connect(database)
    watching = await asyncpg.connect(database)  # outside the test's transaction: a
    # transaction sees pg_stat_activity as it was at its first look
    running = cluster(round_seconds=15.0)
    try:
        await running.start_ingress()
        workers = [await running.start_worker("a"), await running.start_worker("b")]
        await running.shared(workers)
        frozen = await running.owner(GROUP)
        assert frozen is not None and frozen.pid is not None
        [other] = [w for w in workers if w is not frozen]
        telegram.chat(GROUP)
        await telegram.say(GROUP, ANN, "/play")
        assert await running.deliver() == [200]
        hand = hand_of((await telegram.reply(GROUP, timeout=30)).text)
        await until(lambda: connection.fetchval(
            "SELECT bool_and(message_id IS NOT NULL) FROM rounds WHERE status = 'open'"),
            "the deal's message id stored")

        holding = connection.transaction()
        await holding.start()
        await connection.execute("LOCK TABLE hand_ratings IN SHARE MODE")
        await telegram.say(GROUP, ANN, f"/a {solve(hand)[0]}")
        assert await running.deliver() == [200]
        await until(lambda: watching.fetchval(sessions_of(
            frozen.pid, "wait_event_type = 'Lock' AND query LIKE 'INSERT INTO hand_ratings%'")),
            "the close's rating waiting on the table")
        frozen.signal(signal.SIGSTOP)
        stopped_at = time.monotonic()
        await holding.commit()  # the upsert completes; the COMMIT never comes
        await until(lambda: watching.fetchval(sessions_of(  # inside its transaction,
            # waiting for its client: 'idle in transaction', or 'active' with the statement's
            # messages half read, which no idle timeout ends
            frozen.pid, "wait_event_type = 'Client' AND xact_start IS NOT NULL "
            "AND query LIKE 'INSERT INTO hand_ratings%'")),
            "the session waiting for its frozen client")
        idle_at = time.monotonic()
        xid = await watching.fetchval(  # the frozen transaction's id: what its writes carry
            f"SELECT backend_xid::text FROM pg_stat_activity WHERE application_name LIKE "
            f"'twentyfour/{frozen.pid} worker %' AND backend_xid IS NOT NULL")
        assert xid is not None

        await running.shared([other])
        took = time.monotonic()
        assert took - stopped_at <= WORKER_LEASE_SECONDS + 2.0
        assert took - idle_at < IDLE_TIMEOUT  # not the server's timeout: the taker ended it
        assert other.said("ended the sessions of a worker whose lease ran out")
        assert not await watching.fetchval(sessions_of(frozen.pid, "true"))
        # the close rolled back: the round is on, or the new owner ended it since (the answer,
        # which the frozen worker never acknowledged, may reach it again), never by the frozen
        # transaction's write
        status, written_by = await connection.fetchrow(
            "SELECT status, xmin::text FROM rounds WHERE chat_id = $1", GROUP)
        assert status == "open" or written_by != xid, (status, written_by, xid)

        ended = await telegram.reply(GROUP, timeout=40)  # its end, on the new owner, once
        assert ended.pid == other.pid
        sent_before = len(telegram.journal)
        frozen.signal(signal.SIGCONT)
        assert frozen.process is not None
        assert await asyncio.wait_for(frozen.process.wait(), 30) == 3  # LOST_LEAD
        assert [r for r in telegram.journal[sent_before:] if r.pid == frozen.pid] == []
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE chat_id = $1 AND status <> 'open'", GROUP) == 1
        assert [s.pid for s in telegram.sent if s.chat_id == GROUP] == \
            [frozen.pid, other.pid]  # the deal, then the round's one end
    finally:
        await connection.close()
        await watching.close()
