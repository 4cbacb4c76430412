"""Load benchmark: the real bot (`python -m bot`, its own process, through bench/run_bot.py with
the fair update processor) against the Bot API emulator, and in the same run the limit of the
stack: a bare python-telegram-bot application that answers every update with one message
(bench/baseline_bot.py), on the same emulator code.

Group chats play at once: each deals (/play), then three players answer (two wrong, one right);
every chat has players of its own. The bot answers a chat's four updates with two messages, the
deal and the result: a wrong answer's verdict goes into the deal's status (an edit, at most one a
second per round, so a burst of wrong answers costs one); the baseline with four, one each.

(1) Capacity, with outgoing rate limiting off (RATE_LIMIT=off), ours and the baseline's:
    a. burst: every chat's /play at once, then every answer at once; updates handled per second,
       and the process's CPU time per update.
    b. steady load: new chats whose updates arrive at a fixed rate (--rate, and half of the
       bot's burst capacity), each answer once its chat's deal is out; the 50th/99th percentile
       time from an update's delivery (getUpdates returning it) to its reply reaching the server
       (a wrong answer's reply is the edit of the deal's status that follows it; a wrong answer
       folded into a later edit with others has no time of its own and is not counted).
    c. chatter: plain messages in chats with no round (the bot says nothing to them): the CPU
       time per update, against the baseline's per answered update.
(2) With rate limiting on (the default: the bot's own RateLimiter) and the emulator enforcing
    Telegram's limits (30 messages a second, 20 a minute per group, 429 with retry_after
    beyond): the highest rates the emulator saw, its 429 answers, and whether a reply was lost.

Loadavg is printed at the start and the end (2 cores are shared). Loopback only; every wait
is bounded. `--quick` for a smaller run. `--profile FILE` runs the
burst alone with the bot under cProfile and prints where its time goes.

`--bursts N` measures the burst alone, N times, the bot and the baseline side by side (both
running, each burst of the bot right after one of the baseline's, so a change in the machine's
load meets both) and prints the medians: updates per second, the ratio, CPU per update, and the
deals alone (the /play phase, the bot's deal against the baseline's first reply). With
`--postgres` the bot's data is on a PostgreSQL server of its own (tests/postgres/server.py).
BENCH_TRANSPORT=aiohttp in the environment sends the bot's requests through aiohttp
(bench/aiohttp_request.py) instead of its own transport; `--bursts N --transports` measures the
two against each other (the bot on aiohttp in the "ours" column, on its own in "baseline").
`--bursts N --poll-rtt S` answers each getUpdates S seconds late, as a round trip to Telegram
would be (loopback has none), and both bots' polls during a burst are counted.
BENCH_LOG_LEVEL=INFO in the environment shows the bot's INFO lines (a statement sent to the
database's thread for good, a job skipped), WARNING otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pstats
import re
import signal
import statistics
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from demo.emulator import BotApiEmulator, FloodLimits  # noqa: E402
from demo.ports import free_port  # noqa: E402
from solver import first_solution  # noqa: E402

PLAYERS = 3
OURS = [str(ROOT / "bench" / "run_bot.py")]
BASELINE = [str(ROOT / "bench" / "baseline_bot.py")]
TICK = os.sysconf("SC_CLK_TCK")
OUR_REPLIES = 2  # messages per chat: the deal and the result (wrong answers: the deal's status)
BASELINE_REPLIES = 1 + PLAYERS  # one per update


@dataclass
class Run:
    """One bot process against one emulator."""

    emulator: BotApiEmulator
    process: asyncio.subprocess.Process
    players: list[dict] = field(default_factory=list)
    replies: int = OUR_REPLIES  # messages per chat once its round is played
    answers: dict[int, list[str]] = field(default_factory=dict)


async def start(rate_limit: bool, workers: int, folder: Path, program: list[str] | None = None,
                *, root: Path = ROOT, **env_more: str) -> Run:
    """The bot (or `program`, a script run with this Python) polling a new emulator. `root` is
    the checkout whose packages it imports (its folder and first on PYTHONPATH): another
    commit's worktree runs that commit's bot (bench/bench_guard.py)."""
    emulator = BotApiEmulator(flood=FloodLimits() if rate_limit else None)
    await emulator.start()
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": emulator.token,
           "TELEGRAM_BASE_URL": emulator.base_url, "DATABASE_PATH": str(folder / "load.sqlite3"),
           "ROUND_SECONDS": "600", "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
           "SOLVER_WORKERS": str(workers),
           "RATE_LIMIT": "on" if rate_limit else "off",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])),
           **env_more}
    process = await asyncio.create_subprocess_exec(sys.executable, *(program or OURS), cwd=root,
                                                   env=env, stdin=asyncio.subprocess.DEVNULL)
    for _ in range(1200):  # ready once it polls for updates
        if any(call[0] == "getUpdates" for call in emulator.calls):
            break
        await asyncio.sleep(0.05)
    else:
        process.kill()
        raise SystemExit("the bot did not start")
    players = [emulator.user(100 + i, f"P{i}") for i in range(PLAYERS)]
    return Run(emulator, process, players,
               replies=BASELINE_REPLIES if program == BASELINE else OUR_REPLIES)


async def stop(run: Run) -> None:
    """The bot stopped (it may have ended already: a Ctrl-C reaches it too) and its emulator."""
    with contextlib.suppress(ProcessLookupError):
        run.process.terminate()
    await run.process.wait()
    await run.emulator.stop()


async def warm(run: Run) -> None:
    """A small burst before any measured one: the solver workers' caches, the connections and
    the first imports are paid here, not in the first figure."""
    if not (await burst(run, chats(0, 20), 60))["complete"]:
        raise SystemExit("the warming burst: a reply did not arrive")


def chats(start: int, count: int) -> list[int]:
    return [-10_000 - start - i for i in range(count)]


def player(run: Run, chat: int, number: int) -> dict:
    """The chat's `number`th player (each chat has its own, as groups do)."""
    return run.emulator.user(1_000_000 + 10 * abs(chat) + number, f"P{number}")


