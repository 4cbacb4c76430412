"""Memory against chats, the way players play (issues 38 and 54): does the bot's memory grow with
the chats it has seen, or with a burst?

The bot is driven unpaced: every update that can be sent is offered at once (Telegram's queue
holds them, the bot takes them as fast as it will), so the bot's own bound on updates in hand
(MAX_UPDATES_IN_FLIGHT) is all that stands between a burst and its memory. Each pass is CHATS
group chats never seen before, four new players in each, and every command in the mix
(`Mix.follow_ups`): `/play`; answers wrong (typed plainly and with `/a`); chatter, plain and
arithmetic-looking ("13-7"); `/hint` and the Hint button; `/pass`; `/stats`, `/top`, `/daily`;
and the round ended a third of the time by a right answer, a third by /reveal or the Reveal
button, a third by its time running out (in those chats the admin first sets the round to a
minute with /settings and its button). A chat's first update goes first; the rest are offered
the moment what they need is out (the answers need the deal's hand, the buttons its message).

Two runs. (1) RSS: the real bot as `python -m bot` (its own process, bench/run_bot.py) against
the emulator, PASSES passes; the bot's resident memory once idle after each, the most updates it
held at once (its own /metrics: `twentyfour_updates_in_hand_max`) and the largest getUpdates it
asked for; and, read in its process after each pass (bench/heap_stats.py, on SIGUSR1), where its
memory is — the bytes its objects use against what the allocators hold free (pymalloc's arenas
and glibc's heaps: what a burst left, not what grows with chats) — and every map of 500 entries
or more reachable from its application or a module of the bot, by name, whether or not (2)
knows it. (2) What grows, in-process: the composition root's application polling the emulator
with the bot's own poller (bot.telegram.polling), the same mix and passes; between passes the
garbage collector runs and `tracemalloc` takes a snapshot of what the bot's code and its
libraries hold (the emulator's files and this script left out: the emulator keeps every
message), its growth named by the file that allocated it; every map the bot keeps per chat,
player, round or message prints its entries and its bound (docs/architecture.md lists them).

    python bench/bench_memory.py             # 3 passes of 2,000 chats (about 23,000 updates
                                             # each); the traced run 3 passes of 500
    python bench/bench_memory.py --quick     # 3 passes of 200 chats, both runs
    python bench/bench_memory.py --rss-only / --names-only

Goals (issue 54): the second pass adds under 10 MB of RSS, the third under 5 MB; the most updates
held at once is at most MAX_UPDATES_IN_FLIGHT.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import re
import signal
import sqlite3
import sys
import tempfile
import time
import tracemalloc
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_bot_load import OURS, idle  # noqa: E402

from demo.emulator import BotApiEmulator  # noqa: E402
from demo.emulator.records import Sent  # noqa: E402
from demo.ports import free_port  # noqa: E402
from solver import first_solution  # noqa: E402

PASSES = 3
PLAYERS = 4
ROUND_SECONDS = 3600  # a round of 24 ends by a win or a reveal, however loaded the machine
SHORT_ROUND = 60  # ... but where its admin set this (a third of the chats): it runs out
BOUND = 256  # MAX_UPDATES_IN_FLIGHT: the bot's default
ENDINGS = ("win", "reveal", "timeout")
DEPTH = 30  # frames kept per allocation: enough to see whether the emulator or the bench made it
# what the emulator keeps (every message sent, as it would on Telegram's side) and what this
# script holds (its own lists) are not the bot's: left out wherever they appear in the stack
NOT_THE_BOTS = [tracemalloc.Filter(False, str(ROOT / "bot" / "demo" / "*"), all_frames=True),
                tracemalloc.Filter(False, __file__, all_frames=True),
                tracemalloc.Filter(False, str(ROOT / "bench" / "bench_bot_load.py"),
                                   all_frames=True),
                tracemalloc.Filter(False, tracemalloc.__file__)]


# --- the players ------------------------------------------------------------------------------

def hand_of(deal: Sent) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", deal.text.splitlines()[0])]


def wrong(hand: list[int], step: int) -> str:
    """A wrong answer that uses the whole hand (two kinds)."""
    plain = "+".join(map(str, hand)) if sum(hand) != 24 else "*".join(map(str, hand))
    return plain if step == 0 else "-".join(map(str, hand))


@dataclass
class Mix:
    """Who says what in one pass's chats. `players` of each chat are new to the bot; the
    first owns the group (its admin: /settings, /hint, ending a round others answered)."""

    emulator: BotApiEmulator
    first_chat: int
    count: int
    first_user: int
    chats: list[int] = field(default_factory=list)
    players: dict[int, list[dict]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.chats = [self.first_chat - i for i in range(self.count)]
        for n, chat in enumerate(self.chats):
            self.emulator.chat(chat, "group", f"G{chat}")
            self.players[chat] = [
                self.emulator.user(self.first_user + PLAYERS * n + p, f"P{p}")
                for p in range(PLAYERS)]
            self.emulator.promote(chat, self.players[chat][0]["id"], "creator")

    def ending(self, chat: int) -> str:
        return ENDINGS[(self.first_chat - chat) % len(ENDINGS)]

    async def opening(self, chat: int) -> None:
        """The chat's first update: /play; where the round is to run out, /settings first
        (its admin sets the round to SHORT_ROUND seconds, then deals)."""
        first = "/settings" if self.ending(chat) == "timeout" else "/play"
        await self.emulator.say(chat, self.players[chat][0], first)

    async def set_short_rounds(self, chat: int, panel: Sent) -> str:
        """The admin presses the panel's round length for 24 (to SHORT_ROUND s); the query."""
        return await self.emulator.press(chat, panel.message_id, self.players[chat][0],
                                         f"g:{chat}:seconds_24:{SHORT_ROUND}")

    async def play(self, chat: int) -> None:
        await self.emulator.say(chat, self.players[chat][0], "/play")

    async def follow_ups(self, chat: int, deal: Sent) -> int:
        """The rest of the chat's updates, at once, once its deal is out; how many."""
        p0, p1, p2, p3 = self.players[chat]
        hand, say = hand_of(deal), self.emulator.say
        said = 0
        for who, text in ((p1, wrong(hand, 0)), (p2, "nice hand"), (p3, "13-7"),
                          (p2, "/a " + wrong(hand, 1)), (p0, "/hint")):
            await say(chat, who, text)
            said += 1
        with contextlib.suppress(KeyError):  # the Hint button, pressed by anyone after /hint
            await self.emulator.press_button(chat, deal.message_id, p3, "Hint")
            said += 1
        for who, text in ((p1, "/pass"), (p2, "/stats"), (p3, "/top"), (p0, "/daily")):
            await say(chat, who, text)
            said += 1
        ending = self.ending(chat)
        if ending == "win":
            right = first_solution(hand)
            await say(chat, p2, f"/a {right}")
            said += 1
        elif ending == "reveal":
            if (self.first_chat - chat) % 2:
                await say(chat, p0, "/reveal")
            else:
                await self.emulator.press_button(chat, deal.message_id, p0, "Reveal")
            said += 1
        return said


