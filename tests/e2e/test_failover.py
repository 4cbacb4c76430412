"""Two `python -m bot` processes on one real PostgreSQL: a small run of bench/bench_failover.py
(the leader killed with SIGKILL, the standby taking over), a leader whose connection is cut
stopping itself, the health check naming each one's role, a standby's webhook answering 503
until it takes over, and SIGTERM ending a standby as cleanly as a leader."""

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

from bench.bench_failover import FailoverFigures, Replica, failover_trials
from bot.__main__ import LOST_LEAD
from bot.demo.emulator import BotApiEmulator
from bot.runtime.health import LEADER, STANDBY
from bot.store.postgres.connection import LEADER_LOCK
from bot.telegram.webhook import LEADER_PATH, SECRET_HEADER, WEBHOOK_PATH
from tests.conftest import ROOT
from tests.e2e.test_bot_process import ANN, GROUP
from tests.e2e.test_webhook import free_port, post, update_headers
from tests.postgres import PostgresServer, new_database
from tests.postgres import postgres_server as postgres_server

SECRET = "shared_by_both_replicas"


@pytest.fixture
async def url(postgres_server: PostgresServer) -> str:
    return await new_database(postgres_server)


@pytest.fixture
async def replicas(telegram: BotApiEmulator, tmp_path: Path, url: str):
    """Two bot processes on the database, not started; stopped at the end."""
    made = [Replica(telegram, tmp_path, name, url, 60.0) for name in ("a", "b")]
    yield made
    for replica in made:
        await replica.stop()


@pytest.mark.slow
async def test_failover_trials_lose_nothing(tmp_path, url):
    figures = await failover_trials(2, seed=5, folder=tmp_path, url=url, chats_per_trial=3,
                                    figures=FailoverFigures())
    assert figures.trials == 2 and figures.failed_take_overs == 0, figures.problems
    assert len(figures.take_overs) == 2
    assert figures.rounds > 0 and figures.lost == 0, figures.problems
    assert figures.open_with_right_answer == 0
    assert figures.score_mismatches == 0, figures.problems
    assert figures.foreign_keys >= 10 and figures.orphans == 0 and figures.unvalidated == 0
    # a kill between a result's send and its mark may send it again: once per chat killed
    assert figures.announced_twice <= 3, figures.problems
    assert figures.double_replies == 0


async def cut_the_leader(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        return len(await connection.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE granted AND locktype = "
            "'advisory' AND (classid, objid, objsubid) = ($1, $2, 2)", *LEADER_LOCK))
    finally:
        await connection.close()


def health(replica: Replica) -> str:
    done = subprocess.run([sys.executable, "-m", "bot.runtime.health"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **replica.env})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.slow
async def test_a_cut_leader_stops_and_the_standby_takes_over(telegram, replicas, url):
    first, second = replicas
    await first.start()
    await second.stand_by()
    assert health(first) == f"healthy ({LEADER})" and health(second) == f"healthy ({STANDBY})"
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    assert "Make 24" in deal.text
    assert await cut_the_leader(url) == 1
    assert first.process is not None
    assert await asyncio.wait_for(first.process.wait(), 30) == LOST_LEAD
    await second.until_role(LEADER)
    await telegram.say(GROUP, ANN, "/play")  # the round dealt before goes on
    again = await telegram.reply(GROUP, timeout=30)
    assert "A round of 24 is on" in again.text
    assert health(second) == f"healthy ({LEADER})"


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
    assert "8÷(3−8÷3) = 24" in (await telegram.reply(GROUP)).text
    telegram.webhook = {}
    await first.kill()
    await second.until_role(LEADER)
    assert await telegram.wait_for(lambda: bool(telegram.webhook), 60)  # registered again
    assert telegram.webhook["secret_token"] == SECRET
    assert await leader_status(ports[1]) == 200
    body = json.dumps({"update_id": 2, "message": message}).encode()
    assert (await post(ports[1], {**update_headers(body), SECRET_HEADER: SECRET}, body))[0] == 200
    assert "8÷(3−8÷3) = 24" in (await telegram.reply(GROUP)).text


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