def cpu_seconds(process: asyncio.subprocess.Process) -> float:
    """The process's user and system CPU time so far (its solver workers are not in it)."""
    fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


async def idle(process: asyncio.subprocess.Process, limit: float = 60.0) -> float:
    """Wait until the process stops using the CPU (two quiet quarter seconds); its CPU time."""
    ends, quiet, last = time.perf_counter() + limit, 0, cpu_seconds(process)
    while quiet < 2 and time.perf_counter() < ends:
        await asyncio.sleep(0.25)
        now = cpu_seconds(process)
        quiet = quiet + 1 if now - last < 0.02 else 0
        last = now
    return last


def answers_for(deal_text: str) -> list[str]:
    """Two wrong answers and a right one for the hand on a deal's first line."""
    hand = [int(n) for n in re.findall(r"\d+", deal_text.splitlines()[0])]
    right = first_solution(hand)
    assert right is not None, deal_text
    wrong = "+".join(map(str, hand)) if sum(hand) != 24 else "*".join(map(str, hand))
    return [f"/a {wrong}", f"/a {hand[0]}*{hand[1]}", f"/a {right}"]


async def sent_to(run: Run, chat_ids: list[int], per_chat: int, timeout: float) -> bool:
    wanted = set(chat_ids)

    def done() -> bool:
        said = sum(1 for s in run.emulator.sent if s.chat_id in wanted)
        marked = sum(1 for r in run.emulator.reactions if r.chat_id in wanted)
        return said + marked >= per_chat * len(wanted)

    return await run.emulator.wait_for(done, timeout)


