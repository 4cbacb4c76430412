"""Failover trials: two bot processes (`python -m bot`) on one PostgreSQL and the Bot API emulator
on 127.0.0.1, groups playing, and a fault at a random instant:

- `kill`: SIGKILL of the leader;
- `freeze`: SIGSTOP of the leader for FREEZE_SECONDS (30 s), then SIGCONT;
- `freeze-drop`: SIGSTOP, the server ends the leader's sessions (pg_terminate_backend), and
  SIGCONT once the standby leads;
- `restart`: PostgreSQL restarted (fast shutdown, start on the same data; only with the
  bench's own server);
- `cut`: the leader's connections to PostgreSQL go silent (each process reaches the server
  through a proxy of the bench's, which stops forwarding and holds the sockets open).

A probe (/play in a private chat, again every half second until answered) is sent at the fault: the
time from the fault to a deal or "a round is on" in reply is the take-over time. A process that
exited (killed, or exiting 3 after its lease ended) is started again as the standby; the rounds
are let end. Per fault: rounds lost (ended but
never announced, or left open), results announced twice, replies sent twice, and the actions of
a leader after its lease ended, counted from the database's and the emulator's own journals:
rows written (an AFTER trigger the bench puts on every table records each row with the
writer's epoch, and each change of the lease row with its end), and Bot API calls and polls
(the emulator journals each request with the process named in its User-Agent); the lease of
an epoch ends at the last end its row was given. Then the scores table against the
recomputation from rounds and answers (tests/bot/scoring.py) and every foreign key.

`python bench/bench_failover.py [--quick] [--trials 2] [--faults kill,freeze,...] [--chats 3]
[--seed 1] [--database-url URL]`: without a URL it starts a server of its own
(tests/postgres/server.py); `--quick` is one trial of each fault, a 10 s freeze and two chats.
tests/e2e runs a small version. Loopback only; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
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
from bot.runtime.health import LEADER, STANDBY, heartbeat_path, heartbeat_role  # noqa: E402
from bot.store.postgres import open_postgres  # noqa: E402
from demo.emulator import BotApiEmulator  # noqa: E402
from demo.freezing import freeze  # noqa: E402
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
PROBE_EVERY = 0.5  # seconds between probes while none is answered
TAKE_OVER_LIMIT = 60.0  # seconds a take-over may take before the trial counts it as failed
FREEZE_SECONDS = 30.0
LOST_LEAD = 3  # the exit status of a leader whose lease ended (bot/__main__.py)
Probe = asyncio.Future  # of when (perf_counter) a probe was answered, or None
FAULTS = ("kill", "freeze", "freeze-drop", "restart", "cut")
FOREIGN_KEYS = """
    SELECT c.conrelid::regclass::text, c.confrelid::regclass::text,
           ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k(number, position)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.number
                 ORDER BY k.position),
           ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k(number, position)
                 JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.number
                 ORDER BY k.position)
    FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid::regclass::text <> 'bench_journal'
    ORDER BY 1, 2"""
# The database's own record of every row written and of the lease's ends: AFTER triggers
# (they see committed work only: a refused write rolls its journal row back with it).
JOURNAL = """
    CREATE TABLE bench_journal (
        at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
        tbl TEXT NOT NULL,
        op TEXT NOT NULL,
        epoch TEXT,
        lease_epoch BIGINT,
        lease_holder TEXT,
        lease_end TIMESTAMPTZ
    );
    CREATE FUNCTION bench_journal() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_TABLE_NAME = 'leader_lease' THEN
            INSERT INTO bench_journal (tbl, op, lease_epoch, lease_holder, lease_end)
            VALUES (TG_TABLE_NAME, TG_OP, NEW.epoch, NEW.holder, NEW.expires_at);
        ELSE
            INSERT INTO bench_journal (tbl, op, epoch)
            VALUES (TG_TABLE_NAME, TG_OP, current_setting('twentyfour.epoch', true));
        END IF;
        RETURN NULL;
    END $$;
    DO $$
    DECLARE
        name TEXT;
    BEGIN
        FOR name IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema()
                AND tablename NOT IN ('schema_migrations', 'bench_journal') LOOP
            EXECUTE format('CREATE TRIGGER bench_journal AFTER INSERT OR UPDATE OR DELETE '
                           'ON %I FOR EACH ROW EXECUTE FUNCTION bench_journal()', name);
        END LOOP;
    END $$;"""
# Each epoch's holder and the end its lease row last had (wall-clock seconds).
LEASE_ENDS = """
    SELECT DISTINCT ON (lease_epoch) lease_epoch, lease_holder,
           EXTRACT(EPOCH FROM lease_end)::float8
    FROM bench_journal WHERE tbl = 'leader_lease' ORDER BY lease_epoch, at DESC"""
ROWS_AFTER = """
    WITH ends AS (SELECT DISTINCT ON (lease_epoch) lease_epoch, lease_end FROM bench_journal
                  WHERE tbl = 'leader_lease' ORDER BY lease_epoch, at DESC)
    SELECT COUNT(*) FROM bench_journal j JOIN ends e ON j.epoch = e.lease_epoch::text
    WHERE j.tbl <> 'leader_lease' AND j.at > e.lease_end"""


@dataclass
class FailoverFigures(Figures):
    """The crash trials' figures, and the take-overs' and the fences'."""

    take_overs: list[float] = field(default_factory=list)  # seconds, fault -> probe answered
    failed_take_overs: int = 0
    foreign_keys: int = 0  # foreign keys checked
    orphans: int = 0  # rows naming a missing row
    unvalidated: int = 0  # constraints not validated
    exits: list[int | None] = field(default_factory=list)  # the old leaders' exit statuses
    rows_after: int = 0  # rows written by an epoch after its lease ended (database journal)
    calls_after: int = 0  # Bot API requests by a process after its lease ended (emulator)
    polls_after: int = 0  # of which getUpdates

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

    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def spawn(self) -> None:
        self.heartbeat.unlink(missing_ok=True)  # a beat from its last life says nothing now
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=REPOSITORY, env=self.env,
                stdout=log, stderr=log, stdin=asyncio.subprocess.DEVNULL)

    def signal(self, number: int) -> None:
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            if number == signal.SIGSTOP:
                freeze(self.process.pid)  # in force when this returns
            else:
                self.process.send_signal(number)

    async def stop(self) -> None:
        if self.running():
            self.signal(signal.SIGCONT)  # a frozen process hears no SIGTERM
        await super().stop()

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


