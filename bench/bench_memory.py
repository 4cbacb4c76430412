"""Memory against chats (issue 38, item 4): does the bot's memory grow with the chats it has seen?

Two runs. (1) RSS: the real bot as `python -m bot` (its own process, as bench/bench_bot_load.py
starts it) against the emulator, a first pass of CHATS group chats, each a round (a /play, two
wrong answers, a right one) and chatter (six plain messages), then as many new chats; the bot's
resident memory after each phase, read from /proc once it is idle. (2) What grows, in-process:
the real Application (the composition root's, with its fair processor, rate limiter and JobQueue)
plays in this process against the Bot API emulator: a first pass of CHATS group chats, each with a
round (a /play, wrong answers, a right one) and chatter, UPDATES updates in all; then the same again
from as many new chats. Between phases the garbage collector runs and `tracemalloc` takes a
snapshot; what the bot's own code and its libraries hold (the emulator's files left out: it keeps
every message it was sent) is summed per phase and its growth named by the file that allocated it;
every map the bot keeps per chat, player, round or message prints its entries and its bound
(docs/architecture.md lists them). The process's RSS is printed too, with the emulator in it: it
keeps every message it was sent, so that RSS is not the bot's (the first run's is).

    python bench/bench_memory.py            # 2,000 + 2,000 chats, 20,000 updates a pass
    python bench/bench_memory.py --quick    # 200 + 200 chats
    python bench/bench_memory.py --rss-only / --names-only

Goals: the second pass adds under 10 MB to what the bot holds, an idle chat costs under 5 KB.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import math
import resource
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_bot_load import burst, chats, chatter, idle, start, stop  # noqa: E402

from bot.demo.emulator import BotApiEmulator  # noqa: E402
from bot.runtime.config import Config  # noqa: E402
from bot.runtime.pool import SolverPool  # noqa: E402
from solver import first_solution  # noqa: E402

PLAYERS = 3
BATCH = 100  # chats playing at once in the RSS run (all at once would measure the queue's peak)
DEPTH = 30  # frames kept per allocation: enough to see whether the emulator or the bench made it
# what the emulator keeps (every message sent, as it would on Telegram's side) and what this
# script holds (its own lists) are not the bot's: left out wherever they appear in the stack
NOT_THE_BOTS = [tracemalloc.Filter(False, str(ROOT / "bot" / "demo" / "*"), all_frames=True),
                tracemalloc.Filter(False, __file__),
                tracemalloc.Filter(False, tracemalloc.__file__)]


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bots(snapshot: tracemalloc.Snapshot) -> tracemalloc.Snapshot:
    """What the bot and its libraries hold (not the emulator's, nor this script's)."""
    return snapshot.filter_traces(NOT_THE_BOTS)


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
        "people: languages (stored)": lambda: (services.people._languages, math.inf),
        "settings: chats (stored)": lambda: (services.settings._changed, math.inf),
        "table: open rounds": lambda: (services.table._open, in_use),
        "table: rounds just won": lambda: (services.table._won, in_use),
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
        "analyses (by solutions)": lambda: (services.rounds.analyses._known,
                                            services.rounds.analyses.kept),
        "adaptive: recent hands": lambda: (services.rounds.adaptive._recent,
                                           _bound(services.rounds.adaptive._recent)),
        "stock: shelves": lambda: (services.rounds.dealer.stock.shelves, stock.KINDS_KEPT),
        "privacy: questions": lambda: (services.community.privacy._pending, in_use),
        "members: answers": lambda: (app.bot_data.members._known,
                                     _bound(app.bot_data.members._known)),
        "fair lane: users served": lambda: (app.update_processor._served,  # type: ignore
                                            _bound(app.update_processor._served)),  # type: ignore
        "fair lane: users waiting": lambda: (app.update_processor._waiting, in_use),  # type: ignore
        "heavy lane: people served": lambda: (
            bot.pool.heavy.slots._served, _bound(bot.pool.heavy.slots._served, pool.SERVED_KEPT)),
        "jobs": lambda: (app.job_queue.jobs() if app.job_queue else (), in_use),
        "PTB chat_data": lambda: (app.chat_data, in_use),
        "PTB user_data": lambda: (app.user_data, in_use),
    }
    limiter = app.bot.rate_limiter
    if limiter is not None and hasattr(limiter, "chats"):  # idle ones go past 512
        maps["rate limiter: chats"] = lambda: (limiter.chats.windows, 512)  # type: ignore
    found = {}
    for name, of in maps.items():
        try:
            held, bound = of()
        except AttributeError:  # a map this checkout does not have (or names otherwise)
            found[name] = (-1, "?")
            continue
        found[name] = (len(held), "in use" if bound == in_use else
                       "none" if bound == math.inf else f"{bound:,.0f}")
    return found


class Feeder:
    def __init__(self, bot: Any, emulator: BotApiEmulator) -> None:
        self.bot = bot
        self.emulator = emulator
        self.ids = itertools.count(1)
        self.users = itertools.count(10_000)

    async def send(self, chat: int, user: dict, text: str) -> None:
        from telegram import Update

        message = await self.emulator.say(chat, user, text, None, "group")
        self.emulator.updates.clear()
        app = self.bot.application
        await app.process_update(Update.de_json({"update_id": next(self.ids),
                                                 "message": message}, app.bot))

    async def chat(self, chat: int, per_chat: int) -> int:
        """One group's life: a round with wrong answers and a right one, then chatter."""
        self.emulator.chat(chat, "group", f"G{chat}")
        users = [{"id": next(self.users), "is_bot": False, "first_name": f"P{n}"}
                 for n in range(PLAYERS)]
        await self.send(chat, users[0], "/play")
        sent = 1
        current = self.bot.services.rounds.open_round(chat)
        if current is not None:
            for user in users[1:]:
                await self.send(chat, user, "+".join(map(str, current.hand)) + "+1")
                sent += 1
            answer = first_solution(current.hand, current.target)
            await self.send(chat, users[0], f"/a {answer}")
            sent += 1
        while sent < per_chat:
            await self.send(chat, users[sent % PLAYERS], f"hello {sent}")
            sent += 1
        return sent