async def burst(run: Run, ids: list[int], timeout: float) -> dict:
    """Every /play at once, then every answer at once."""
    for chat in ids:
        run.emulator.chat(chat)
    await idle(run.process)
    cpu = cpu_seconds(run.process)
    polled = sum(1 for call in run.emulator.calls if call[0] == "getUpdates")
    started = time.perf_counter()
    for chat in ids:
        await run.emulator.say(chat, player(run, chat, 0), "/play")
    await sent_to(run, ids, 1, timeout)
    dealt = time.perf_counter()
    deals = {s.chat_id: s.text for s in run.emulator.sent if s.chat_id in set(ids)}
    prepared = {chat: answers_for(text) for chat, text in deals.items()}
    answering = time.perf_counter()
    for chat, lines in prepared.items():
        for number, line in enumerate(lines):
            await run.emulator.say(chat, player(run, chat, number), line)
    complete = await sent_to(run, ids, run.replies, timeout)
    finished = time.perf_counter()
    used = await idle(run.process) - cpu  # with what was still being handled, and alarms
    polls = sum(1 for call in run.emulator.calls if call[0] == "getUpdates") - polled
    return {"polls": polls,
            "deal_rate": len(deals) / (dealt - started),
            "answer_rate": PLAYERS * len(deals) / (finished - answering),
            "rate": (1 + PLAYERS) * len(ids) / (dealt - started + finished - answering),
            "cpu_ms": used * 1000 / ((1 + PLAYERS) * len(ids)),
            "complete": complete and len(deals) == len(ids)}


async def chatter(run: Run, ids: list[int], per_chat: int, answered: bool) -> dict:
    """`per_chat` plain messages in each chat, no round on: CPU time per update (the bot says
    nothing to them; the baseline, `answered`, replies to each)."""
    for chat in ids:
        run.emulator.chat(chat)
    await idle(run.process)
    cpu = cpu_seconds(run.process)
    for chat in ids:
        for number in range(per_chat):
            await run.emulator.say(chat, player(run, chat, number % PLAYERS),
                                   "nice weather today, isn't it")
    total = per_chat * len(ids)
    if answered:
        await sent_to(run, ids, per_chat, 60)
    await run.emulator.wait_for(lambda: not run.emulator.updates, 60)
    used = await idle(run.process) - cpu
    return {"updates": total, "cpu_ms": used * 1000 / total}


async def steady(run: Run, ids: list[int], per_second: float, timeout: float) -> dict:
    """Updates at a fixed rate: each chat's /play, and its answers once the deal is out."""
    for chat in ids:
        run.emulator.chat(chat)
    queue: list[tuple[int, str, int]] = [(chat, "/play", 0) for chat in ids]
    started = time.perf_counter()
    sent_updates = read = 0
    wanted, deal_seen = set(ids), set()
    while queue or len(deal_seen) < len(ids):
        for s in run.emulator.sent[read:]:
            if s.chat_id in wanted and s.chat_id not in deal_seen and s.reply_to is None:
                deal_seen.add(s.chat_id)
                queue += [(s.chat_id, line, p) for p, line in enumerate(answers_for(s.text))]
        read = len(run.emulator.sent)
        due = int((time.perf_counter() - started) * per_second) - sent_updates
        for _ in range(min(due, len(queue))):
            chat, line, number = queue.pop(0)
            await run.emulator.say(chat, player(run, chat, number), line)
            sent_updates += 1
        if time.perf_counter() - started > timeout:
            break
        await asyncio.sleep(0.002)
    complete = await sent_to(run, ids, run.replies, timeout)
    elapsed = time.perf_counter() - started
    kinds = replies_by_kind(run, set(ids))
    latencies = [latency for each in kinds.values() for latency in each]
    return {"offered": per_second, "handled": sent_updates / elapsed, "complete": complete,
            "p50": percentile(latencies, 0.50), "p99": percentile(latencies, 0.99),
            "count": len(latencies), "seconds": elapsed,
            "kinds": {kind: (len(each), percentile(each, 0.50), percentile(each, 0.99))
                      for kind, each in kinds.items() if each}}


KINDS = ("a deal (/play)", "a result (a reply)", "a wrong answer marked", "a wrong answer, "
         "the deal's status edited")


