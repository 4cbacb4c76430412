"""The cluster against the one process (issues 45 and 57), on this machine: a PostgreSQL server,
a NATS JetStream server, the Bot API emulator, one `python -m bot ingress` and 1, 2 or 3
`python -m bot worker`, every worker owning its share of the partitions; the one process
(`python -m bot`, polling) on the same PostgreSQL server. This process plays Telegram: each
chat's updates are POSTed to the ingress in order, up to MAX_CONNECTIONS at once across chats
(Telegram's default for a webhook), each again until it is answered 200.

(1) Bursts, the one process and the cluster taking turns (both stay up, each on a database of
    its own), so that a change of the machine's speed between minutes — it moves the rates by
    a third here — falls on both alike: updates a second (the median of --bursts) and, from
    each pair of turns, the cluster's against the one process's. Two kinds of burst:
    - *as sent*, as bench/bench_bot_load.py plays it: every chat's /play at once, then its
      three answers (two wrong, then the right one) at once;
    - *in order*: the same, but each chat's answers reach the bot in the order they were sent
      (the two wrong ones first, handled, then the right one). A worker handles a chat's
      updates in order, always; the one process handles a chat's three answers side by side,
      by three people, and a right answer judged before a wrong one closes the round, so the
      wrong one costs nearly nothing: it does less work for the same updates (9.3 statements an
      update against 13.1). In order, both do the same work, and the ratio is the cluster's cost.
    And where the two cores went: the CPU time per update of each process in the in-order
    bursts (the bot or each worker, the ingress, NATS, PostgreSQL, this process's emulator and
    Telegram's side).
(2) A steady load at half of each one's in-order burst rate: new chats at an even pace, each
    played as in a burst; the p50 and p99 of delivery → reply (a /play to its deal, the right
    answer to its result).
(3) Kill and pause trials on three workers (--trials of each, alternating): chats play at a
    steady rate; one worker is SIGKILLed mid-load (then started again: it takes its share
    back), or SIGSTOPped and let go once its partitions were taken over (it must exit, having
    lost its lease). At the signal a probe (/help in a private chat) goes to each of its
    partitions. Printed over the trials (median and slowest): the take-over — the signal to
    the last of its partitions owned by a live worker, and to every probe answered (updates
    flow again in each of its partitions) — and the first message in one of its chats; over
    every chat: results lost, messages sent twice (and of them, how many in the window
    docs/reliability.md states: sent by the victim and again by the next owner), results
    before their deal; and points counted twice (scores against the rounds won).
(4) Rate limiting on (SEND_RATE 30), three workers, the emulator answering 429 past Telegram's
    30 a second: a backlog of /solve and /play in many chats released at once, then a wrong
    answer in each round; every call naming a chat counted (messages, edits, reactions...):
    the most in any sliding second over all workers, the most to one group in any sliding
    minute, and the 429s.
(5) --cores-per-worker C: machines simulated. The one process and each worker in a CPU cgroup
    of its own (bench/cgroups.py: cgroup v1's cpu.cfs_quota_us or v2's cpu.max, whichever the
    machine has; it says which, and refuses where neither can be used), PostgreSQL, NATS, the
    ingress and Telegram's side uncapped; in-order bursts on 1, 2 and 4 workers in turns with
    the capped one process: updates a second, the scaling efficiency rate(N) / (N × rate(1)),
    each tier's CPU an update, and whether the workers and the tier they feed fit the cores.
(6) --cap-postgres S: the shared tier's ceiling checked: PostgreSQL's CPU an update measured
    uncapped, the rate S cores of it carry predicted, then PostgreSQL capped at S and the rate
    measured against the prediction.
(7) --poller-trials N: two polling ingresses, the polling one SIGKILLed N times: the time to
    the other's first getUpdates and to the first reply to an update sent after the kill.
(8) --steady-minutes M: three workers under a steady load for M minutes: leases lost by a live
    worker, take-overs after the start.

`python bench/bench_cluster.py [--chats 100] [--bursts 7] [--trials 20] [--parts turns,limited]
[--cores-per-worker 0.15] [--cap-postgres 0.2] [--poller-trials 10] [--steady-minutes 10]
[--quick]`. Loopback only; every wait is bounded; the servers, processes and cgroups are stopped
and removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bench.bench_bot_load import (  # noqa: E402
    PLAYERS,
    Run,
    answers_for,
    burst,
    chats,
    player,
    sent_to,
)
from bench.bench_bot_load import start as start_single  # noqa: E402
from bench.bench_bot_load import stop as stop_single  # noqa: E402
from bench.cgroups import CapsUnavailable, CpuCaps, cores_here  # noqa: E402
from bot.cluster.partitions import partition_of  # noqa: E402
from bot.runtime.config import INGRESS, REDELIVER_SECONDS, WORKER  # noqa: E402
from bot.store.postgres.partition_owners import owner_pids  # noqa: E402
from bot.telegram.webhook import SECRET_HEADER, WEBHOOK_PATH  # noqa: E402
from demo.broker_server import BrokerServer, free_port  # noqa: E402
from demo.cluster import SECRET, WEBHOOK_URL, role_env  # noqa: E402
from demo.emulator import BotApiEmulator, FloodLimits, Sent  # noqa: E402
from demo.emulator.records import busiest  # noqa: E402
from demo.postgres_server import PostgresServer  # noqa: E402
from demo.roles import CONSUMING, RoleProcess  # noqa: E402

PARTITIONS = 64  # the default (bot/runtime/config.py)
TICK = os.sysconf("SC_CLK_TCK")
MAX_CONNECTIONS = 40  # Telegram's default for a webhook's connections at once
START_SECONDS = 120.0
RETRY_SECONDS = 0.2
LOST_SECONDS = 120.0  # a trial's chat without its result by then has lost it


class Cluster:
    """The emulator, an ingress and `count` workers on one PostgreSQL database and one NATS
    server, Telegram's side of the webhook running (`deliver`)."""

    def __init__(self, folder: Path, database_url: str, nats_url: str, count: int,
                 rate_limit: bool = False, caps: CpuCaps | None = None,
                 cores: float | None = None, pollers: int = 0) -> None:
        self.folder = folder
        self.emulator = BotApiEmulator(flood=FloodLimits() if rate_limit else None)
        self.rate_limit = rate_limit
        self.port = free_port()
        self.database_url, self.nats_url, self.count = database_url, nats_url, count
        self.ingress: RoleProcess | None = None
        self.pollers: list[RoleProcess] = []
        self.polling = pollers  # polling ingresses instead of the webhook's
        self.workers: list[RoleProcess] = []
        self.task: asyncio.Task[None] | None = None
        self.posted = 0
        self.caps, self.cores = caps, cores  # each worker in a CPU cgroup of its own
        self.env: dict[str, str] = {}

    async def start(self) -> Run:
        """Every role started, the workers at once; ready once they share the partitions."""
        await self.emulator.start()
        env = role_env({**os.environ, "LOG_LEVEL": "WARNING", "ROUND_SECONDS": "600"},
                       self.emulator, self.database_url, self.nats_url)
        env["PARTITIONS"] = str(PARTITIONS)  # the roles' default, not the demo's few
        env["REDELIVER_SECONDS"] = f"{REDELIVER_SECONDS:g}"  # the roles' default, not the demo's 2
        env["RATE_LIMIT"] = "on" if self.rate_limit else "off"
        env["NATS_STREAM"] = f"B{self.folder.name.upper()}"  # a stream of its own
        self.env = env
        if self.polling:
            for number in range(self.polling):
                poller = RoleProcess(INGRESS, f"poller-{number}", self.folder,
                                     {**env, "WEBHOOK_PORT": str(free_port()),
                                      "LOG_LEVEL": "INFO"})
                self.pollers.append(poller)
                await poller.spawn()
                await until(lambda p=poller: p.said("poll lease"), poller, "polling or ready")
        else:
            self.ingress = RoleProcess(INGRESS, "ingress", self.folder,
                                       {**env, "WEBHOOK_URL": WEBHOOK_URL,
                                        "WEBHOOK_SECRET": SECRET,
                                        "WEBHOOK_PORT": str(self.port)})
            await self.ingress.spawn()
            await until(lambda: self.emulator.webhook.get("url") == WEBHOOK_URL, self.ingress,
                        "the ingress registering its webhook")
        for number in range(self.count):
            self.workers.append(RoleProcess(WORKER, f"worker-{number}", self.folder,
                                            {**env, "LOG_LEVEL": "INFO"}))
        for worker in self.workers:
            await self.spawn(worker)
        for worker in self.workers:
            await until(lambda w=worker: w.said(CONSUMING), worker, "consuming")
        await self.shared(self.workers)
        if not self.polling:
            self.task = asyncio.create_task(self.deliver())
        first = self.workers[0]
        assert first.process is not None
        return Run(self.emulator, first.process,
                   [self.emulator.user(100 + i, f"P{i}") for i in range(PLAYERS)])

    async def spawn(self, worker: RoleProcess) -> None:
        """Start the worker, into its CPU cgroup at once (before it starts its solver pool,
        whose processes then inherit the group) when the workers are capped."""
        await worker.spawn()
        if self.caps is not None and self.cores is not None and worker.pid is not None:
            self.caps.cap(worker.name, self.cores, worker.pid)

    def processes(self, broker: BrokerServer) -> dict[str, int | None]:
        """The cluster's processes whose CPU time is counted, by name."""
        found: dict[str, int | None] = {f"worker {n + 1}": w.pid
                                        for n, w in enumerate(self.workers)}
        found.update({"ingress": self.ingress.pid if self.ingress else None,
                      "NATS": broker.process.pid if broker.process else None})
        for number, poller in enumerate(self.pollers):
            found[f"poller {number + 1}"] = poller.pid
        return found

    async def owners(self) -> dict[int, int]:
        """partition -> the pid of the live worker owning it."""
        return await owner_pids(self.database_url)

    async def shared(self, workers: list[RoleProcess], timeout: float = START_SECONDS) -> float:
        """Wait until these workers (and only they) own every partition, each its share; the
        moment they do (perf_counter)."""
        pids = {w.pid for w in workers}
        most = -(-PARTITIONS // len(workers))
        deadline = time.monotonic() + timeout
        while True:
            owned = await self.owners()
            counts = Counter(owned.values())
            if len(owned) == PARTITIONS and set(counts) == pids and max(counts.values()) <= most:
                return time.perf_counter()
            if time.monotonic() > deadline:
                raise SystemExit(f"the partitions were not shared by {len(workers)} workers "
                                 f"within {timeout:g} s: {dict(counts)}")
            await asyncio.sleep(0.05)

    def live(self) -> list[RoleProcess]:
        return [w for w in self.workers if w.running()]

    async def deliver(self) -> None:
        """Each chat's updates in order, MAX_CONNECTIONS chats at once, each update POSTed
        until the ingress answers 200."""
        waiting: dict[int, deque[dict]] = defaultdict(deque)
        busy: set[int] = set()
        sending: set[asyncio.Task[None]] = set()
        connections = KeptConnections(self.port, MAX_CONNECTIONS)

        async def send(chat: int) -> None:
            try:
                while waiting[chat]:
                    update = waiting[chat][0]
                    status = await connections.post(update)
                    if status == 200:
                        waiting[chat].popleft()
                        self.posted += 1
                    else:
                        await asyncio.sleep(RETRY_SECONDS)
            finally:
                busy.discard(chat)

        while True:
            await self.emulator.wait_for(lambda: bool(self.emulator.updates), timeout=1.0)
            updates = self.emulator.updates
            while updates:
                update = {k: v for k, v in updates.pop(0).items() if not k.startswith("_")}
                chat = update.get("message", {}).get("chat", {}).get("id", 0)
                waiting[chat].append(update)
                if chat not in busy:
                    busy.add(chat)
                    task = asyncio.create_task(send(chat))
                    sending.add(task)
                    task.add_done_callback(sending.discard)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
        for role in [*self.workers, *([self.ingress] if self.ingress else []), *self.pollers]:
            await role.stop()
        await self.emulator.stop()


class KeptConnections:
    """Telegram's side of the webhook as Telegram does it: at most `most` HTTP/1.1 connections
    to the ingress at once, each kept open and used again for the next update (a connection
    opened and closed for every update would cost both sides CPU that Telegram's own servers,
    not this machine, spend)."""

    def __init__(self, port: int, most: int) -> None:
        self.port = port
        self.free: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        self.slots = asyncio.Semaphore(most)

    async def post(self, update: dict) -> int:
        """POST the update: its status (0 when nothing answered)."""
        body = json.dumps(update).encode()
        head = (f"POST /{WEBHOOK_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                f"{SECRET_HEADER}: {SECRET}\r\n\r\n").encode()
        async with self.slots:
            try:
                reader, writer = self.free.pop() if self.free else \
                    await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                return 0
            try:
                writer.write(head + body)
                status = int((await asyncio.wait_for(reader.readline(), 30)).split()[1])
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value)
                await reader.readexactly(length)
            except (OSError, TimeoutError, ValueError, IndexError,
                    asyncio.IncompleteReadError):
                writer.close()
                return 0
            self.free.append((reader, writer))
            return status


async def until(ready, role: RoleProcess, what: str, timeout: float = START_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if not role.running() or time.monotonic() > deadline:
            said = role.log.read_text(errors="replace")[-2000:] if role.log.is_file() else ""
            raise SystemExit(f"{role.name} was not {what}; its log ends:\n{said}")
        await asyncio.sleep(0.05)


async def database(server: PostgresServer, name: str) -> str:
    connection = await asyncpg.connect(server.url())
    try:
        await connection.execute(f"CREATE DATABASE {name}")
    finally:
        await connection.close()
    return server.url(name)


def cpu(pid: int | None) -> float:
    """CPU seconds of a process, the children it waited for (PostgreSQL's ended backends) and
    its live children (the solver's workers, the backends still connected), recursively."""
    if pid is None:
        return 0.0
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += sum(int(f) for f in fields[11:15]) / TICK
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += sum(cpu(int(child)) for child in (task / "children").read_text().split())
    except OSError:
        pass
    return total


KINDS = ("as sent", "in order")
ANSWERS_STORED = ("SELECT COUNT(*) FROM answers a JOIN rounds r ON r.id = a.round_id "
                  "WHERE r.chat_id = ANY($1::bigint[])")


@dataclass
class System:
    """One side of the comparison: its run (emulator, first process), its database, and the
    processes whose CPU time is counted."""

    name: str
    run: Run
    url: str
    processes: dict[str, int | None]


async def ordered_burst(system: System, ids: list[int], timeout: float) -> dict:
    """`burst` with each chat's answers handled in the order they were sent: every /play at
    once; every chat's wrong answers at once, and once the database holds them all, every right
    answer at once. The rate counts the three phases' time."""
    run = system.run
    for chat in ids:
        run.emulator.chat(chat)
    connection = await asyncpg.connect(system.url)
    try:
        started = time.perf_counter()
        for chat in ids:
            await run.emulator.say(chat, player(run, chat, 0), "/play")
        dealt_all = await sent_to(run, ids, 1, timeout)
        dealt = time.perf_counter()
        deals = {s.chat_id: s.text for s in run.emulator.sent if s.chat_id in set(ids)}
        prepared = {chat: answers_for(text) for chat, text in deals.items()}
        answering = time.perf_counter()
        for chat, lines in prepared.items():
            for number, line in enumerate(lines[:-1]):
                await run.emulator.say(chat, player(run, chat, number), line)
        wrong, deadline = (PLAYERS - 1) * len(prepared), time.monotonic() + timeout
        while await connection.fetchval(ANSWERS_STORED, ids) < wrong:
            if time.monotonic() > deadline:
                return {"rate": 0.0, "complete": False}
            await asyncio.sleep(0.01)
        for chat, lines in prepared.items():
            await run.emulator.say(chat, player(run, chat, len(lines) - 1), lines[-1])
        complete = await sent_to(run, ids, run.replies, timeout)
        finished = time.perf_counter()
    finally:
        await connection.close()
    return {"rate": (1 + PLAYERS) * len(ids) / (dealt - started + finished - answering),
            "complete": dealt_all and complete and len(deals) == len(ids)}


async def quiet(processes: dict[str, int | None], limit: float = 60.0) -> None:
    """Wait until none of the processes uses the CPU (two quiet quarter seconds: the work left
    after a burst's last reply, a previous burst's, is done)."""
    ends = time.perf_counter() + limit
    last, still = sum(cpu(pid) for pid in processes.values()), 0
    while still < 2 and time.perf_counter() < ends:
        await asyncio.sleep(0.25)
        now = sum(cpu(pid) for pid in processes.values())
        still = still + 1 if now - last < 0.03 else 0
        last = now


async def one_burst(system: System, ids: list[int], kind: str) -> dict:
    """One burst of `kind`: its rate, and the CPU ms per update of each process (and of this
    one: the emulator, Telegram's side), the work left after the last reply included."""
    await quiet(system.processes)
    before = {name: cpu(pid) for name, pid in system.processes.items()}
    mine = time.process_time()
    found = await (burst(system.run, ids, 300) if kind == "as sent"
                   else ordered_burst(system, ids, 300))
    if not found["complete"]:
        raise SystemExit(f"{system.name}: a burst's reply did not arrive")
    await quiet(system.processes)
    updates = len(ids) * (1 + PLAYERS)
    where = {name: (cpu(pid) - before[name]) * 1000 / updates
             for name, pid in system.processes.items()}
    where["emulator"] = (time.process_time() - mine) * 1000 / updates
    return {"rate": found["rate"], "where": where}


async def turns(single: System, cluster: System, count: int, runs: int, first: int,
                kinds: tuple[str, ...] = KINDS) -> dict:
    """A warm-up burst each, then `runs` rounds in which each kind of burst of `count` new chats
    is played by the one process and by the cluster, each first in turn: for each kind, both
    medians, and the median (and range) of the cluster's rate over the one process's in the
    same round; the CPU time per update of each process over the in-order bursts.

    The warm-up is as big as a turn and reaches every partition, so every worker has dealt
    and closed rounds (its stock's shelves grown to the turn's deals, its code run once)
    before it is measured, as the one process has: a warm-up of 20 chats reached 20 of the 64
    partitions, so the first turn caught two of four workers cold (a second of CPU each, a
    7 s deal phase at 0.15 cores)."""
    for system in (single, cluster):
        warm = chats(first + 5_000, max(count, PARTITIONS))  # no turn's chats
        if not (await burst(system.run, warm, 300))["complete"]:
            said = Counter(s.chat_id for s in system.run.emulator.sent if s.chat_id in warm)
            raise SystemExit(f"{system.name}: the warm-up's replies did not all come: "
                             f"{len(said)} of {len(warm)} chats answered, "
                             f"{sum(1 for n in said.values() if n >= 2)} with a result")
    rates: dict[tuple[str, str], list[float]] = defaultdict(list)
    ratios: dict[str, list[float]] = defaultdict(list)
    where: dict[str, dict[str, float]] = {single.name: defaultdict(float),
                                          cluster.name: defaultdict(float)}
    for number in range(runs):
        for index, kind in enumerate(kinds):
            ids = chats(first + 100 + (2 * number + index) * 10_000, count)
            order = (single, cluster) if number % 2 == 0 else (cluster, single)  # no side
            found = {system.name: await one_burst(system, ids, kind) for system in order}
            for name, result in found.items():
                rates[name, kind].append(result["rate"])
                if kind == "in order":
                    for process, ms in result["where"].items():
                        where[name][process] += ms / runs
            ratios[kind].append(found[cluster.name]["rate"] / found[single.name]["rate"])
    return {"rates": {key: statistics.median(found) for key, found in rates.items()},
            "ratios": {kind: statistics.median(found) for kind, found in ratios.items()},
            "spread": {kind: (min(found), max(found)) for kind, found in ratios.items()},
            "where": {name: dict(found) for name, found in where.items()}}


async def steady(run: Run, first_chat: int, rate: float, seconds: float) -> dict:
    """New chats at an even pace, `rate` updates a second in all (each chat four: a /play and
    three answers once dealt), for `seconds`: the p50 and p99 of delivery → reply, a /play to
    its deal and the right answer to its result, in ms."""
    emulator = run.emulator
    count = max(4, int(rate / (1 + PLAYERS) * seconds))
    ids = chats(first_chat, count)
    for chat in ids:
        emulator.chat(chat)
    waits: list[float] = []

    async def play(chat: int) -> None:
        asked = time.perf_counter()
        await emulator.say(chat, player(run, chat, 0), "/play")
        if not await emulator.wait_for(lambda: any(s.chat_id == chat for s in emulator.sent),
                                       60):
            return
        deal = next(s for s in emulator.sent if s.chat_id == chat)
        waits.append(deal.at - asked)
        lines = answers_for(deal.text)
        for number, line in enumerate(lines[:-1]):
            await emulator.say(chat, player(run, chat, number), line)
        answered = time.perf_counter()
        await emulator.say(chat, player(run, chat, len(lines) - 1), lines[-1])
        if await emulator.wait_for(lambda: any(s.chat_id == chat and "✅" in s.text
                                               for s in emulator.sent), 60):
            result = next(s for s in emulator.sent if s.chat_id == chat and "✅" in s.text)
            waits.append(result.at - answered)

    playing = []
    started = time.perf_counter()
    for number, chat in enumerate(ids):
        await asyncio.sleep(max(0.0, started + number * seconds / count - time.perf_counter()))
        playing.append(asyncio.create_task(play(chat)))
    await asyncio.gather(*playing)
    waits.sort()
    return {"p50": 1000 * statistics.median(waits),
            "p99": 1000 * waits[min(len(waits) - 1, int(len(waits) * 0.99))],
            "replies": len(waits), "expected": 2 * count}


def probe_chat(base: int, partition: int) -> int:
    """A private chat (a person's id) of the partition, at `base` or just above."""
    return base + (partition - base) % PARTITIONS


async def trial(cluster: Cluster, first_chat: int, count: int, per_second: float,
                victim: RoleProcess, pause: bool = False, probe_base: int = 7_000_000) -> dict:
    """`count` chats, one /play every 1/per_second s, each answered once dealt; `victim`
    SIGKILLed when half have begun, or (`pause`) SIGSTOPped, then let go (SIGCONT) once its
    partitions were taken over: a worker that lost its lease must exit (LOST_LEAD, 3) having
    sent nothing more. At the signal, a probe (/help in a private chat) goes to each of the
    victim's partitions: the take-over is over once every probe is answered."""
    run, emulator = Run(cluster.emulator, None), cluster.emulator  # type: ignore[arg-type]
    ids = chats(first_chat, count)
    ids_set = set(ids)
    for chat in ids:
        emulator.chat(chat)
    stopped_at = 0.0
    answered: set[int] = set()

    async def answer_dealt() -> None:
        while len(answered) < len(ids):
            for sent in list(emulator.sent):
                if sent.chat_id in ids_set and sent.chat_id not in answered \
                        and "Make 24" in sent.text:
                    answered.add(sent.chat_id)
                    for number, line in enumerate(answers_for(sent.text)):
                        await emulator.say(sent.chat_id, player(run, sent.chat_id, number), line)
            await asyncio.sleep(0.05)

    answering = asyncio.create_task(answer_dealt())
    took, exit_status = float("nan"), None
    survivors = [w for w in cluster.live() if w is not victim]
    victims_chats: set[int] = set()
    probes: dict[int, int] = {}  # probe chat -> its partition
    try:
        for index, chat in enumerate(ids):
            await emulator.say(chat, player(run, chat, 0), "/play")
            if index == count // 2:
                owned = await cluster.owners()
                victims_chats = {c for c in ids
                                 if owned.get(partition_of(c, PARTITIONS)) == victim.pid}
                probes = {probe_chat(probe_base, p): p for p, pid in owned.items()
                          if pid == victim.pid}
                stopped_at = time.perf_counter()
                victim.signal(signal.SIGSTOP if pause else signal.SIGKILL)
                waiting = asyncio.create_task(cluster.shared(survivors, 60))
                for probe in probes:
                    emulator.chat(probe, "private")
                    await emulator.say(probe, emulator.user(probe, f"U{probe}"), "/help",
                                       kind="private")
            await asyncio.sleep(1 / per_second)
        took = await waiting - stopped_at
        await emulator.wait_for(lambda: {s.chat_id for s in emulator.sent} >= set(probes), 60)
        if pause:
            victim.signal(signal.SIGCONT)
            assert victim.process is not None
            exit_status = await asyncio.wait_for(victim.process.wait(), 60)
        # every chat's result, or the time is up: a count of messages over all chats would
        # end the wait early where another chat got one more (a deal sent twice)
        await emulator.wait_for(lambda: {s.chat_id for s in emulator.sent
                                         if s.chat_id in ids_set and "✅" in s.text} == ids_set,
                                LOST_SECONDS)
    finally:
        answering.cancel()
    mine = [s for s in emulator.sent if s.chat_id in ids_set]
    # the first message in its chats from another worker: one the victim had on its way to
    # Telegram when the signal came may arrive after it
    theirs = sorted(s.at for s in mine if s.chat_id in victims_chats and s.at > stopped_at
                    and s.pid != victim.pid)
    answers = {}
    for s in emulator.sent:
        if s.chat_id in probes:
            answers.setdefault(s.chat_id, s.at)
    copies: dict[tuple[int, str], list[Sent]] = defaultdict(list)
    for s in mine:
        copies[s.chat_id, s.text].append(s)
    results = {s.chat_id for s in mine if "✅" in s.text}
    first: dict[int, Sent] = {}
    for s in mine:
        first.setdefault(s.chat_id, s)
    twice = [sent for sent in copies.values() if len(sent) > 1]
    # the window docs/reliability.md states: sent by the victim (its request on its way, or
    # Telegram's answer not yet written down when the signal came) and again by the next owner
    in_window = [sent for sent in twice if sent[0].pid == victim.pid
                 and all(c.pid != victim.pid for c in sent[1:])]
    return {"take_over": took,
            "serving": (max(answers.values()) - stopped_at) if len(answers) == len(probes)
            else float("nan"),
            "probes": len(probes),
            "first_reply": (theirs[0] - stopped_at) if theirs else float("nan"),
            "their_chats": len(victims_chats),
            "lost": len(ids_set - results),
            # each lost chat: the victim's or another worker's, and whether its deal came (no
            # deal: its /play was lost; a deal and no result: an answer was)
            "lost_how": Counter(("the victim's" if chat in victims_chats else "another's",
                                 "dealt" if any("Make 24" in s.text for s in mine
                                                if s.chat_id == chat) else "no deal")
                                for chat in ids_set - results),
            "twice": len(twice),
            "in_window": len(in_window),
            # which: a deal or a result, sent by the victim and again by the next owner
            "twice_what": [("deal" if "Make 24" in sent[0].text else
                            "result" if "✅" in sent[0].text else "other",
                            "handed over" if len({c.pid for c in sent}) > 1 else "one worker",
                            f"first {1000 * (sent[0].at - stopped_at):+.0f} ms from the signal")
                           for sent in twice],
            "out_of_order": sum(1 for s in first.values() if "✅" in s.text),
            "exit": exit_status}


async def rejoin(cluster: Cluster) -> None:
    """The stopped worker started again, as its supervisor would: it takes its share back."""
    for worker in cluster.workers:
        if not worker.running():
            await cluster.spawn(worker)
            await until(lambda w=worker: w.said(CONSUMING), worker, "consuming")
    await cluster.shared(cluster.workers)


async def rate_limited(cluster: Cluster, run: Run, count: int) -> dict:
    """A backlog released at once through workers with RATE_LIMIT on: a /solve in each of
    `count` chats and a /play in as many more, then a wrong answer in each dealt round (its
    status: an edit). Counted from the emulator's record of every request, all methods that
    name a chat: the most in any sliding second over all workers, the most to one group in any
    sliding minute, and the 429s."""
    emulator = run.emulator
    asking, playing = chats(990_000, count), chats(995_000, count)
    for chat in (*asking, *playing):
        emulator.chat(chat)
    started, first_call = time.time(), len(emulator.calls)
    for chat in asking:
        await emulator.say(chat, player(run, chat, 0), "/solve 3 8 3 8")
    for chat in playing:
        await emulator.say(chat, player(run, chat, 0), "/play")
    complete = await sent_to(run, [*asking, *playing], 1, 300)
    for chat in playing:
        deal = next((s for s in emulator.sent if s.chat_id == chat), None)
        if deal is not None:
            await emulator.say(chat, player(run, chat, 1), answers_for(deal.text)[0])
    complete = complete and await emulator.wait_for(
        lambda: {e.chat_id for e in emulator.edits} >= set(playing), 300)
    await asyncio.sleep(3.0)  # what is still on its way
    named = [(method, int(params["chat_id"]), at) for method, params, at
             in emulator.calls[first_call:] if params.get("chat_id") is not None]
    by_chat: dict[int, list[float]] = defaultdict(list)
    for _method, chat, at in named:
        by_chat[chat].append(at)
    senders = {r.pid for r in emulator.journal if r.at >= started}
    return {"most": busiest([at for _, _, at in named]), "calls": len(named),
            "methods": sorted(Counter(method for method, _, _ in named).items()),
            "group_minute": max(busiest(times, 60.0) for times in by_chat.values()),
            "flood": emulator.flood_errors, "complete": complete,
            "senders": len(senders - {None})}


def pg_pid(server: PostgresServer) -> int | None:
    return server.process.pid if server.process is not None else None


async def points_twice(url: str) -> int:
    """Players whose points differ from 10 a round won (each round here is worth 10 and won
    once): a win counted twice shows here."""
    connection = await asyncpg.connect(url)
    try:
        return int(await connection.fetchval(
            "SELECT COUNT(*) FROM scores s WHERE s.points <> (SELECT COALESCE(SUM(r.points), 0) "
            "FROM rounds r WHERE r.chat_id = s.chat_id AND r.winner_id = s.user_id "
            "AND r.game = s.game AND r.status = 'won')"))
    finally:
        await connection.close()


async def comparison(args: argparse.Namespace, postgres: PostgresServer, broker: BrokerServer,
                     folder: Path) -> tuple[list, dict, int]:
    """(1)-(3): the one process and clusters of 1, 2 and 3 workers in turns, the steady load,
    and the kill and pause trials (`args.trials` of each) on three workers."""
    rows: list = []
    trials: dict[str, list[dict]] = {"kill -9": [], "SIGSTOP": []}
    twice = 0
    url = await database(postgres, "single")
    started = await start_single(False, 1, folder, DATABASE_URL=url)
    single = System("one process", started, url,
                    {"bot": started.process.pid, "PostgreSQL": pg_pid(postgres)})
    try:
        for count in args.counts:
            (folder / f"c{count}").mkdir()
            cluster = Cluster(folder / f"c{count}", await database(postgres, f"cluster{count}"),
                              broker.url, count)
            try:
                run = await cluster.start()
                system = System(f"{count} worker{'s' if count > 1 else ''}", run,
                                cluster.database_url,
                                {**cluster.processes(broker), "PostgreSQL": pg_pid(postgres)})
                found = await turns(single, system, args.chats, args.bursts, count * 1_000_000)
                if not rows:
                    rows.append((single.name, {
                        "rates": {kind: found["rates"][single.name, kind] for kind in KINDS},
                        "where": found["where"][single.name],
                        "steady": await steady(single.run, 500_000,
                                               found["rates"][single.name, "in order"] / 2,
                                               args.seconds)}))
                rows.append((system.name, {
                    "rates": {kind: found["rates"][system.name, kind] for kind in KINDS},
                    "ratios": found["ratios"], "spread": found["spread"],
                    "where": found["where"][system.name],
                    "steady": await steady(run, 500_000,
                                           found["rates"][system.name, "in order"] / 2,
                                           args.seconds)}))
                if count == 3 and args.trials:
                    for number in range(args.trials):
                        for how, pause in (("kill -9", False), ("SIGSTOP", True)):
                            victim = cluster.workers[(2 * number + pause) % 3]
                            trials[how].append(await trial(
                                cluster, 900_000 + 200 * (2 * number + pause),
                                args.trial_chats, args.rate, victim, pause=pause,
                                probe_base=7_000_000 + 1_000 * (2 * number + pause)))
                            await rejoin(cluster)
                    twice = await points_twice(cluster.database_url)
            finally:
                await cluster.stop()
    finally:
        await stop_single(single.run)
    return rows, trials, twice


async def scaling(args: argparse.Namespace, postgres: PostgresServer, broker: BrokerServer,
                  caps: CpuCaps, folder: Path) -> dict:
    """Machines simulated: the one process, and each worker of clusters of 1, 2 and 4, in a
    CPU cgroup of its own with `args.cores_per_worker` cores; PostgreSQL, NATS, the ingress
    and Telegram's side uncapped. In-order bursts in turns with the capped one process (its
    rate moves with the machine's far less than an uncapped one's, and the ratios to it take
    what is left out), then the steady load at half the cluster's rate."""
    cores = args.cores_per_worker
    url = await database(postgres, "scaledsingle")
    (folder / "scaled").mkdir()
    started = await start_single(False, 1, folder / "scaled", DATABASE_URL=url)
    caps.cap_tree("one-process", cores, started.process.pid)
    single = System("one process", started, url,
                    {"bot": started.process.pid, "PostgreSQL": pg_pid(postgres)})
    rows: list[tuple[int, dict]] = []
    try:
        for count in args.scale:
            place = folder / f"s{count}"
            place.mkdir()
            cluster = Cluster(place, await database(postgres, f"scaled{count}"), broker.url,
                              count, caps=caps, cores=cores)
            try:
                run = await cluster.start()
                system = System(f"{count} capped", run, cluster.database_url,
                                {**cluster.processes(broker), "PostgreSQL": pg_pid(postgres)})
                found = await turns(single, system, args.scale_chats, args.bursts,
                                    20_000_000 + count * 1_000_000, kinds=("in order",))
                rate = found["rates"][system.name, "in order"]
                rows.append((count, {
                    "rate": rate, "single": found["rates"][single.name, "in order"],
                    "ratio": found["ratios"]["in order"],
                    "spread": found["spread"]["in order"],
                    "where": found["where"][system.name],
                    "single_where": found["where"][single.name],
                    "throttled": sum(caps.throttled(w.name) for w in cluster.workers),
                    "steady": await steady(run, 30_000_000 + count * 1_000_000, rate / 2,
                                           args.seconds)}))
            finally:
                await cluster.stop()
    finally:
        await stop_single(single.run)
    return {"cores": cores, "kind": caps.kind, "rows": rows}


async def ceiling(args: argparse.Namespace, postgres: PostgresServer, broker: BrokerServer,
                  caps: CpuCaps, folder: Path) -> dict:
    """The shared tier's ceiling checked: `args.ceiling_workers` uncapped workers; in-order
    bursts with PostgreSQL uncapped give its CPU an update, from which the rate it carries at
    `args.cap_postgres` cores is predicted; then PostgreSQL (the server and every backend)
    capped at that share, the same bursts measured against the prediction."""
    place = folder / "ceiling"
    place.mkdir()
    cluster = Cluster(place, await database(postgres, "ceiling"), broker.url,
                      args.ceiling_workers)
    found: dict = {"share": args.cap_postgres, "workers": args.ceiling_workers}
    try:
        run = await cluster.start()
        system = System("ceiling", run, cluster.database_url,
                        {**cluster.processes(broker), "PostgreSQL": pg_pid(postgres)})
        assert (await burst(run, chats(40_000_000, 20), 120))["complete"]
        free = [await one_burst(system, chats(41_000_000 + n * 10_000, args.scale_chats),
                                "in order") for n in range(args.bursts)]
        pg_ms = statistics.median(b["where"]["PostgreSQL"] for b in free)
        found.update(free_rate=statistics.median(b["rate"] for b in free), pg_ms=pg_ms,
                     predicted=args.cap_postgres * 1000 / pg_ms,
                     where=free[len(free) // 2]["where"])
        assert postgres.process is not None
        caps.cap_tree("postgres", args.cap_postgres, postgres.process.pid)
        try:
            capped = [await one_burst(system, chats(42_000_000 + n * 10_000, args.scale_chats),
                                      "in order") for n in range(args.bursts)]
        finally:
            caps.release("postgres")
        found.update(rate=statistics.median(b["rate"] for b in capped),
                     rates=[b["rate"] for b in capped],
                     capped_pg_ms=statistics.median(b["where"]["PostgreSQL"] for b in capped))
    finally:
        await cluster.stop()
    return found


async def poller_trials(args: argparse.Namespace, postgres: PostgresServer,
                        broker: BrokerServer, folder: Path) -> dict:
    """Two polling ingresses and a worker; a /help every 0.1 s in private chats; the polling
    one SIGKILLed (then started again, standing by) `args.poller_trials` times: the time to
    the other's first getUpdates, and to the first reply to a /help sent after the kill."""
    place = folder / "polling"
    place.mkdir()
    cluster = Cluster(place, await database(postgres, "polling"), broker.url, 1, pollers=2)
    emulator = cluster.emulator
    replaced, flowing = [], []
    try:
        await cluster.start()
        base = 8_000_000
        for number in range(args.poller_trials):
            holder = await polling_now(cluster, emulator)
            asked: list[tuple[int, float]] = []
            asking = asyncio.create_task(ask_help(emulator, base + number * 1_000, 100, asked))
            await asyncio.sleep(2.0)
            killed_wall, killed = time.time(), time.perf_counter()
            holder.signal(signal.SIGKILL)
            await asking
            after = {chat for chat, at in asked if at > killed}
            await emulator.wait_for(lambda w=after: {s.chat_id for s in emulator.sent} >= w, 60)
            polls = [r.at for r in emulator.journal
                     if r.method == "getUpdates" and r.at > killed_wall and r.pid != holder.pid]
            replaced.append((min(polls) - killed_wall) if polls else float("nan"))
            first = min((s.at for s in emulator.sent if s.chat_id in set(after)), default=None)
            flowing.append((first - killed) if first is not None else float("nan"))
            assert holder.process is not None
            await holder.process.wait()
            await holder.spawn()
            await until(lambda h=holder: h.said("standing by"), holder, "standing by")
    finally:
        await cluster.stop()
    return {"replaced": replaced, "flowing": flowing}


async def polling_now(cluster: Cluster, emulator: BotApiEmulator) -> RoleProcess:
    """The ingress polling now: the running one whose getUpdates came last (a long poll asks
    again only when the last one ended, so one is waited for, up to 60 s)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        running = {p.pid: p for p in cluster.pollers if p.running()}
        last = next((r for r in reversed(emulator.journal)
                     if r.method == "getUpdates" and r.pid in running), None)
        if last is not None:
            return running[last.pid]
        await asyncio.sleep(0.1)
    raise RuntimeError("no running ingress polled within 60 s")


async def ask_help(emulator: BotApiEmulator, first: int, count: int,
                   asked: list[tuple[int, float]]) -> None:
    """A /help in a new private chat every 0.1 s, `count` of them, each noted when asked."""
    for n in range(count):
        chat = first + n
        emulator.chat(chat, "private")
        asked.append((chat, time.perf_counter()))
        await emulator.say(chat, emulator.user(chat, f"U{chat}"), "/help", kind="private")
        await asyncio.sleep(0.1)


async def steady_run(args: argparse.Namespace, postgres: PostgresServer, broker: BrokerServer,
                     folder: Path) -> dict:
    """Three workers under a steady load (`args.rate` deals a second, each round played) for
    `args.steady_minutes`: leases lost by a live worker (its log's "lost the lead", an exit)
    and take-overs after the start (none should happen)."""
    place = folder / "steady"
    place.mkdir()
    cluster = Cluster(place, await database(postgres, "steady"), broker.url, 3)
    try:
        run = await cluster.start()
        took_before = sum(w.log.read_text(errors="replace").count("partitions: took")
                          for w in cluster.workers)
        held = await steady(run, 50_000_000, args.rate * (1 + PLAYERS),
                            args.steady_minutes * 60)
        logs = [w.log.read_text(errors="replace") for w in cluster.workers]
        return {"minutes": args.steady_minutes, "steady": held,
                "lost": sum(log.count("lost the lead") for log in logs),
                "exited": sum(1 for w in cluster.workers if not w.running()),
                "took": sum(log.count("partitions: took") for log in logs) - took_before}
    finally:
        await cluster.stop()


async def main_async(args: argparse.Namespace) -> None:
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    caps = None
    if args.cores_per_worker or args.cap_postgres:
        try:
            caps = CpuCaps.open(f"twentyfour-bench-{os.getpid()}")
        except CapsUnavailable as error:
            raise SystemExit(f"--cores-per-worker / --cap-postgres: {error}") from None
        print(f"CPU caps: {caps.kind}, {cores_here()} cores on this machine")
    postgres, broker = PostgresServer(), BrokerServer()
    await asyncio.to_thread(postgres.start)
    await asyncio.to_thread(broker.start)
    found: dict = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            place = Path(folder)
            if "turns" in args.parts:
                found["rows"], found["trials"], found["twice"] = await comparison(
                    args, postgres, broker, place)
            if caps is not None and args.cores_per_worker:
                found["scaling"] = await scaling(args, postgres, broker, caps, place)
            if caps is not None and args.cap_postgres:
                found["ceiling"] = await ceiling(args, postgres, broker, caps, place)
            if "limited" in args.parts:
                (place / "limited").mkdir()
                cluster = Cluster(place / "limited", await database(postgres, "limited"),
                                  broker.url, 3, rate_limit=True)
                try:
                    found["limited"] = await rate_limited(cluster, await cluster.start(),
                                                          args.limited_chats)
                finally:
                    await cluster.stop()
            if args.poller_trials:
                found["polling"] = await poller_trials(args, postgres, broker, place)
            if args.steady_minutes:
                found["steady_run"] = await steady_run(args, postgres, broker, place)
    finally:
        await asyncio.to_thread(broker.stop)
        await asyncio.to_thread(postgres.stop)
        if caps is not None:
            caps.close()
        report(args, found)  # what was measured, also when a later part failed


def spread(values: list[float]) -> str:
    """median / slowest of the values (nan left out), and their count."""
    good = sorted(v for v in values if v == v)
    if not good:
        return "none"
    return f"median {statistics.median(good):.2f} s, slowest {good[-1]:.2f} s (of {len(good)})"


def report(args: argparse.Namespace, found: dict) -> None:
    if "rows" in found:
        report_turns(args, found["rows"])
        report_trials(args, found["trials"], found["twice"])
    if "scaling" in found:
        report_scaling(args, found["scaling"])
    if "ceiling" in found:
        report_ceiling(found["ceiling"])
    if "limited" in found:
        limited = found["limited"]
        print(f"\nrate limiting on (SEND_RATE 30), three workers, a backlog of "
              f"{args.limited_chats} chats' /solve and as many /play, then a wrong answer in "
              f"each round: every call naming a chat counted ({limited['calls']}: "
              + ", ".join(f"{method} {n}" for method, n in limited["methods"])
              + f"), from {limited['senders']} processes; the most in any sliding second "
              f"{limited['most']}, to one group in any sliding minute {limited['group_minute']}"
              f"; 429s {limited['flood']}; every reply came: {limited['complete']}")
    if "polling" in found:
        polling = found["polling"]
        print(f"\nthe polling ingress SIGKILLed {len(polling['replaced'])} times (two polling, "
              f"a /help every 0.1 s): the other's first getUpdates "
              f"{spread(polling['replaced'])}; the first reply to a /help sent after the kill "
              f"{spread(polling['flowing'])}")
    if "steady_run" in found:
        run = found["steady_run"]
        held = run["steady"]
        print(f"\na steady run of {run['minutes']:g} minutes, three workers, {args.rate:g} "
              f"deals a second played: leases lost by a live worker {run['lost']}, workers "
              f"exited {run['exited']}, take-overs after the start {run['took']}; delivery → "
              f"reply p50 {held['p50']:.0f} ms, p99 {held['p99']:.0f} ms, "
              f"{held['replies']} of {held['expected']} replies")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def report_turns(args: argparse.Namespace, rows: list) -> None:
    one_worker = rows[1][1]["ratios"]["in order"]  # the rates of separate runs move with the
    # machine's speed; the ratios to the one process's turns beside them do not
    print(f"\nbursts of {args.chats} chats ({1 + PLAYERS} updates each), the one process and "
          f"the cluster taking turns, median of {args.bursts}; rate limiting off. 'vs one "
          f"process': the median of the ratios of turns taken side by side ('vs 1 worker': "
          f"the ratio of those). Then a steady "
          f"load at half of each one's in-order rate for {args.seconds:g} s: delivery → reply.")
    print(f"{'':<14}{'as sent /s':>11}{'vs one process':>16}{'in order /s':>13}"
          f"{'vs one process':>16}{'vs 1 worker':>13}{'p50 ms':>8}{'p99 ms':>8}"
          f"  CPU ms an update in order, by process")
    for name, found in rows:
        rates, ratios = found["rates"], found.get("ratios", {kind: 1.0 for kind in KINDS})
        where = ", ".join(f"{k} {v:.2f}" for k, v in found["where"].items())
        held = found["steady"]
        print(f"{name:<14}{rates['as sent']:>11.0f}{ratios['as sent']:>15.2f}×"
              f"{rates['in order']:>13.0f}{ratios['in order']:>15.2f}×"
              f"{ratios['in order'] / one_worker:>12.2f}×{held['p50']:>8.0f}"
              f"{held['p99']:>8.0f}  {sum(found['where'].values()):.2f}: {where}")
        if "spread" in found:
            print(f"{'':<14}the turns' ratios ranged " + ", ".join(
                f"{kind} {low:.2f}–{high:.2f}" for kind, (low, high) in found["spread"].items()))
        if held["replies"] < held["expected"]:
            print(f"{'':<14}(steady: {held['replies']} of {held['expected']} replies came)")


def report_trials(args: argparse.Namespace, trials: dict, twice: int) -> None:
    for how, done in trials.items():
        if not done:
            continue
        print(f"\n{how} of a worker mid-load, {len(done)} trials ({args.trial_chats} chats, "
              f"{args.rate:g} deals a second, three workers; a probe to each of its partitions "
              f"at the signal):")
        print(f"  its partitions owned by live workers: "
              f"{spread([t['take_over'] for t in done])}")
        print(f"  every probe answered (updates flow in each of its partitions): "
              f"{spread([t['serving'] for t in done])}")
        print(f"  the first message in one of its chats: "
              f"{spread([t['first_reply'] for t in done])}")
        sent_twice = sum(t["twice"] for t in done)
        window = sum(t["in_window"] for t in done)
        print(f"  results lost {sum(t['lost'] for t in done)}, messages sent twice "
              f"{sent_twice} (in the stated window: sent by the victim, again by the next "
              f"owner: {window}; outside it: {sent_twice - window}), a result before its deal "
              f"{sum(t['out_of_order'] for t in done)}")
        lost_how: Counter[tuple[str, str]] = sum((t["lost_how"] for t in done), Counter())
        if lost_how:
            print("  the lost results' chats: " + ", ".join(
                f"{count} {whose} chat{'s' if count > 1 else ''} {how}"
                for (whose, how), count in sorted(lost_how.items())))
        for t in done:
            if t["twice"]:
                print(f"    {t['twice_what']}")
        exits = [t["exit"] for t in done if t["exit"] is not None]
        if exits:
            print(f"  the paused workers, let go after the take-over, exited with status "
                  f"{dict(Counter(exits))} (3: it lost its lease)")
    print(f"points counted twice, over every trial: {twice}")


def report_scaling(args: argparse.Namespace, scaled: dict) -> None:
    rows = dict(scaled["rows"])
    cores = scaled["cores"]
    print(f"\nmachines simulated ({scaled['kind']}): the one process and each worker in a CPU "
          f"cgroup of {cores:g} cores; PostgreSQL, NATS, the ingress and Telegram's side "
          f"uncapped. In-order bursts of {args.scale_chats} chats in turns with the capped one "
          f"process, median of {args.bursts}; efficiency = rate(N) / (N × rate(1)), each rate "
          f"taken as its ratio to the one process's turns beside it.")
    print(f"{'workers':<9}{'updates/s':>10}{'vs one process':>16}{'efficiency':>12}"
          f"{'p50 ms':>8}{'p99 ms':>8}  CPU ms an update, by tier")
    base = rows[min(rows)]["ratio"] / min(rows)
    single = rows[min(rows)]
    for count, found in sorted(rows.items()):
        where = found["where"]
        tiers = {"workers": sum(v for k, v in where.items() if k.startswith("worker")),
                 "ingress": where.get("ingress", 0.0), "NATS": where.get("NATS", 0.0),
                 "PostgreSQL": where.get("PostgreSQL", 0.0),
                 "Telegram side": where.get("emulator", 0.0)}
        found["tiers"] = tiers
        low, high = found["spread"]
        print(f"{count:<9}{found['rate']:>10.1f}{found['ratio']:>15.2f}×"
              f"{found['ratio'] / (count * base):>12.2f}{found['steady']['p50']:>8.0f}"
              f"{found['steady']['p99']:>8.0f}  "
              + ", ".join(f"{k} {v:.2f}" for k, v in tiers.items())
              + f" (turns {low:.2f}–{high:.2f}; the caps held the workers back "
              f"{found['throttled']:.0f} s)")
    one = single["single_where"]
    print(f"the capped one process: {single['single']:.1f} updates a second; CPU ms an update "
          + ", ".join(f"{k} {v:.2f}" for k, v in one.items()))
    most = max(rows)
    tiers = rows[most]["tiers"]
    shared = rows[most]["rate"] * (tiers["ingress"] + tiers["NATS"] + tiers["PostgreSQL"]
                                   + tiers["Telegram side"]) / 1000
    total = most * cores + shared
    print(f"{most} workers at {cores:g} cores and the uncapped tier they fed "
          f"({shared:.2f} cores at {rows[most]['rate']:.0f} updates a second): {total:.2f} of "
          f"this machine's {cores_here()} cores: "
          + ("they fit" if total <= cores_here() else "they do NOT fit: the uncapped tier "
             "competes with the workers for the cores, and the efficiency is a floor"))


def report_ceiling(found: dict) -> None:
    print(f"\nthe shared tier's ceiling: {found['workers']} uncapped workers; PostgreSQL "
          f"uncapped: {found['free_rate']:.0f} updates a second, {found['pg_ms']:.2f} ms of "
          f"PostgreSQL CPU an update, so {found['share']:g} cores of it carry "
          f"{found['predicted']:.0f} updates a second. PostgreSQL capped at "
          f"{found['share']:g} cores: {found['rate']:.0f} updates a second (bursts "
          + ", ".join(f"{r:.0f}" for r in found["rates"])
          + f"), {found['rate'] / found['predicted']:.2f}× the prediction; its CPU an update "
          f"{found['capped_pg_ms']:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chats", type=int, default=100, help="chats in each burst")
    parser.add_argument("--bursts", type=int, default=7,
                        help="turns of each kind (the machine's speed moves between them)")
    parser.add_argument("--parts", default="turns,limited",
                        help="comma-separated: turns (the one process against 1, 2, 3 "
                             "workers, then the trials), limited (rate limiting on)")
    parser.add_argument("--counts", default="1,2,3", help="the clusters' workers in turns")
    parser.add_argument("--trials", type=int, default=1,
                        help="kill and pause trials of each (the issue: 20)")
    parser.add_argument("--trial-chats", type=int, default=60)
    parser.add_argument("--rate", type=float, default=5.0, help="deals a second in the trial")
    parser.add_argument("--seconds", type=float, default=15.0, help="the steady load's length")
    parser.add_argument("--limited-chats", type=int, default=150)
    parser.add_argument("--cores-per-worker", type=float, default=0.0,
                        help="each worker (and the one process) in a CPU cgroup of this many "
                             "cores: the scaling part, on --scale workers")
    parser.add_argument("--scale", default="1,2,4", help="the capped clusters' workers")
    parser.add_argument("--scale-chats", type=int, default=128,
                        help="chats in a capped burst (a multiple of the 64 partitions: each "
                             "worker gets its share)")
    parser.add_argument("--cap-postgres", type=float, default=0.0,
                        help="the ceiling's check: PostgreSQL capped at this many cores")
    parser.add_argument("--ceiling-workers", type=int, default=2)
    parser.add_argument("--poller-trials", type=int, default=0,
                        help="the polling ingress SIGKILLed this many times")
    parser.add_argument("--steady-minutes", type=float, default=0.0,
                        help="a steady run of three workers this long: leases lost")
    parser.add_argument("--quick", action="store_true", help="small: a check that it runs")
    args = parser.parse_args()
    args.parts = set(args.parts.split(",")) - {""}
    args.counts = [int(n) for n in args.counts.split(",")]
    args.scale = [int(n) for n in args.scale.split(",")]
    if args.quick:
        args.chats, args.bursts, args.trial_chats = 20, 1, 20
        args.seconds, args.limited_chats, args.scale_chats = 4.0, 40, 64
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