async def run(chats: int, per_chat: int) -> None:
    from bot.wiring import build_bot  # the in-process run: this checkout's composition root

    emulator = BotApiEmulator()
    await emulator.start()
    pool = SolverPool(1)
    with tempfile.TemporaryDirectory() as folder:
        config = Config(token=emulator.token, base_url=emulator.base_url,
                        database_path=Path(folder) / "memory.sqlite3", solver_workers=1,
                        rate_limit=True, round_seconds=120.0)
        bot = build_bot(config, pool, webapp=None)
        app = bot.application
        await app.initialize()
        assert app.post_init is not None
        await app.post_init(app)
        await app.start()
        feeder = Feeder(bot, emulator)
        tracemalloc.start(DEPTH)
        try:
            rows: list[tuple[str, float, int, int]] = []
            gc.collect()
            first = bots(tracemalloc.take_snapshot())
            rows.append(("started", rss_mb(), held(first), 0))
            snapshots = [first]
            for phase, base in (("first chats", -2_000_000), ("new chats", -3_000_000)):
                updates = 0
                for n in range(chats):
                    updates += await feeder.chat(base - n, per_chat)
                gc.collect()
                snapshot = bots(tracemalloc.take_snapshot())
                snapshots.append(snapshot)
                rows.append((phase, rss_mb(), held(snapshot), updates))
            print(f"{chats} chats a pass, {per_chat} updates a chat\n")
            print(f"{'phase':<14} {'RSS MB':>8} {'bot holds MB':>13} {'updates':>8} "
                  f"{'per chat KB':>12}")
            for i, (phase, rss, holds, updates) in enumerate(rows):
                per = (holds - rows[i - 1][2]) / chats / 1024 if i else 0.0
                print(f"{phase:<14} {rss:8.1f} {holds / 2**20:13.2f} {updates:8d} {per:12.2f}")
            second = (rows[2][2] - rows[1][2]) / 2**20
            print(f"\nsecond pass adds {second:.2f} MB to what the bot holds (goal < 10 MB); "
                  f"{(rows[2][2] - rows[1][2]) / chats / 1024:.2f} KB a chat (goal < 5 KB)")
            print("\nwhat grew in the second pass, by file (top 12):")
            for stat in snapshots[2].compare_to(snapshots[1], "filename")[:12]:
                print(f"  {stat.size_diff / 1024:9.1f} KB  {stat.traceback[0].filename}")
            print("\nmaps kept in memory (entries, bound):")
            for name, (size, bound) in cache_sizes(bot).items():
                print(f"  {name:<28} {size:>8}  {bound:>8}")
        finally:
            tracemalloc.stop()
            await app.stop()
            await app.shutdown()
            if app.post_shutdown is not None:
                await app.post_shutdown(app)
            pool.shutdown()
            await emulator.stop()


def rss_of(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def rss(count: int) -> None:
    """The bot's own process: its RSS after start-up and after each pass of chats."""
    with tempfile.TemporaryDirectory() as folder:
        run = await start(False, 1, Path(folder), ROUND_SECONDS="600", RATE_LIMIT="on")
        try:
            await idle(run.process)
            rows = [("started", rss_of(run.process.pid), 0)]
            for phase, first in (("first chats", 0), ("new chats", count)):
                updates = 0
                for batch in range(first, first + count, BATCH):  # chats play BATCH at a time,
                    ids = chats(batch, min(BATCH, first + count - batch))  # as a busy hour would
                    played = await burst(run, ids, 600)
                    assert played["complete"], "a round was lost"
                    updates += 4 * len(ids) + (await chatter(run, ids, 6, answered=False))[
                        "updates"]
                await idle(run.process)
                rows.append((phase, rss_of(run.process.pid), updates))
        finally:
            await stop(run)
    print(f"the bot's process (python -m bot), {count} chats a pass\n")
    print(f"{'phase':<14} {'RSS MB':>8} {'updates':>8} {'KB a chat':>10}")
    for i, (phase, resident, updates) in enumerate(rows):
        per = (resident - rows[i - 1][1]) * 1024 / count if i else 0.0
        print(f"{phase:<14} {resident:8.1f} {updates:8d} {per:10.2f}")
    print(f"\nsecond pass adds {rows[2][1] - rows[1][1]:.1f} MB of RSS (goal < 10 MB); "
          f"{(rows[2][1] - rows[1][1]) * 1024 / count:.2f} KB a chat (goal < 5 KB)\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=2000)
    parser.add_argument("--per-chat", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="200 chats a pass")
    parser.add_argument("--rss-only", action="store_true")
    parser.add_argument("--names-only", action="store_true")
    arguments = parser.parse_args()
    count = 200 if arguments.quick else arguments.chats
    if not arguments.names_only:
        asyncio.run(rss(count))
    if not arguments.rss_only:
        asyncio.run(run(count, arguments.per_chat))


if __name__ == "__main__":
    main()