def replies_by_kind(run: Run, wanted: set[int]) -> dict[str, list[float]]:
    """Per reply, the time from its update's delivery (a deal answers its chat's first
    update), by what the reply was (KINDS): which of them makes the tail."""
    delivered: dict[tuple[int, int], float] = {}
    for update in run.emulator.updates_log:
        message = update.get("message")
        if message and message["chat"]["id"] in wanted and "_delivered_at" in update:
            delivered[(message["chat"]["id"], message["message_id"])] = update["_delivered_at"]
    first = {}
    for chat, message_id in sorted(delivered):
        first.setdefault(chat, message_id)
    latencies: dict[str, list[float]] = {kind: [] for kind in KINDS}
    answered_keys = set()
    for sent in run.emulator.sent:
        if sent.chat_id in wanted:
            answered = sent.reply_to if sent.reply_to is not None else first[sent.chat_id]
            key = (sent.chat_id, answered)
            if key in delivered:
                latencies[KINDS[0 if sent.reply_to is None else 1]].append(
                    sent.at - delivered[key])
                answered_keys.add(key)
    for reaction in run.emulator.reactions:  # a wrong answer marked: its reply
        key = (reaction.chat_id, reaction.message_id)
        if reaction.chat_id in wanted and key in delivered:
            latencies[KINDS[2]].append(reaction.at - delivered[key])
            answered_keys.add(key)
    deal_of = {s.chat_id: s.message_id for s in reversed(run.emulator.sent)
               if s.chat_id in wanted and s.reply_to is None}
    waiting: dict[int, list[tuple[float, int]]] = {}  # per chat, its wrong answers by time
    for (chat, message_id), at in delivered.items():
        if message_id != first[chat] and (chat, message_id) not in answered_keys:
            waiting.setdefault(chat, []).append((at, message_id))
    for chat in waiting:
        waiting[chat].sort()
    for edit in sorted(run.emulator.edits, key=lambda e: e.at):  # the deal's status written:
        queue = waiting.get(edit.chat_id or 0)  # the reply to the earliest wrong answer before
        if queue and edit.message_id == deal_of.get(edit.chat_id or 0) and queue[0][0] < edit.at:
            latencies[KINDS[3]].append(edit.at - queue.pop(0)[0])
    return latencies


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


STAGES = (("waiting for its turn (fair queue)", "twentyfour_update_stage_seconds",
           {"stage": "waiting"}),
          ("handling (store, replies)", "twentyfour_update_stage_seconds", {"stage": "handling"}),
          ("the event loop's lateness (a timer)", "twentyfour_update_stage_seconds",
           {"stage": "loop"}),
          ("a sendMessage's round trip", "twentyfour_bot_api_request_seconds",
           {"method": "sendMessage"}),
          ("a garbage collection, generation 0", "twentyfour_gc_pause_seconds",
           {"generation": "0"}),
          ("generation 1", "twentyfour_gc_pause_seconds", {"generation": "1"}),
          ("generation 2", "twentyfour_gc_pause_seconds", {"generation": "2"}))


