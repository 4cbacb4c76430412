"""Two `python -m bot` processes on one real PostgreSQL: a small run of bench/bench_failover.py
(the leader killed with SIGKILL, the standby taking over), a leader frozen past its lease
replaced and, woken, exiting 3 having sent and written nothing, a leader whose sessions the
server drops going on, the health check naming each one's role, a standby's webhook answering
503 until it takes over, and SIGTERM ending a standby as cleanly as a leader."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bench.bench_failover import JOURNAL, Replica, after_the_lease, failover_trials, terminate
from bot.__main__ import LOST_LEAD
from bot.runtime.health import LEADER, STANDBY
from bot.store.postgres import open_postgres
from bot.telegram.webhook import LEADER_PATH, SECRET_HEADER, WEBHOOK_PATH
from demo.emulator import BotApiEmulator
from tests.conftest import ROOT
from tests.e2e.test_bot_process import ANN, GROUP
from tests.e2e.test_webhook import free_port, post, update_headers
from tests.postgres import PostgresServer, new_database
from tests.postgres import postgres_server as postgres_server
from tests.waiting import until

SECRET = "shared_by_both_replicas"


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    """A fresh database, migrated, with the bench's journal of every row and lease change."""
    fresh = await new_database(postgres_server)
    await (await open_postgres(fresh)).close()
    connection = await asyncpg.connect(fresh)
    try:
        await connection.execute(JOURNAL)
    finally:
        await connection.close()
    return fresh


@pytest.fixture
async def replicas(telegram: BotApiEmulator, tmp_path: Path, url: str):
    """Two bot processes on the database, not started; stopped at the end."""
    made = [Replica(telegram, tmp_path, name, url, 60.0) for name in ("a", "b")]
    yield made
    for replica in made:
        await replica.stop()


@pytest.mark.slow
async def settled_log(log: Path) -> str:
    """A process's log once what outlives it has spoken: multiprocessing's resource tracker
    reports what the exited process left (a pool's semaphores) a moment after the exit."""
    await asyncio.sleep(2.0)  # the tracker sees its pipe close and writes within a second
    return log.read_text()


async def test_failover_trials_lose_nothing(tmp_path, postgres_server):
    url = await new_database(postgres_server)  # the bench migrates it and adds its journal
    results = await failover_trials(2, seed=5, folder=tmp_path, url=url, chats_per_trial=3,
                                    faults=("kill",))
    figures, whole = results["kill"], results["all"]
    assert figures.trials == 2 and figures.failed_take_overs == 0, figures.problems
    assert len(figures.take_overs) == 2
    assert figures.rounds > 0 and figures.lost == 0, figures.problems
    assert figures.open_with_right_answer == 0
    assert whole.score_mismatches == 0, whole.problems
    assert whole.foreign_keys >= 10 and whole.orphans == 0 and whole.unvalidated == 0
    # a kill between a result's send and its mark may send it again: once per chat killed
    assert figures.announced_twice <= 3, figures.problems
    assert figures.double_replies == 0
    assert (figures.rows_after, figures.calls_after) == (0, 0)


def health(replica: Replica) -> str:
    done = subprocess.run([sys.executable, "-m", "bot.runtime.health"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **replica.env})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.slow
async def test_a_frozen_leader_is_replaced_and_woken_exits_3_having_done_nothing(
        telegram, replicas, url):
    first, second = replicas
    await first.start()
    await second.stand_by()
    assert health(first) == f"healthy ({LEADER})" and health(second) == f"healthy ({STANDBY})"
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    assert "Make 24" in (await telegram.reply(GROUP)).text
    assert first.process is not None
    old = first.process.pid
    assert any(r.pid == old for r in telegram.journal)  # the journal knows its requests
    connection = await asyncpg.connect(url)
    try:
        await until(lambda: connection.fetchval(  # else the new leader deals again
            "SELECT message_id IS NOT NULL FROM rounds WHERE status = 'open'"),
            "the deal's message id stored")
        first.signal(signal.SIGSTOP)  # frozen: its kernel still answers keepalives
        await second.until_role(LEADER, timeout=20)  # within the lease (4 s) and a try
        await telegram.say(GROUP, ANN, "/play")  # the round dealt before goes on
        assert "A round of 24 is on" in (await telegram.reply(GROUP, timeout=30)).text
        # frozen, it sends nothing: what it sent had reached the emulator long before this
        sent_frozen = [r for r in telegram.journal if r.pid == old]
        first.signal(signal.SIGCONT)
        assert await asyncio.wait_for(first.process.wait(), 30) == LOST_LEAD
        log = await settled_log(first.log)
        assert log.count("lost the lead") == 1 and "Traceback" not in log, log
        assert "leaked" not in log, log  # its solver pool stopped before the exit
        assert [r for r in telegram.journal if r.pid == old] == sent_frozen  # woken: nothing
        assert await after_the_lease(connection, telegram) == (0, 0, 0)
        epochs = await connection.fetchval(
            "SELECT COUNT(DISTINCT lease_epoch) FROM bench_journal WHERE tbl = 'leader_lease'")
    finally:
        await connection.close()
    assert epochs == 2
    assert health(second) == f"healthy ({LEADER})"