def open_rounds(database: Path) -> int:
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as connection:
        return connection.execute("SELECT COUNT(*) FROM rounds WHERE status = 'open'"
                                  ).fetchone()[0]


def endings(database: Path, chats: list[int]) -> Counter[str]:
    low, high = min(chats), max(chats)
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as connection:
        return Counter(status for (status,) in connection.execute(
            "SELECT status FROM rounds WHERE chat_id BETWEEN ? AND ?", (low, high)))


def is_deal(emulator: BotApiEmulator, sent: Sent) -> bool:
    return bool(sent.reply_markup) and any(
        label == "Hint" for label, _ in emulator.buttons(sent.chat_id, sent.message_id))


def is_panel(sent: Sent) -> bool:
    rows = (sent.reply_markup or {}).get("inline_keyboard", [])
    return any(str(b.get("callback_data", "")).startswith("g:") for row in rows for b in row)


async def play_pass(emulator: BotApiEmulator, mix: Mix, database: Path,
                    timeout: float) -> dict[str, Any]:
    """One pass: every chat's first update at once, then each chat's next the moment what it
    waits for is out (the settings saved, the deal); until every round has closed and nothing
    waits at the emulator."""
    wanted, dealt, setting = set(mix.chats), set(), {}  # setting: press query -> chat
    started = time.perf_counter()
    for chat in mix.chats:
        await mix.opening(chat)
    offered = len(mix.chats)
    read = answers = 0
    ends = started + timeout
    while time.perf_counter() < ends:
        fresh = emulator.sent[read:]
        read = len(emulator.sent)
        for sent in fresh:
            if sent.chat_id not in wanted or sent.chat_id in dealt:
                continue
            if is_deal(emulator, sent):
                dealt.add(sent.chat_id)
                offered += await mix.follow_ups(sent.chat_id, sent)
            elif is_panel(sent) and sent.chat_id not in setting.values():
                setting[await mix.set_short_rounds(sent.chat_id, sent)] = sent.chat_id
                offered += 1
        fresh_answers = emulator.callback_answers[answers:]
        answers = len(emulator.callback_answers)
        for answer in fresh_answers:
            if answer.query_id in setting:  # the round's length saved: now deal
                await mix.play(setting[answer.query_id])
                offered += 1
        if len(dealt) == len(wanted) and not emulator.updates and open_rounds(database) == 0:
            break
        await asyncio.sleep(0.05)
    return {"updates": offered, "seconds": time.perf_counter() - started,
            "dealt": len(dealt), "endings": endings(database, mix.chats)}