def histograms(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], dict[float, float]]:
    """The bot's histograms from its /metrics: (name, labels but `le`) -> {bucket: count}."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    found: dict[tuple[str, tuple[tuple[str, str], ...]], dict[float, float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name.endswith("_bucket"):
                labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "le"))
                key = (sample.name.removesuffix("_bucket"), labels)
                found.setdefault(key, {})[float(sample.labels["le"])] = sample.value
    return found


def stages(before: dict, after: dict) -> list[tuple[str, float, float, float]]:
    """Each stage's (name, count, p50, p99) between two readings: a quantile is the upper bound
    of the bucket it falls in (seconds), as the histogram can tell."""
    rows = []
    for name, metric, labels in STAGES:
        key = (metric, tuple(sorted(labels.items())))
        now, then = after.get(key, {}), before.get(key, {})
        cumulative = sorted((bound, now[bound] - then.get(bound, 0.0)) for bound in now)
        count = cumulative[-1][1] if cumulative else 0.0

        def quantile(q: float, rows: list[tuple[float, float]] = cumulative,
                     total: float = count) -> float:
            return next((bound for bound, seen in rows if seen >= q * total), float("nan"))

        rows.append((name, count, quantile(0.5), quantile(0.99)))
    return rows


async def capacity(chats_count: int, rate: float, workers: int, program: list[str],
                   half: bool = False) -> dict:
    """Bursts, steady runs (at `rate`, and with `half` at half the burst's rate) and chatter
    of one program; the bot's own figures of where the half-load run's time went (its
    /metrics: the fair queue, the handling, its replies' round trips, the collector)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        run = await start(False, workers, Path(folder), program,
                          **({"METRICS_PORT": str(port)} if program == OURS else {}))
        try:
            await warm(run)
            found = {"burst": await burst(run, chats(100, chats_count), 120),
                     "steady": await steady(run, chats(1000, chats_count), rate, 120)}
            if half:
                before = histograms(port) if program == OURS else {}
                found["half"] = await steady(run, chats(2000, chats_count),
                                             found["burst"]["rate"] / 2, 120)
                if program == OURS:
                    found["stages"] = stages(before, histograms(port))
            found["chatter"] = await chatter(run, chats(3000, chats_count), 2,
                                             program == BASELINE)
        finally:
            await stop(run)
    return found


async def profile(chats_count: int, workers: int, into: Path) -> dict:
    """One burst with the bot under cProfile (written to `into` when it stops)."""
    with tempfile.TemporaryDirectory() as folder:
        run = await start(False, workers, Path(folder), OURS, BENCH_PROFILE=str(into))
        try:
            await burst(run, chats(0, 20), 60)
            found = await burst(run, chats(100, chats_count), 120)
        finally:
            run.process.send_signal(signal.SIGINT)
            await run.process.wait()
            await run.emulator.stop()
    return found


async def limited(chats_count: int, group_burst: int, workers: int) -> dict:
    """Many chats at once, then one group asked `group_burst` questions in a row: more than
    Telegram lets a bot send to one group in a minute."""
    with tempfile.TemporaryDirectory() as folder:
        run = await start(True, workers, Path(folder))
        try:
            ids = chats(0, chats_count)
            began = time.perf_counter()
            result = await burst(run, ids, 300)
            busy = chats(5000, 1)
            run.emulator.chat(busy[0])
            for number in range(group_burst):  # each member asks once: a busy group, not one
                await run.emulator.say(busy[0], player(run, busy[0], number),  # person's flood
                                       "/solve 3 8 3 8")
            result["complete"] &= await sent_to(run, busy, group_burst, 300)
            ids += busy
            sent = [s for s in run.emulator.sent if s.chat_id in set(ids)]
            marked = [r for r in run.emulator.reactions if r.chat_id in set(ids)]
            per_second = max(sum(1 for s in sent if t <= s.at < t + 1) for t in
                             (s.at for s in sent))
            per_group = max(sum(1 for s in sent if s.chat_id == c and t <= s.at < t + 60)
                            for c in ids for t in (s.at for s in sent if s.chat_id == c))
            said = Counter([s.chat_id for s in sent] + [r.chat_id for r in marked])
            wanted = {chat: run.replies for chat in ids[:-1]} | {busy[0]: group_burst}
            # more than a chat's replies is no loss: with the sends held back by the limits, a
            # wrong answer can come after the win, and is told the round is over
            replies = sum(min(said[chat], count) for chat, count in wanted.items())
            result.update(replies=replies, extra=len(sent) + len(marked) - replies,
                          elapsed=time.perf_counter() - began, expected=sum(wanted.values()),
                          per_second=per_second, per_group=per_group,
                          flood_errors=run.emulator.flood_errors)
        finally:
            await stop(run)
    return result


@dataclass(frozen=True)
class Pair:
    """One burst of the bot and one of the baseline, measured one right after the other."""

    ours: dict
    base: dict

    @property
    def ratio(self) -> float:
        return self.ours["rate"] / self.base["rate"]

    @property
    def deals_ratio(self) -> float:
        return self.ours["deal_rate"] / self.base["deal_rate"]


@asynccontextmanager
async def postgres_databases(names: tuple[str, ...]) -> AsyncIterator[dict[str, dict[str, str]]]:
    """A PostgreSQL server of its own, started for the run and stopped after it, with one
    database per name: each name's settings for a bot (two bots never share one's tables)."""
    import asyncpg

    import tests.postgres.server as pg_server

    server = await asyncio.to_thread(pg_server.PostgresServer().start)
    try:
        connection = await asyncpg.connect(server.url())
        try:
            for name in names:
                await connection.execute(f"CREATE DATABASE {name}")
        finally:
            await connection.close()
        yield {name: {"DATABASE_URL": server.url(name)} for name in names}
    finally:
        await asyncio.to_thread(server.stop)


@asynccontextmanager
async def bot_database(postgres: bool) -> AsyncIterator[dict[str, str]]:
    """The bot's database settings: SQLite in its temporary folder (the default), or a
    PostgreSQL server of its own (postgres_databases)."""
    if not postgres:
        yield {}
        return
    async with postgres_databases(("load",)) as found:
        yield found["load"]


async def paired_bursts(chats_count: int, runs: int, workers: int, postgres: bool = False,
                        transports: bool = False, poll_rtt: float = 0.0) -> list[Pair]:
    """`runs` bursts of `chats_count` chats each, the baseline's then the bot's, both processes
    started once (and warmed with a small burst each). With `transports` the baseline is the
    bot on its own transport, and the bot is on aiohttp's (bench/aiohttp_request.py). With
    `poll_rtt` each getUpdates is answered that many seconds late (the round trip to Telegram,
    which loopback does not have: the bot's polls during a burst cost that much each)."""
    pairs = []
    async with bot_database(postgres) as database:
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "base").mkdir()
            if transports:
                base = await start(False, workers, Path(folder) / "base", OURS,
                                   BENCH_TRANSPORT="lean")
                base.replies = OUR_REPLIES
                ours = await start(False, workers, Path(folder), OURS,
                                   BENCH_TRANSPORT="aiohttp")
            else:
                base = await start(False, workers, Path(folder) / "base", BASELINE)
                ours = await start(False, workers, Path(folder), OURS, **database)
            try:
                for run in (base, ours):
                    if poll_rtt:
                        run.emulator.stalls["getupdates"] = poll_rtt
                    await warm(run)
                for number in range(runs):
                    ids = chats(100 + number * 10_000, chats_count)
                    base_found = await burst(base, ids, 120)
                    pair = Pair(ours=await burst(ours, ids, 120), base=base_found)
                    if not (pair.ours["complete"] and pair.base["complete"]):
                        raise SystemExit(f"burst {number + 1}: a reply did not arrive")
                    pairs.append(pair)
            finally:
                await stop(ours)
                await stop(base)
    return pairs


