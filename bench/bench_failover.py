"""Failover trials: two bot processes (`python -m bot`) on one PostgreSQL and the Bot API emulator
on 127.0.0.1, groups playing; the leader is killed with SIGKILL at random instants and the
standby takes over.

Each trial has players in several group chats play rounds of 24 as in bench/bench_crash.py. At
a random instant the leader gets SIGKILL and a probe (/help in a private chat) is sent at once:
the time from the kill to the new leader's reply to it is the take-over time (the standby's
tries, the resume a restart runs, then its first updates). The killed process is started again
and stands by; the rounds are let end. Then: rounds lost (ended but never announced, or left
open), results announced twice, replies sent twice, the scores table against the recomputation
from rounds and answers (tests/bot/scoring.py), and every foreign key of the schema checked row
by row (no row names a missing one).

`python bench/bench_failover.py [--trials 20] [--chats 4] [--seed 1] [--database-url URL]`:
without a URL it starts a server of its own (tests/postgres/server.py). tests/e2e runs a small
version. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bench.bench_crash import (  # noqa: E402
    ENDED_ROUNDS,
    ROUND_SECONDS,
    CountingEmulator,
    Figures,
    check_results,
    play,
)
from bot.demo.emulator import BotApiEmulator  # noqa: E402
from bot.runtime.health import LEADER, STANDBY, heartbeat_path, heartbeat_role  # noqa: E402
from tests.bot.scoring import (  # noqa: E402
    ANSWERS_SQL,
    ROUNDS_SQL,
    SCORES_SQL,
    expected_scores,
    read_rows,
    stored_scores,
)
from tests.conftest import ROOT as REPOSITORY  # noqa: E402
from tests.e2e.conftest import BotProcess  # noqa: E402
from tests.postgres.server import PostgresServer  # noqa: E402

PROBE = {"id": 990, "is_bot": False, "first_name": "Probe"}
PROBE_CHAT = 990  # a private chat: the probe's own
TAKE_OVER_LIMIT = 60.0  # seconds a take-over may take before the trial counts it as failed
FOREIGN_KEYS = """
    SELECT c.conrelid::regclass::text, c.confrelid::regclass::text,
           ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(number, position)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.number
                 ORDER BY k.position),
           ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(number, position)
                 JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.number
                 ORDER BY k.position)
    FROM pg_constraint c WHERE c.contype = 'f' ORDER BY 1, 2"""


@dataclass
class FailoverFigures(Figures):
    """The crash trials' figures, and the take-overs'."""

    take_overs: list[float] = field(default_factory=list)  # seconds, kill -> probe answered
    failed_take_overs: int = 0
    foreign_keys: int = 0  # foreign keys checked
    orphans: int = 0  # rows naming a missing row
    unvalidated: int = 0  # constraints not validated

    @property
    def lost(self) -> int:
        return self.announced_never + self.still_open


class Replica(BotProcess):
    """One of the bot processes on the shared database. DATABASE_PATH only places its heartbeat
    (and its log): with DATABASE_URL set, the data is PostgreSQL's."""

    def __init__(self, emulator: BotApiEmulator, folder: Path, name: str, url: str,
                 round_seconds: float) -> None:
        super().__init__(emulator, folder / f"{name}.sqlite3", round_seconds)
        self.name = name
        self.env.update(DATABASE_URL=url)
        self.heartbeat = heartbeat_path(folder / f"{name}.sqlite3")

    def role(self) -> str | None:
        return heartbeat_role(self.heartbeat)

    async def spawn(self) -> None:
        self.heartbeat.unlink(missing_ok=True)  # a beat from its last life says nothing now
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=REPOSITORY, env=self.env,
                stdout=log, stderr=log, stdin=asyncio.subprocess.DEVNULL)

    async def until_role(self, role: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.role() == role:
                return
            assert self.process is not None
            if self.process.returncode is not None:
                raise AssertionError(f"{self.name} exited:\n{self.log.read_text()}")
            await asyncio.sleep(0.05)
        raise AssertionError(f"{self.name} is not {role} after {timeout:.0f} s:\n"
                             f"{self.log.read_text()}")

    async def stand_by(self) -> None:
        await self.spawn()
        await self.until_role(STANDBY)


async def probe_answered(emulator: CountingEmulator, since: int, timeout: float) -> float | None:
    """When (perf_counter) the bot first wrote to the probe's chat after `sent[since]`."""
    def found() -> float | None:
        return next((s.at for s in emulator.sent[since:] if s.chat_id == PROBE_CHAT), None)

    await emulator.wait_for(lambda: found() is not None, timeout)
    return found()


async def settle(emulator: CountingEmulator, connection: asyncpg.Connection,
                 timeout: float = 60.0) -> None:
    """Until every round has ended and the bot has sent nothing for a second."""
    deadline = time.monotonic() + timeout
    quiet_since, count = time.monotonic(), -1
    while time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        if len(emulator.sent) != count:
            quiet_since, count = time.monotonic(), len(emulator.sent)
        still = await connection.fetchval("SELECT COUNT(*) FROM rounds WHERE status = 'open'")
        if not still and time.monotonic() - quiet_since > 1.0:
            return


async def score_mismatches(connection: asyncpg.Connection) -> list[str]:
    """Where the scores table differs from the recomputation from rounds and answers."""
    rounds, answers = read_rows(await connection.fetch(ROUNDS_SQL),
                                await connection.fetch(ANSWERS_SQL))
    expected = expected_scores(rounds, answers)
    stored = stored_scores(await connection.fetch(SCORES_SQL))
    return [f"{key}: stored {stored.get(key)}, expected {expected.get(key)}"
            for key in sorted(set(expected) | set(stored), key=repr)
            if stored.get(key) != expected.get(key)]


async def check_foreign_keys(connection: asyncpg.Connection, figures: FailoverFigures) -> None:
    """Every foreign key of the schema, row by row: no row names a missing one."""
    for child, parent, columns, targets in await connection.fetch(FOREIGN_KEYS):
        named = " AND ".join(f"c.{c} IS NOT NULL" for c in columns)
        match = " AND ".join(f"p.{t} = c.{c}" for c, t in zip(columns, targets, strict=True))
        orphans = await connection.fetchval(
            f"SELECT COUNT(*) FROM {child} c WHERE {named} AND NOT EXISTS "
            f"(SELECT 1 FROM {parent} p WHERE {match})")
        figures.foreign_keys += 1
        figures.orphans += orphans
        if orphans:
            figures.problems.append(f"{orphans} rows of {child}{columns} name no {parent}")
    figures.unvalidated += await connection.fetchval(
        "SELECT COUNT(*) FROM pg_constraint WHERE NOT convalidated")


async def check(connection: asyncpg.Connection, emulator: CountingEmulator, chats: list[int],
                figures: FailoverFigures) -> None:
    """Once the trials are over: the database, and every chat's messages against it."""
    mismatches = await score_mismatches(connection)
    figures.score_mismatches += len(mismatches)
    figures.problems += mismatches
    await check_foreign_keys(connection, figures)
    figures.open_with_right_answer += await connection.fetchval(
        "SELECT COUNT(*) FROM rounds r WHERE status = 'open' AND EXISTS "
        "(SELECT 1 FROM answers a WHERE a.round_id = r.id AND a.correct = 1)")
    figures.still_open += await connection.fetchval(
        "SELECT COUNT(*) FROM rounds WHERE status = 'open'")
    for chat in chats:
        rounds = [tuple(row) for row in await connection.fetch(ENDED_ROUNDS.format(chat=chat))]
        check_results(rounds, emulator, chat, figures)
    replies: dict[tuple[int, int], int] = {}
    for sent in emulator.sent:
        if sent.chat_id in chats and sent.reply_to is not None:
            key = (sent.chat_id, sent.reply_to)
            replies[key] = replies.get(key, 0) + 1
    figures.double_replies += sum(n - 1 for n in replies.values() if n > 1)
    figures.redelivered += sum(n > 1 for n in emulator.deliveries.values())


async def take_over(emulator: CountingEmulator, leader: Replica, standby: Replica,
                    figures: FailoverFigures) -> None:
    """Kill the leader, time the standby's take-over, start the killed one as the standby."""
    mark = len(emulator.sent)
    killed = time.perf_counter()
    await leader.kill()
    await emulator.say(PROBE_CHAT, PROBE, "/help", kind="private")
    answered = await probe_answered(emulator, mark, TAKE_OVER_LIMIT)
    if answered is None:
        figures.failed_take_overs += 1
        figures.problems.append(f"{standby.name} did not take over:\n{standby.log.read_text()}")
    else:
        figures.take_overs.append(answered - killed)
        await standby.until_role(LEADER)
    await leader.stand_by()


async def failover_trials(trials: int, seed: int, folder: Path, url: str,
                          chats_per_trial: int = 4,
                          figures: FailoverFigures | None = None) -> FailoverFigures:
    """`trials` kills of the leader among two processes on the database at `url` (empty)."""
    figures = figures or FailoverFigures()
    rng = random.Random(seed)
    emulator = CountingEmulator()
    await emulator.start()
    emulator.chat(PROBE_CHAT, "private")
    replicas = [Replica(emulator, folder, name, url, ROUND_SECONDS) for name in ("a", "b")]
    all_chats: list[int] = []
    async with AsyncExitStack() as stack:
        stack.push_async_callback(emulator.stop)
        for replica in replicas:
            stack.push_async_callback(replica.stop)
        connection = await asyncpg.connect(url)
        stack.push_async_callback(connection.close)
        leader, standby = replicas
        await leader.start()  # the first process on the database leads at once
        await standby.stand_by()
        for trial in range(trials):
            chats = [-900_000 - trial * 100 - i for i in range(chats_per_trial)]
            all_chats += chats
            for chat in chats:
                emulator.chat(chat)
            players = [asyncio.create_task(play(emulator, chat, random.Random(rng.random())))
                       for chat in chats]
            await asyncio.sleep(rng.uniform(0.2, 5.0))
            await take_over(emulator, leader, standby, figures)
            leader, standby = standby, leader
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            await settle(emulator, connection)
            figures.trials += 1
        await check(connection, emulator, all_chats, figures)
    return figures


def table(figures: FailoverFigures) -> str:
    times = sorted(figures.take_overs)
    median = f"{statistics.median(times):.2f} s" if times else "-"
    worst = f"{times[-1]:.2f} s" if times else "-"
    twice = figures.announced_twice
    rows = [
        ("kill -9 of the leader (trials)", figures.trials),
        ("take-overs: kill -> first reply, median / max", f"{median} / {worst}"),
        ("take-overs that failed", figures.failed_take_overs),
        ("rounds ended (won)", f"{figures.rounds} ({figures.won})"),
        ("rounds lost (never announced / left open)",
         f"{figures.lost} ({figures.announced_never} / {figures.still_open})"),
        ("results announced twice", f"{twice} of {figures.rounds}"
         + (f" (1 in {figures.rounds / twice:.0f})" if twice else "")),
        ("results sent by the new leader's resume", figures.late_results),
        ("rounds left open with a right answer", figures.open_with_right_answer),
        ("updates delivered again / replies sent twice",
         f"{figures.redelivered} / {figures.double_replies}"),
        ("scores differing from the recomputation", figures.score_mismatches),
        ("foreign keys checked: orphan rows / unvalidated",
         f"{figures.foreign_keys}: {figures.orphans} / {figures.unvalidated}"),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"| {'measure':<{width}} | value |", f"| {'-' * width} | --- |"]
    lines += [f"| {name:<{width}} | {value} |" for name, value in rows]
    return "\n".join(lines)


async def main(trials: int, chats: int, seed: int, url: str | None) -> FailoverFigures:
    with tempfile.TemporaryDirectory() as folder:
        if url is not None:
            return await failover_trials(trials, seed, Path(folder), url, chats)
        with PostgresServer() as server:
            admin = await asyncpg.connect(server.url())
            await admin.execute("CREATE DATABASE failover")
            await admin.close()
            return await failover_trials(trials, seed, Path(folder), server.url("failover"),
                                         chats)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--chats", type=int, default=4, help="group chats playing per trial")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=os.environ.get("FAILOVER_DATABASE_URL"),
                        help="an empty PostgreSQL database (default: a server of its own)")
    arguments = parser.parse_args()
    result = asyncio.run(main(arguments.trials, arguments.chats, arguments.seed,
                              arguments.database_url))
    print(table(result))
    for problem in result.problems[:20]:
        print("  ", problem)