def largest_poll(emulator: BotApiEmulator) -> int:
    asked = [int(params.get("limit") or 100) for method, params, _ in emulator.calls
             if method == "getUpdates"]
    return max(asked, default=0)


# --- (1) the bot's own process ----------------------------------------------------------------

def rss_of(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def scrape(port: int, name: str) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return math.nan


async def heap_of(process: asyncio.subprocess.Process, path: Path) -> dict[str, Any]:
    """Where the bot's memory is (bench/heap_stats.py), read in its process on SIGUSR1."""
    path.unlink(missing_ok=True)
    process.send_signal(signal.SIGUSR1)
    for _ in range(200):
        await asyncio.sleep(0.05)
        if path.exists():
            return dict(json.loads(path.read_text()))
    return {}


def heap_row(phase: str, heap: dict[str, Any]) -> str:
    """The objects' bytes (pymalloc's blocks in use, glibc's in use and mapped) against what
    the allocators hold free (pymalloc's arenas less their blocks in use; glibc's free)."""
    if not heap:
        return f"{phase:<10} (no reading)"
    mb = 2**20
    used = heap["blocks_used"] + heap.get("malloc_used", 0) + heap.get("malloc_mapped", 0)
    free = heap["arenas"] * mb - heap["blocks_used"] + heap.get("malloc_free", 0)
    return (f"{phase:<10} {heap['VmRSS'] / 1024:8.1f} {heap['RssAnon'] / 1024:8.1f} "
            f"{used / mb:9.1f} {free / mb:9.1f} {heap['arenas']:7d} {heap['arenas_highest']:6d} "
            f"{heap['blocks_used'] / mb:9.1f} {heap.get('malloc_used', 0) / mb:9.1f} "
            f"{heap.get('malloc_free', 0) / mb:9.1f}")


def print_maps(phases: list[str], heaps: list[dict[str, Any]]) -> None:
    """The maps of 500 entries or more in the bot's process at each reading, found by walking
    its application (bench/heap_stats.py): named or not in the traced run's table."""
    names = sorted({name for heap in heaps for name in heap.get("maps", {})})
    if not names:
        return
    print("\nmaps of 500 entries or more in the bot's process, at each phase: entries, and KB "
          "with what only\nthe map holds (its keys and values):\n")
    print(f"{'map':<48}" + "".join(f"{phase:>16}" for phase in phases))
    for name in names:
        cells = []
        for heap in heaps:
            entries, held = heap.get("maps", {}).get(name, (0, 0))
            cells.append(f"{entries:>8} {held / 1024:>7.0f}" if held >= 0 else f"{entries:>8} "
                         f"{'':>7}")
        print(f"{name:<48}" + "".join(cells))


async def rss(count: int, passes: int, bound: int) -> None:
    """The bot's own process: its RSS after start-up and after each pass of new chats."""
    emulator = BotApiEmulator()
    await emulator.start()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "memory.sqlite3"
        heap_file = Path(folder) / "heap.json"
        env = {**os.environ, "TELEGRAM_BOT_TOKEN": emulator.token,
               "TELEGRAM_BASE_URL": emulator.base_url, "DATABASE_PATH": str(database),
               "ROUND_SECONDS": str(ROUND_SECONDS), "LOG_LEVEL": "WARNING",
               "SOLVER_WORKERS": "1", "RATE_LIMIT": "off", "METRICS_PORT": str(port),
               "MAX_UPDATES_IN_FLIGHT": str(bound), "BENCH_HEAP": str(heap_file)}
        process = await asyncio.create_subprocess_exec(sys.executable, *OURS, cwd=ROOT, env=env,
                                                       stdin=asyncio.subprocess.DEVNULL)
        try:
            for _ in range(2400):  # ready once it polls
                if any(c[0] == "getUpdates" for c in emulator.calls):
                    break
                await asyncio.sleep(0.05)
            else:
                raise SystemExit("the bot did not start")
            await idle(process)
            rows = [("started", rss_of(process.pid), 0, 0.0, Counter[str]())]
            heaps = [await heap_of(process, heap_file)]
            for number in range(passes):
                mix = Mix(emulator, -2_000_000 - number * 100_000, count,
                          10_000_000 + number * 1_000_000)
                found = await play_pass(emulator, mix, database, 1800.0 + count)
                await idle(process)
                rows.append((f"pass {number + 1}", rss_of(process.pid), found["updates"],
                             found["seconds"], found["endings"]))
                heaps.append(await heap_of(process, heap_file))
                emulator.sent.clear()  # what the emulator keeps is the bench's memory, not
                emulator.edits.clear()  # the bot's; its lists only slow the next pass
                emulator.calls[:] = [c for c in emulator.calls if c[0] == "getUpdates"]
                emulator.journal.clear()
                emulator.updates_log.clear()
            most = scrape(port, "twentyfour_updates_in_hand_max")
        finally:
            process.terminate()
            await process.wait()
            await emulator.stop()
    print(f"the bot's process (python -m bot), {count} new group chats a pass, "
          f"MAX_UPDATES_IN_FLIGHT={bound}, unpaced\n")
    print(f"{'phase':<10} {'RSS MB':>8} {'adds MB':>8} {'updates':>8} {'seconds':>8} "
          f"{'KB a chat':>10}   rounds")
    for i, (phase, resident, updates, seconds, ended) in enumerate(rows):
        adds = resident - rows[i - 1][1] if i else 0.0
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(ended.items()))
        print(f"{phase:<10} {resident:8.1f} {adds:8.1f} {updates:8d} {seconds:8.1f} "
              f"{adds * 1024 / count if i else 0.0:10.2f}   {kinds}")
    print(f"\nmost updates held at once: {most:.0f} (bound {bound}); the largest getUpdates "
          f"asked for {largest_poll(emulator)}")
    print("\nwhere the bot's memory is, MB (objects: the bytes its objects use; free: what its "
          "allocators hold\nunused — pymalloc's arenas less their blocks in use, glibc's free "
          "chunks):\n")
    print(f"{'phase':<10} {'RSS':>8} {'anon':>8} {'objects':>9} {'free':>9} {'arenas':>7} "
          f"{'most':>6} {'pymalloc':>9} {'malloc':>9} {'m. free':>9}")
    for (phase, *_), heap in zip(rows, heaps, strict=True):
        print(heap_row(phase, heap))
    print_maps([phase for phase, *_ in rows], heaps)
    if passes >= 3:
        print(f"second pass adds {rows[2][1] - rows[1][1]:.1f} MB (goal < 10 MB), third "
              f"{rows[3][1] - rows[2][1]:.1f} MB (goal < 5 MB)\n")