def median_of(pairs: list[Pair], value: Callable[[Pair], float]) -> float:
    return statistics.median(value(pair) for pair in pairs)


def print_bursts(pairs: list[Pair], chats_count: int, label: str = "") -> None:
    """The medians of paired bursts (each ratio is a median of the runs' own ratios)."""
    print(f"burst of {chats_count} chats x (deal + {PLAYERS} answers){label}, median of "
          f"{len(pairs)} runs (the bot's burst right after the baseline's)")
    print(f"{'measure':<34}{'ours':>10}{'baseline':>10}{'ratio':>8}   runs' ratios")

    def row(name: str, key: str, unit: str = "", ratio: bool = True) -> None:
        ours = median_of(pairs, lambda p: p.ours[key])
        base = median_of(pairs, lambda p: p.base[key])
        ratios = [p.ours[key] / p.base[key] for p in pairs]
        shown = f"{statistics.median(ratios):>8.2f}   " + " ".join(f"{r:.2f}" for r in ratios) \
            if ratio else ""
        print(f"{name:<34}{ours:>8.1f}{unit:<2}{base:>8.1f}{unit:<2}{shown}")

    row("burst: updates per second", "rate")
    row("deals alone (/play) per second", "deal_rate")
    row("answers (/a) per second", "answer_rate")
    row("CPU per update", "cpu_ms", "ms")
    row("getUpdates during the burst", "polls", ratio=False)