class Proxy:
    """A TCP forwarder from a port of 127.0.0.1 to PostgreSQL's, for one process: `cut` makes
    its connections silent (nothing forwarded, sockets held open, as a dropped network does),
    `heal` lets new connections through again."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.silent = False
        self.port = 0
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def cut(self) -> None:
        self.silent = True

    def heal(self) -> None:
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()
        self.silent = False

    async def close(self) -> None:
        self.heal()
        if self.server is not None:
            self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self.writers.add(up_writer)
        pipes = {asyncio.ensure_future(self._pipe(reader, up_writer)),
                 asyncio.ensure_future(self._pipe(up_reader, writer))}
        await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)  # one end closed
        for pipe in pipes:
            pipe.cancel()
        await asyncio.gather(*pipes, return_exceptions=True)
        for end in (writer, up_writer):
            end.transport.abort()
            self.writers.discard(end)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            if self.silent:
                continue  # swallowed, as by a dead link
            writer.write(data)
            await writer.drain()


async def probe_answered(emulator: CountingEmulator, since: int, timeout: float) -> float | None:
    """When (perf_counter) the bot first answered a probe's /play after `sent[since]` with a
    deal or "a round is on": both need the database (a "database busy" notice does not count;
    a leader cut from its database says that while its lease runs, and /help is answered
    without the database). A new probe goes every PROBE_EVERY seconds: one older than a round
    is stale by the time a new leader reads it, and is rightly not answered."""
    def found() -> float | None:
        return next((s.at for s in emulator.sent[since:] if s.chat_id == PROBE_CHAT
                     and ("Make 24" in s.text or "round of 24 is on" in s.text)), None)

    deadline = time.monotonic() + timeout
    while found() is None and time.monotonic() < deadline:
        await emulator.say(PROBE_CHAT, PROBE, "/play", kind="private")
        await emulator.wait_for(lambda: found() is not None, PROBE_EVERY)
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
        try:
            still = await connection.fetchval("SELECT COUNT(*) FROM rounds WHERE status = "
                                              "'open'")
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
            continue
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


async def check_whole(connection: asyncpg.Connection, figures: FailoverFigures) -> None:
    """Once the trials are over: the database as a whole."""
    mismatches = await score_mismatches(connection)
    figures.score_mismatches += len(mismatches)
    figures.problems += mismatches
    await check_foreign_keys(connection, figures)


async def check(connection: asyncpg.Connection, emulator: CountingEmulator, chats: list[int],
                figures: FailoverFigures) -> None:
    """One fault's chats: their rounds against what the chats were told."""
    listed = ",".join(str(chat) for chat in chats) or "0"
    figures.open_with_right_answer += await connection.fetchval(
        f"SELECT COUNT(*) FROM rounds r WHERE status = 'open' AND chat_id IN ({listed}) AND "
        "EXISTS (SELECT 1 FROM answers a WHERE a.round_id = r.id AND a.correct = 1)")
    figures.still_open += await connection.fetchval(
        f"SELECT COUNT(*) FROM rounds WHERE status = 'open' AND chat_id IN ({listed})")
    for chat in chats:
        rounds = [tuple(row) for row in await connection.fetch(ENDED_ROUNDS.format(chat=chat))]
        check_results(rounds, emulator, chat, figures)
    replies: dict[tuple[int, int], int] = {}
    for sent in emulator.sent:
        if sent.chat_id in chats and sent.reply_to is not None:
            key = (sent.chat_id, sent.reply_to)
            replies[key] = replies.get(key, 0) + 1
    figures.double_replies += sum(n - 1 for n in replies.values() if n > 1)