# --- (2) what grows, in-process ----------------------------------------------------------------

def bots(snapshot: tracemalloc.Snapshot) -> tracemalloc.Snapshot:
    """What the bot and its libraries hold (not the emulator's, nor this script's)."""
    return snapshot.filter_traces(NOT_THE_BOTS)


def by_bot_line(snapshot: tracemalloc.Snapshot) -> Counter[str]:
    """Bytes held, by the bot's own line that asked for them (the innermost frame in bot/):
    a cache's entries are named by the line that stores into it, not by cachetools."""
    mine = str(ROOT / "bot") + os.sep
    held: Counter[str] = Counter()
    for trace in snapshot.traces:
        frames = list(trace.traceback)[::-1]  # the most recent first
        where = next((f for f in frames if f.filename.startswith(mine)), None)
        key = (f"{os.path.relpath(where.filename, ROOT)}:{where.lineno}" if where else
               f"(no bot frame) {os.path.relpath(frames[0].filename, ROOT)}")
        held[key] += trace.size
    return held


def held(snapshot: tracemalloc.Snapshot) -> int:
    return sum(stat.size for stat in snapshot.statistics("filename"))


def _bound(cache: Any, constant: float | None = None) -> float:
    """A cachetools cache's bound (maxsize); else the constant its hand-made bound reads."""
    return getattr(cache, "maxsize", constant if constant is not None else math.inf)