AREAS = (  # where a profiled function's own time goes, by the file it is in (first match)
    ("waiting for the network (epoll)", ("select.epoll", "selectors.py")),
    ("sockets (send, recv)", ("_socket.socket",)),
    ("HTTP client (httpx, httpcore, anyio, h11)", ("httpx", "httpcore", "anyio", "h11",
                                                   "sniffio", "getpeername", "select.poll")),
    ("the bot's HTTP transport (lean_request)", ("lean_request", "asyncio/streams")),
    ("PTB objects (de_json, TelegramObject)", ("telegram/_",)),
    ("PTB application and handlers", ("telegram/ext", "telegram/request")),
    ("solver pool (to the workers and back)", ("concurrent/futures", "multiprocessing",
                                               "SimpleQueue", "posix.write", "posix.read",
                                               "_thread.lock", "pickle")),
    ("SQLite (aiosqlite, sqlite3)", ("aiosqlite", "sqlite3")),
    ("the bot's own code", ("/bot/",)),
    ("asyncio", ("asyncio",)),
    ("json", ("json",)),
)


def areas(stats: pstats.Stats) -> list[tuple[str, float]]:
    """The profile's own time per area of AREAS (and "other"), largest first."""
    totals: dict[str, float] = {}
    for (filename, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{filename}:{name}"
        area = next((label for label, marks in AREAS if any(m in where for m in marks)),
                    "other")
        totals[area] = totals.get(area, 0.0) + row[2]
    return sorted(totals.items(), key=lambda item: -item[1])


def print_capacity(ours: dict, base: dict, args: argparse.Namespace) -> None:
    print(f"(1) capacity, RATE_LIMIT=off, {args.chats} group chats x (deal + {PLAYERS} answers),"
          f" {args.workers} solver workers; the baseline: bare PTB, one message per update")
    print(f"{'measure':<44}{'ours':>10}{'baseline':>10}{'ratio':>8}{'goal':>12}")

    def row(name: str, a: float, b: float, unit: str = "", goal: str = "") -> None:
        ratio = a / b if b else float("nan")
        print(f"{name:<44}{a:>8.1f}{unit:<2}{b:>8.1f}{unit:<2}{ratio:>8.2f}{goal:>12}")

    row("a. burst: updates handled per second", ours["burst"]["rate"], base["burst"]["rate"],
        goal=">= 0.8x")
    row("   deals per second (/play)", ours["burst"]["deal_rate"], base["burst"]["deal_rate"])
    row("   answers per second (/a)", ours["burst"]["answer_rate"],
        base["burst"]["answer_rate"])
    row("   CPU per update", ours["burst"]["cpu_ms"], base["burst"]["cpu_ms"], "ms", "<= 1.3x")
    for key, name in (("steady", "b. steady"), ("half", "b'. half the bot's capacity")):
        a, b = ours[key], base.get(key)
        print(f"{name}: offered {a['offered']:.0f} updates/s")
        row("   handled updates per second", a["handled"], b["handled"] if b else float("nan"))
        row("   p50 delivery -> reply", a["p50"] * 1000, b["p50"] * 1000 if b else float("nan"),
            "ms")
        row("   p99 delivery -> reply", a["p99"] * 1000, b["p99"] * 1000 if b else float("nan"),
            "ms", "< 50 ms" if key == "half" else "")
        print(f"{'   every reply arrived':<44}{'yes' if a['complete'] else 'NO':>10}")
        if key == "half":
            print("   delivery -> reply by what the reply was (ours)")
            for kind, (count, p50, p99) in a.get("kinds", {}).items():
                print(f"     {kind:<40}{count:>8} x  p50 {p50 * 1000:>7.1f} ms  "
                      f"p99 {p99 * 1000:>7.1f} ms")
        if key == "half" and ours.get("stages"):
            print("   where the half-load run's time went (the bot's own histograms: a quantile "
                  "is its bucket's upper bound)")
            for name, count, p50, p99 in ours["stages"]:
                print(f"     {name:<40}{count:>8.0f} x  p50 <= {p50 * 1000:>6.1f} ms  "
                      f"p99 <= {p99 * 1000:>7.1f} ms")
    row("c. chatter (no round): CPU per update", ours["chatter"]["cpu_ms"],
        base["chatter"]["cpu_ms"], "ms", "<= 1x")
    print()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--rate", type=float, default=200.0, help="steady updates per second")
    parser.add_argument("--limited-chats", type=int, default=60)
    parser.add_argument("--group-burst", type=int, default=25,
                        help="questions asked in one group in a row (Telegram allows 20/min)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="50 and 20 chats")
    parser.add_argument("--profile", type=Path, help="profile the bot's burst into this file")
    parser.add_argument("--top", type=int, default=30, help="functions the profile lists")
    parser.add_argument("--bursts", type=int, default=0,
                        help="only the burst, this many times, bot and baseline side by side")
    parser.add_argument("--postgres", action="store_true",
                        help="the bot on a PostgreSQL server of its own (with --bursts)")
    parser.add_argument("--poll-rtt", type=float, default=0.0,
                        help="with --bursts: seconds each getUpdates answer is late (the round "
                             "trip to Telegram)")
    parser.add_argument("--transports", action="store_true",
                        help="with --bursts: the bot on aiohttp (ours) against the bot on its "
                             "own transport (baseline)")
    args = parser.parse_args()
    if args.bursts:
        print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        pairs = asyncio.run(paired_bursts(args.chats, args.bursts, args.workers, args.postgres,
                                          args.transports, args.poll_rtt))
        rtt = f", getUpdates {args.poll_rtt * 1000:g} ms late" if args.poll_rtt else ""
        print_bursts(pairs, args.chats, (", the bot on aiohttp against the bot on lean_request"
                     if args.transports else ", PostgreSQL" if args.postgres else ", SQLite")
                     + rtt)
        print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        return
    if args.quick:
        args.chats, args.limited_chats = 50, 20
    if args.profile:
        found = asyncio.run(profile(args.chats, args.workers, args.profile.resolve()))
        print(f"burst under cProfile: {found['rate']:.0f} updates/s, "
              f"{found['cpu_ms']:.2f} ms CPU per update")
        stats = pstats.Stats(str(args.profile))
        stats.sort_stats("tottime").print_stats(args.top)
        found_areas = areas(stats)
        busy = sum(seconds for area, seconds in found_areas if "epoll" not in area)
        print(f"{'where the time goes (own time)':<46}{'s':>8}{'of busy':>9}")
        for area, seconds in found_areas:
            share = "" if "epoll" in area else f"{seconds / busy:>8.0%}"
            print(f"{area:<46}{seconds:>8.2f}{share:>9}")
        return
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    base = asyncio.run(capacity(args.chats, args.rate, args.workers, BASELINE))
    ours = asyncio.run(capacity(args.chats, args.rate, args.workers, OURS, half=True))
    print_capacity(ours, base, args)
    lim = asyncio.run(limited(args.limited_chats, args.group_burst, args.workers))
    print(f"(2) rate limited (the bot's RateLimiter), the emulator enforcing 30/s and 20/min"
          " per group:"
          f" {args.limited_chats} chats, then {args.group_burst} questions in one group")
    print(f"{'highest messages in any second':<44}{lim['per_second']:>10}{'<= 30':>12}")
    print(f"{'highest messages to one group in a minute':<44}{lim['per_group']:>10}"
          f"{'<= 20':>12}")
    print(f"{'429 answers (retried by the bot)':<44}{lim['flood_errors']:>10}")
    print(f"{'replies / expected':<44}{lim['replies']:>6}/{lim['expected']}"
          f"{'none lost' if lim['replies'] == lim['expected'] else 'LOST':>12}")
    print(f"{'messages beyond those (round over notes)':<44}{lim['extra']:>10}")
    print(f"{'wall time':<44}{lim['elapsed']:>9.1f}s")
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