async def after_the_lease(connection: asyncpg.Connection,
                          emulator: BotApiEmulator) -> tuple[int, int, int]:
    """Rows written, Bot API requests and getUpdates by a leader after its lease ended, from
    the database's journal and the emulator's."""
    rows = int(await connection.fetchval(ROWS_AFTER))
    ended: dict[int, float] = {}
    for _epoch, holder, end in await connection.fetch(LEASE_ENDS):
        pid = holder.split("@", 1)[0]
        if pid.isdigit():
            ended[int(pid)] = max(ended.get(int(pid), 0.0), end)
    late = [r for r in emulator.journal if r.pid in ended and r.at > ended[r.pid]]
    return rows, len(late), sum(r.method.lower() == "getupdates" for r in late)


@dataclass
class Bench:
    """What the faults act on."""

    emulator: CountingEmulator
    connection: asyncpg.Connection
    database: str
    proxies: dict[str, Proxy]
    server: PostgresServer | None
    freeze_seconds: float
    exits: list[int | None] = field(default_factory=list)


async def terminate(connection: asyncpg.Connection, replica: Replica) -> int:
    """End every session of the replica's process from the server's side."""
    assert replica.process is not None
    return len(await connection.fetch(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name "
        "LIKE $1", f"twentyfour/{replica.process.pid}%"))


async def exited(replica: Replica, timeout: float = 30.0) -> int | None:
    assert replica.process is not None
    try:
        return await asyncio.wait_for(replica.process.wait(), timeout)
    except TimeoutError:
        return None


async def fault_kill(bench: Bench, leader: Replica, begin: Callable[[], Probe]) -> None:
    await leader.kill()
    await begin()


async def fault_freeze(bench: Bench, leader: Replica, begin: Callable[[], Probe],
                       drop: bool = False) -> None:
    """SIGSTOP (and the sessions dropped), the standby takes over, SIGCONT at the end of the
    freeze: the old leader must exit 3 having done nothing."""
    frozen = time.monotonic()
    leader.signal(signal.SIGSTOP)
    answered = begin()
    if drop:
        await terminate(bench.connection, leader)
    await answered
    await asyncio.sleep(max(0.0, bench.freeze_seconds - (time.monotonic() - frozen)))
    leader.signal(signal.SIGCONT)
    bench.exits.append(await exited(leader))


async def fault_restart(bench: Bench, leader: Replica, begin: Callable[[], Probe]) -> None:
    """The server stops (fast shutdown) and starts again at once: from its stop to a reply."""
    assert bench.server is not None, "a restart needs the bench's own server"
    await asyncio.to_thread(bench.server.halt)
    answered = begin()
    await asyncio.to_thread(bench.server.restart)
    await answered


async def fault_cut(bench: Bench, leader: Replica, begin: Callable[[], Probe]) -> None:
    """The leader's link to the database goes silent: it must stop by itself within its
    lease, and the standby take over."""
    bench.proxies[leader.name].cut()
    await begin()
    bench.exits.append(await exited(leader))
    bench.proxies[leader.name].heal()