def cache_sizes(bot: Any) -> dict[str, tuple[int, str]]:
    """Every in-process map keyed by chat, player, round or message: its entries, and its bound
    (a number: the cache's maxsize; "in use": it holds only what is open or in flight)."""
    from bot.play.dealing import stock
    from bot.play.round import table
    from bot.play.solving import solving
    from bot.runtime import pool

    services, app = bot.services, bot.application
    in_use = -1.0  # a map of what is open or in flight: bounded by its use, nothing to evict
    maps: dict[str, Callable[[], tuple[Any, float]]] = {
        "people: chats' names": lambda: (services.people._chats, _bound(services.people._chats)),
        "people: players' names": lambda: (services.people._users,
                                           _bound(services.people._users)),
        "people: being stored": lambda: (services.people._storing, in_use),
        "people: languages": lambda: (services.people._languages,
                                      _bound(services.people._languages)),
        "settings: chats": lambda: (services.settings._changed,
                                    _bound(services.settings._changed)),
        "table: open rounds": lambda: (services.table._open, in_use),
        "table: rounds just won": lambda: (services.table._won, _bound(services.table._won)),
        "table: result heads": lambda: (services.table._heads,
                                        _bound(services.table._heads, table.TEXTS_KEPT)),
        "live puzzles": lambda: (services.table.live._live, in_use),
        "dealer: cold starts": lambda: (services.rounds.dealer._cold, in_use),
        "rounds: dealing locks": lambda: (services.rounds._dealing, in_use),
        "throttle: buckets": lambda: (services.rounds.throttle.buckets,
                                      _bound(services.rounds.throttle.buckets)),
        "work budget: buckets": lambda: (services.solving.budget._buckets,
                                         _bound(services.solving.budget._buckets)),
        "daily: shown": lambda: (services.community.daily._shown,
                                 _bound(services.community.daily._shown)),
        "solving: inline cache": lambda: (services.solving._cache,
                                          _bound(services.solving._cache, solving.INLINE_CACHE)),
        "solving: running": lambda: (services.solving._running, in_use),
        "analyses (bound: bytes held)": lambda: (services.rounds.analyses._known,
                                                 services.rounds.analyses.kept),
        "adaptive: recent hands": lambda: (services.rounds.adaptive._recent,
                                           _bound(services.rounds.adaptive._recent)),
        "stock: shelves": lambda: (services.rounds.dealer.stock.shelves, stock.KINDS_KEPT),
        "privacy: questions": lambda: (services.community.privacy._pending,
                                       _bound(services.community.privacy._pending)),
        "members: answers": lambda: (app.bot_data.members._known,
                                     _bound(app.bot_data.members._known)),
        "refusals: chats": lambda: (app.bot_data.refusals._refused,
                                    _bound(app.bot_data.refusals._refused)),
        "fair lane: chats served": lambda: (app.update_processor._served,  # type: ignore
                                            _bound(app.update_processor._served)),  # type: ignore
        "fair lane: chats waiting": lambda: (app.update_processor._waiting, in_use),  # type: ignore
        "intake: updates in hand": lambda: (range(app.update_queue.in_hand),  # type: ignore
                                            app.update_queue.bound),  # type: ignore
        "heavy lane: people served": lambda: (
            bot.pool.heavy.slots._served, _bound(bot.pool.heavy.slots._served, pool.SERVED_KEPT)),
        "jobs": lambda: (app.job_queue.jobs() if app.job_queue else (), in_use),
        "alarms": lambda: (services.table.scheduler._pending, in_use),
        "PTB chat_data": lambda: (app.chat_data, in_use),
        "PTB user_data": lambda: (app.user_data, in_use),
        "PTB persistence marks": lambda: (  # nothing: the bot has no PTB persistence
            [*app._chat_ids_to_be_updated_in_persistence,  # type: ignore[attr-defined]
             *app._user_ids_to_be_updated_in_persistence], 0),  # type: ignore[attr-defined]
    }
    limiter = app.bot.rate_limiter
    if limiter is not None and hasattr(limiter, "chats"):  # idle ones go past 512
        maps["rate limiter: chats"] = lambda: (limiter.chats.windows, 512)  # type: ignore
    found = {}
    for name, of in maps.items():
        try:
            kept, bound = of()
        except AttributeError:  # a map this checkout does not have (or names otherwise)
            found[name] = (-1, "?")
            continue
        found[name] = (len(kept), "in use" if bound == in_use else
                       "none" if bound == math.inf else f"{bound:,.0f}")
    return found