@pytest.mark.slow
async def test_a_leader_whose_sessions_are_dropped_reconnects_and_keeps_the_lead(
        telegram, replicas, url):
    first, second = replicas
    await first.start()
    await second.stand_by()
    connection = await asyncpg.connect(url)
    try:
        epoch = await connection.fetchval("SELECT epoch FROM leader_lease")
        assert await terminate(connection, first) >= 2  # its pool's and its lease's
        for _ in range(3):  # past the lease's end three times, by the database's clock
            end = await connection.fetchval("SELECT expires_at FROM leader_lease")
            await until(lambda end=end: connection.fetchval("SELECT now() > $1", end),
                        "the database's clock past the lease's end")
        assert await connection.fetchval(  # renewed on new sessions all along
            "SELECT epoch FROM leader_lease WHERE expires_at > now()") == epoch
    finally:
        await connection.close()
    assert first.running() and first.role() == LEADER and second.role() == STANDBY
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    assert "Make 24" in (await telegram.reply(GROUP, timeout=30)).text


async def leader_status(port: int) -> int:
    """GET /leader: 200 where updates are taken, 503 on a standby."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /{LEADER_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 "Connection: close\r\n\r\n".encode())
    await writer.drain()
    try:
        response = await asyncio.wait_for(reader.read(65536), 10)
    finally:
        writer.close()
    return int(response.split(b" ", 2)[1])


@pytest.mark.slow
async def test_a_standby_webhook_answers_503_until_it_takes_over(telegram, replicas):
    ports = [free_port(), free_port()]
    for replica, port in zip(replicas, ports, strict=True):
        replica.env.update(WEBHOOK_URL=f"https://bot.example/{WEBHOOK_PATH}",
                           WEBHOOK_PORT=str(port), WEBHOOK_SECRET=SECRET)
    first, second = replicas
    await first.spawn()
    await first.until_role(LEADER)
    assert await telegram.wait_for(lambda: bool(telegram.webhook), 60), first.log.read_text()
    await second.stand_by()
    assert [await leader_status(port) for port in ports] == [200, 503]
    telegram.chat(GROUP)
    message = await telegram.say(GROUP, ANN, "/solve 3 8 3 8")
    body = json.dumps({"update_id": 1, "message": message}).encode()
    status, response = await post(ports[1], update_headers(body, SECRET), body)
    assert status == 503 and b"Retry-After" in response
    assert (await post(ports[0], update_headers(body, SECRET), body))[0] == 200
    assert (await telegram.reply(GROUP)).formulas == [r"\frac{8}{3 - \frac{8}{3}} = 24"]
    telegram.webhook = {}
    await first.kill()
    await second.until_role(LEADER)
    assert await telegram.wait_for(lambda: bool(telegram.webhook), 60)  # registered again
    assert telegram.webhook["secret_token"] == SECRET
    assert await leader_status(ports[1]) == 200
    body = json.dumps({"update_id": 2, "message": message}).encode()
    assert (await post(ports[1], {**update_headers(body), SECRET_HEADER: SECRET}, body))[0] == 200
    assert (await telegram.reply(GROUP)).formulas == [r"\frac{8}{3 - \frac{8}{3}} = 24"]


@pytest.mark.slow
async def test_sigterm_stops_a_waiting_standby_and_the_leader_cleanly(replicas):
    first, second = replicas
    await first.start()
    await second.stand_by()
    for replica in (second, first):
        assert replica.process is not None
        replica.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(replica.process.wait(), 20) == 0
        log = replica.log.read_text()
        assert "Traceback" not in log and "was destroyed but it is pending" not in log, log