async def reconnect(bench: Bench) -> None:
    """The bench's own connection, after a server restart."""
    with contextlib.suppress(Exception):
        await bench.connection.close()
    for _ in range(100):
        try:
            bench.connection = await asyncpg.connect(bench.database)
            return
        except (OSError, asyncpg.PostgresError):
            await asyncio.sleep(0.2)


FAULT_ACTIONS: dict[str, Callable[..., Awaitable[None]]] = {
    "kill": fault_kill, "freeze": fault_freeze,
    "freeze-drop": lambda *a: fault_freeze(*a, drop=True), "restart": fault_restart,
    "cut": fault_cut}


async def trial(bench: Bench, fault: str, replicas: list[Replica],
                figures: FailoverFigures) -> None:
    """One fault at the leader (or the server); the take-over timed by the probes from the
    fault's instant; whoever exited is started again as the standby."""
    leader = next(r for r in replicas if r.running() and r.role() == LEADER)
    standby = next(r for r in replicas if r is not leader)
    emulator = bench.emulator
    started: list[float] = []
    probes: list[Probe] = []

    def begin() -> Probe:
        started.append(time.perf_counter())
        probes.append(asyncio.ensure_future(
            probe_answered(emulator, len(emulator.sent), TAKE_OVER_LIMIT)))
        return probes[0]

    exits = len(bench.exits)
    await asyncio.wait_for(FAULT_ACTIONS[fault](bench, leader, begin),
                           TAKE_OVER_LIMIT + bench.freeze_seconds + 60)
    when = probes[0].result()
    if when is None:
        figures.failed_take_overs += 1
        figures.problems.append(f"no take-over after {fault}:\n{standby.log.read_text()}")
    else:
        figures.take_overs.append(when - started[0])
    figures.exits += bench.exits[exits:]
    if fault == "restart":
        await reconnect(bench)
    for replica in replicas:
        if not replica.running():
            await replica.stand_by()


async def failover_trials(trials: int, seed: int, folder: Path, url: str,
                          chats_per_trial: int = 4, faults: tuple[str, ...] = ("kill",),
                          server: PostgresServer | None = None,
                          freeze_seconds: float = FREEZE_SECONDS,
                          ) -> dict[str, FailoverFigures]:
    """`trials` of each fault among two processes on the database at `url` (empty); the
    figures by fault, and the whole database's under "all"."""
    results = {fault: FailoverFigures() for fault in (*faults, "all")}
    rng = random.Random(seed)
    emulator = CountingEmulator()
    await emulator.start()
    emulator.chat(PROBE_CHAT, "private")
    await (await open_postgres(url)).close()  # migrated before the journal goes on
    async with AsyncExitStack() as stack:
        stack.push_async_callback(emulator.stop)
        connection = await asyncpg.connect(url)
        await connection.execute(JOURNAL)
        bench = Bench(emulator, connection, url, {}, server, freeze_seconds)
        stack.push_async_callback(lambda: bench.connection.close())
        port, database = int(url.rsplit(":", 1)[1].split("/")[0]), url.rsplit("/", 1)[1]
        replicas = []
        for name in ("a", "b"):
            proxy = bench.proxies[name] = Proxy(port)
            await proxy.start()
            stack.push_async_callback(proxy.close)
            replica = Replica(emulator, folder, name, proxy.url(database), ROUND_SECONDS)
            stack.push_async_callback(replica.stop)
            replicas.append(replica)
        await replicas[0].start()  # the first process on the database leads at once
        await replicas[1].stand_by()
        number = 0
        for fault in faults:
            figures = results[fault]
            chats_of_fault: list[int] = []
            for _ in range(trials):
                number += 1
                chats = [-900_000 - number * 100 - i for i in range(chats_per_trial)]
                chats_of_fault += chats
                for chat in chats:
                    emulator.chat(chat)
                players = [asyncio.create_task(play(emulator, chat, random.Random(rng.random())))
                           for chat in chats]
                await asyncio.sleep(rng.uniform(0.5, 5.0))
                before = await after_the_lease(bench.connection, emulator)
                await trial(bench, fault, replicas, figures)
                for task in players:
                    task.cancel()
                await asyncio.gather(*players, return_exceptions=True)
                await settle(emulator, bench.connection)
                after = await after_the_lease(bench.connection, emulator)
                figures.rows_after += after[0] - before[0]
                figures.calls_after += after[1] - before[1]
                figures.polls_after += after[2] - before[2]
                figures.trials += 1
            await check(bench.connection, emulator, chats_of_fault, figures)
        whole = results["all"]
        await check_whole(bench.connection, whole)
        whole.still_open = await bench.connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE status = 'open'")
        whole.redelivered = sum(n > 1 for n in emulator.deliveries.values())
    return results