async def traced(count: int, passes: int, bound: int) -> None:
    """The composition root's bot in this process, polling the emulator with its own poller,
    `passes` passes of the mix; what it holds after each, and what grew."""
    from bot.runtime.config import Config
    from bot.runtime.pool import SolverPool
    from bot.telegram.app import ALLOWED_UPDATES, intake_of
    from bot.telegram.polling import Poller
    from bot.wiring import running

    emulator = BotApiEmulator()
    await emulator.start()
    pool = SolverPool(1)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "memory.sqlite3"
        config = Config(token=emulator.token, base_url=emulator.base_url,
                        database_path=database, solver_workers=1, rate_limit=False,
                        round_seconds=float(ROUND_SECONDS), max_updates_in_flight=bound)
        started = contextlib.AsyncExitStack()  # the composition root's bot, closed at the end
        bot = await started.enter_async_context(running(config, pool))
        app = bot.application
        stop = asyncio.Event()
        poller = Poller(app.bot, intake_of(app), ALLOWED_UPDATES)
        polling = asyncio.create_task(poller.run(stop))
        tracemalloc.start(DEPTH)
        try:
            gc.collect()
            first = bots(tracemalloc.take_snapshot())
            rows: list[tuple[str, int, int]] = [("started", held(first), 0)]
            snapshots = [first]
            for number in range(passes):
                mix = Mix(emulator, -2_000_000 - number * 100_000, count,
                          10_000_000 + number * 1_000_000)
                found = await play_pass(emulator, mix, database, 1800.0 + count * 3.0)
                emulator.sent.clear()
                emulator.edits.clear()
                emulator.calls.clear()
                emulator.journal.clear()
                emulator.updates_log.clear()
                gc.collect()
                snapshot = bots(tracemalloc.take_snapshot())
                snapshots.append(snapshot)
                rows.append((f"pass {number + 1}", held(snapshot), found["updates"]))
            print(f"in-process, traced: {count} new group chats a pass, the same mix\n")
            print(f"{'phase':<10} {'bot holds MB':>13} {'updates':>8} {'KB a chat':>10}")
            for i, (phase, holds, updates) in enumerate(rows):
                per = (holds - rows[i - 1][1]) / count / 1024 if i else 0.0
                print(f"{phase:<10} {holds / 2**20:13.2f} {updates:8d} {per:10.2f}")
            print(f"\nmost updates held at once: {intake_of(app).most} (bound {bound})")
            for i in range(2, len(snapshots)):
                print(f"\nwhat grew in pass {i}, by file (top 12):")
                for stat in snapshots[i].compare_to(snapshots[i - 1], "filename")[:12]:
                    print(f"  {stat.size_diff / 1024:9.1f} KB  {stat.traceback[0].filename}")
                grown = by_bot_line(snapshots[i])
                grown.subtract(by_bot_line(snapshots[i - 1]))
                print(f"\nwhat grew in pass {i}, by the bot's line that asked (top 15):")
                for line, size in sorted(grown.items(), key=lambda kv: -abs(kv[1]))[:15]:
                    print(f"  {size / 1024:9.1f} KB  {line}")
            print("\nmaps kept in memory (entries, bound):")
            for name, (size, kept) in cache_sizes(bot).items():
                print(f"  {name:<28} {size:>8}  {kept:>8}")
        finally:
            tracemalloc.stop()
            stop.set()
            await polling
            await started.aclose()
            pool.shutdown()
            await emulator.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=2000)
    parser.add_argument("--traced-chats", type=int, default=500,
                        help="chats a pass of the traced run (tracing slows the bot)")
    parser.add_argument("--passes", type=int, default=PASSES)
    parser.add_argument("--bound", type=int, default=BOUND, help="MAX_UPDATES_IN_FLIGHT")
    parser.add_argument("--quick", action="store_true", help="200 chats a pass")
    parser.add_argument("--rss-only", action="store_true")
    parser.add_argument("--names-only", action="store_true")
    arguments = parser.parse_args()
    count = 200 if arguments.quick else arguments.chats
    traced_count = 200 if arguments.quick else arguments.traced_chats
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if not arguments.names_only:
        asyncio.run(rss(count, arguments.passes, arguments.bound))
    if not arguments.rss_only:
        asyncio.run(traced(traced_count, arguments.passes, arguments.bound))
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()