def seconds(times: list[float]) -> str:
    if not times:
        return "-"
    return f"{statistics.median(times):.2f} / {max(times):.2f} s"


def table(results: dict[str, FailoverFigures]) -> str:
    faults = [fault for fault in results if fault != "all"]
    def twice(f: FailoverFigures) -> str:
        return f"{f.announced_twice} of {f.rounds}"
    rows: list[tuple[str, list[object]]] = [
        ("trials", [results[f].trials for f in faults]),
        ("take-over: fault -> probe answered, median / max",
         [seconds(results[f].take_overs) for f in faults]),
        ("take-overs that failed", [results[f].failed_take_overs for f in faults]),
        ("old leader's exit status", [",".join(map(str, results[f].exits)) or "-"
                                      for f in faults]),
        ("rounds ended (won)", [f"{results[f].rounds} ({results[f].won})" for f in faults]),
        ("rounds lost (never announced / left open)",
         [f"{results[f].lost} ({results[f].announced_never} / {results[f].still_open})"
          for f in faults]),
        ("results announced twice", [twice(results[f]) for f in faults]),
        ("replies sent twice", [results[f].double_replies for f in faults]),
        ("after the lease ended: rows written", [results[f].rows_after for f in faults]),
        ("after the lease ended: Bot API calls (of them polls)",
         [f"{results[f].calls_after} ({results[f].polls_after})" for f in faults]),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"| {'measure':<{width}} | " + " | ".join(faults) + " |",
             f"| {'-' * width} |" + " --- |" * len(faults)]
    lines += [f"| {name:<{width}} | " + " | ".join(str(v) for v in values) + " |"
              for name, values in rows]
    whole = results["all"]
    lines.append(f"whole database: scores differing from the recomputation "
                 f"{whole.score_mismatches}; foreign keys checked {whole.foreign_keys}, orphan "
                 f"rows {whole.orphans}, unvalidated {whole.unvalidated}; rounds left open "
                 f"{whole.still_open}; updates delivered again {whole.redelivered}")
    return "\n".join(lines)


async def main(trials: int, chats: int, seed: int, url: str | None, faults: tuple[str, ...],
               freeze_seconds: float) -> dict[str, FailoverFigures]:
    with tempfile.TemporaryDirectory() as folder:
        if url is not None:
            return await failover_trials(trials, seed, Path(folder), url, chats,
                                         tuple(f for f in faults if f != "restart"),
                                         freeze_seconds=freeze_seconds)
        with PostgresServer() as server:
            admin = await asyncpg.connect(server.url())
            await admin.execute("CREATE DATABASE failover")
            await admin.close()
            return await failover_trials(trials, seed, Path(folder), server.url("failover"),
                                         chats, faults, server, freeze_seconds)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one trial of each fault, a 10 s freeze, two chats")
    parser.add_argument("--trials", type=int, default=3, help="trials of each fault")
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--chats", type=int, default=3, help="group chats playing per trial")
    parser.add_argument("--freeze", type=float, default=FREEZE_SECONDS,
                        help="seconds a frozen leader stays frozen")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=os.environ.get("FAILOVER_DATABASE_URL"),
                        help="an empty PostgreSQL database (default: a server of its own)")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.trials, arguments.freeze, arguments.chats = 1, 10.0, 2
    chosen = tuple(f.strip() for f in arguments.faults.split(",") if f.strip())
    unknown = set(chosen) - set(FAULTS)
    if unknown:
        parser.error(f"unknown faults: {', '.join(sorted(unknown))} (known: {', '.join(FAULTS)})")
    result = asyncio.run(main(arguments.trials, arguments.chats, arguments.seed,
                              arguments.database_url, chosen, arguments.freeze))
    print(table(result))
    for figures in result.values():
        for problem in figures.problems[:10]:
            print("  ", problem)
