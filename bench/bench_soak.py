"""A day in the life (issue 54): does the bot's memory stay flat over a long run?

The real bot (`python -m bot`, its own process) against the emulator for a simulated day: a clock
the bench moves instead of waiting. Both processes read the time of day (`time.time`: the game's
clock, message dates, round deadlines, the caches timed on the game's clock) as the real clock
plus an offset in a small shared file (`--bot` runs the bot with that clock installed before
anything is imported); at the end of each simulated hour, once the bot is idle, the bench moves
the offset on to the next hour — so round deadlines pass (the sweep ends the rounds left open),
the caches timed on the game's clock expire, the daily puzzle changes at midnight, as a day
would have them. The event loop's clock (`time.monotonic`) is left alone: moved, every timeout in
flight would fire at once.

Each hour, CHATS / HOURS group chats never seen before speak, and then go quiet for good: two in
five play a round (/play, two wrong answers, then a win, a reveal or nothing: its time runs out
at the hour's end), the others chat, ask /stats, /top or /daily; a tenth of the last hour's chats
come back with one more word. Three times a day a burst of BURST updates arrives at once (a
thousand chats, ten updates each), as after a restart, at a quarter, half and three quarters
of the day. The bot's RSS is sampled every second,
and once idle at each hour's end, when the bench also reads where its memory is (in its process,
bench/heap_stats.py, as bench/bench_memory.py does): its objects against what its allocators
hold free, and its maps of 500 entries or more.

    python bench/bench_soak.py                 # 50,000 chats over 24 simulated hours
    python bench/bench_soak.py --chats 5000 --hours 6

Goal (docs/benchmarks.md): RSS never above CEILING_MB, and at the day's end within 10 % of its
level after the first hour.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import mmap
import os
import re
import sqlite3
import struct
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CLOCK = "TWENTYFOUR_SOAK_CLOCK"  # the shared file with the clock's offset (8 bytes, a double)
CHATS, HOURS = 50_000, 24
BURST = 10_000  # at a quarter, half and three quarters of the day
CEILING_MB = 300.0  # docs/benchmarks.md
PLAYERS = 3
IDLE_SECONDS = 1.0


def install_clock(path: str) -> None:
    """time.time from now on: the real clock plus the file's offset. Done before the bot is
    imported, so that whatever reads the time of day reads it."""
    shared = open(path, "r+b")  # noqa: SIM115 (kept open as long as the process lives)
    view = mmap.mmap(shared.fileno(), 8)
    real_time = time.time

    def offset() -> float:
        return float(struct.unpack_from("d", view)[0])

    time.time = lambda: real_time() + offset()


class Clock:
    """The bench's side of the shared clock: it moves the offset on."""

    def __init__(self, path: Path) -> None:
        path.write_bytes(struct.pack("d", 0.0))
        self.file = path.open("r+b")
        self.view = mmap.mmap(self.file.fileno(), 8)

    @property
    def offset(self) -> float:
        return float(struct.unpack_from("d", self.view)[0])

    def move(self, seconds: float) -> None:
        struct.pack_into("d", self.view, 0, self.offset + seconds)


def run_bot() -> int:
    """The bot as the other benches run it (bench/run_bot.py: on SIGUSR1 it writes where its
    memory is), on the moved clock."""
    install_clock(os.environ[CLOCK])
    sys.path.insert(0, str(ROOT))
    sys.argv[1:] = []
    from bench import run_bot as runner

    return runner.main()


# --- the bench's side -------------------------------------------------------------------------

def rss_of(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_of(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


@dataclass
class Day:
    emulator: object
    process: asyncio.subprocess.Process
    database: Path
    samples: list[float] = field(default_factory=list)
    hourly: list[tuple[int, float, int]] = field(default_factory=list)
    updates: int = 0
    next_user: int = 20_000_000

    def players(self, count: int) -> list[dict]:
        made = [self.emulator.user(self.next_user + n, f"P{n}")  # type: ignore[attr-defined]
                for n in range(count)]
        self.next_user += count
        return made

    async def say(self, chat: int, user: dict, text: str) -> None:
        await self.emulator.say(chat, user, text)  # type: ignore[attr-defined]
        self.updates += 1

    async def idle(self, limit: float = 3600.0) -> None:
        """Until the emulator holds no update for the bot and the bot's CPU is still."""
        ends = time.monotonic() + limit
        last, still = cpu_of(self.process.pid), 0
        while still < 2 and time.monotonic() < ends:
            await asyncio.sleep(IDLE_SECONDS / 2)
            now = cpu_of(self.process.pid)
            waiting = bool(self.emulator.updates)  # type: ignore[attr-defined]
            still = still + 1 if now - last <= 1 and not waiting else 0
            last = now

    async def sample(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.samples.append(rss_of(self.process.pid))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)


def hand_of(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text.splitlines()[0])]


async def one_hour(day: Day, hour: int, chats: list[int], returning: list[int]) -> None:
    """The hour's chats at once; a round's answers once its deal is out."""
    from solver import first_solution

    emulator = day.emulator
    people: dict[int, list[dict]] = {}
    playing: dict[int, str] = {}
    read = len(emulator.sent)  # type: ignore[attr-defined]
    for n, chat in enumerate(chats):
        emulator.chat(chat, "group", f"G{chat}")  # type: ignore[attr-defined]
        people[chat] = day.players(PLAYERS)
        emulator.promote(chat, people[chat][0]["id"], "creator")  # type: ignore[attr-defined]
        kind = n % 10
        if kind < 4:
            playing[chat] = ("win", "reveal", "timeout")[n % 3]
            await day.say(chat, people[chat][0], "/play")
        elif kind < 7:
            await day.say(chat, people[chat][1], "hi all")
            await day.say(chat, people[chat][2], "13-7")
        elif kind < 9:
            await day.say(chat, people[chat][1], ("/stats", "/top")[n % 2])
            await day.say(chat, people[chat][2], "nice one")
        else:
            await day.say(chat, people[chat][0], "/daily")
    for chat in returning:
        await day.say(chat, day.players(1)[0], "/top" if chat % 2 else "back again")
    dealt: set[int] = set()
    quiet_since = time.monotonic()
    while len(dealt) < len(playing):
        fresh = emulator.sent[read:]  # type: ignore[attr-defined]
        read = len(emulator.sent)  # type: ignore[attr-defined]
        if fresh or emulator.updates:  # type: ignore[attr-defined]
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since > 10:  # a /play that dealt nothing: not waited
            break
        for sent in fresh:
            ending = playing.get(sent.chat_id)
            if ending is None or sent.chat_id in dealt or not sent.reply_markup:
                continue
            dealt.add(sent.chat_id)
            hand = hand_of(sent.text)
            p0, p1, p2 = people[sent.chat_id]
            await day.say(sent.chat_id, p1, "+".join(map(str, hand)))
            await day.say(sent.chat_id, p2, "/a " + "-".join(map(str, hand)))
            if ending == "win":
                await day.say(sent.chat_id, p2, f"/a {first_solution(hand)}")
            elif ending == "reveal":
                await day.say(sent.chat_id, p0, "/reveal")
        await asyncio.sleep(0.05)


async def burst(day: Day, first_chat: int) -> None:
    """BURST updates at once: a thousand chats, ten each, as after a restart."""
    lines = ("/play", "hi", "13-7", "/top", "nice hand", "/stats", "1+2", "/help", "ok", "gg")
    chats = BURST // len(lines)
    for n in range(chats):
        chat = first_chat - n
        day.emulator.chat(chat, "group", f"B{chat}")  # type: ignore[attr-defined]
        speakers = day.players(PLAYERS)
        for i, line in enumerate(lines):
            await day.say(chat, speakers[i % PLAYERS], line)


def open_rounds(database: Path) -> int:
    with contextlib.closing(sqlite3.connect(database, timeout=30)) as connection:
        return connection.execute("SELECT COUNT(*) FROM rounds WHERE status = 'open'"
                                  ).fetchone()[0]


async def soak(chats: int, hours: int, bound: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        clock = Clock(Path(folder) / "clock")
        install_clock(str(Path(folder) / "clock"))  # the emulator's dates follow it too
        sys.path.insert(0, str(ROOT))
        sys.path.insert(0, str(ROOT / "bench"))
        from bench_memory import heap_of, heap_row, print_maps

        from demo.emulator import BotApiEmulator

        emulator = BotApiEmulator()
        await emulator.start()
        database = Path(folder) / "soak.sqlite3"
        heap_file = Path(folder) / "heap.json"
        env = {**os.environ, "TELEGRAM_BOT_TOKEN": emulator.token,
               "TELEGRAM_BASE_URL": emulator.base_url, "DATABASE_PATH": str(database),
               "LOG_LEVEL": "WARNING", "SOLVER_WORKERS": "1", "RATE_LIMIT": "off",
               "MAX_UPDATES_IN_FLIGHT": str(bound), CLOCK: str(Path(folder) / "clock"),
               "BENCH_HEAP": str(heap_file)}
        process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--bot", cwd=ROOT, env=env,
            stdin=asyncio.subprocess.DEVNULL)
        day = Day(emulator, process, database)
        heaps: list[tuple[str, dict[str, Any]]] = []  # where its memory is, each hour
        stop = asyncio.Event()
        sampling = None
        try:
            while not any(c[0] == "getUpdates" for c in emulator.calls):
                await asyncio.sleep(0.1)
            await day.idle()
            # read once idle too: the reading walks the bot's objects in its process, and what
            # that walk allocates stays resident (pages touched), so without it the first hour
            # alone would be read before any walk (about 1 MB lower than its day, measured)
            heaps.append(("started", await heap_of(process, heap_file)))
            started_rss = rss_of(process.pid)
            sampling = asyncio.create_task(day.sample(stop))
            per_hour = chats // hours
            previous: list[int] = []
            for hour in range(hours):
                began = time.monotonic()
                mine = [-30_000_000 - hour * 100_000 - n for n in range(per_hour)]
                await one_hour(day, hour, mine, previous[::10])
                if hour in {hours // 4, hours // 2, 3 * hours // 4}:
                    await burst(day, -80_000_000 - hour * 100_000)
                await day.idle()
                day.hourly.append((hour + 1, rss_of(process.pid), day.updates))
                heaps.append((f"hour {hour + 1}", await heap_of(process, heap_file)))
                print(f"hour {hour + 1:2d}: RSS {day.hourly[-1][1]:6.1f} MB, "
                      f"{day.updates} updates so far, {open_rounds(database)} rounds open "
                      f"({time.monotonic() - began:.0f} s real)", flush=True)
                emulator.sent.clear()
                emulator.edits.clear()
                emulator.calls.clear()
                emulator.journal.clear()
                emulator.updates_log.clear()
                emulator.callback_answers.clear()
                emulator.reactions.clear()
                previous = mine
                clock.move(max(0.0, 3600.0 - (time.monotonic() - began)))
            await asyncio.sleep(10)  # the sweep ends what the last hour left open
            await day.idle()
        finally:
            stop.set()
            if sampling is not None:
                await sampling
            process.terminate()
            await process.wait()
            await emulator.stop()
    first, last = day.hourly[0][1], day.hourly[-1][1]
    peak = max(day.samples, default=0.0)
    print(f"\n{chats:,} chats over {hours} simulated hours, {day.updates:,} updates, "
          f"MAX_UPDATES_IN_FLIGHT={bound}")
    print(f"RSS: {started_rss:.1f} MB idle at start, {first:.1f} after the first hour, "
          f"{last:.1f} at the end ({(last - first) / first:+.1%}), highest sample {peak:.1f} "
          f"(ceiling {CEILING_MB:.0f})")
    print("hourly RSS, MB: " + " ".join(f"{rss:.0f}" for _, rss, _ in day.hourly))
    print("\nwhere the bot's memory is at each hour's end, MB (the columns: bench/bench_memory.py):"
          "\n")
    print(f"{'phase':<10} {'RSS':>8} {'anon':>8} {'objects':>9} {'free':>9} {'arenas':>7} "
          f"{'most':>6} {'pymalloc':>9} {'malloc':>9} {'m. free':>9}")
    for phase, heap in heaps:
        print(heap_row(phase, heap))
    shown = sorted({1, hours // 4 + 1, hours // 2 + 1, hours})  # the first hour's, the end's
    print_maps([heaps[n][0] for n in shown if n < len(heaps)],
               [heaps[n][1] for n in shown if n < len(heaps)])
    within = abs(last - first) <= 0.10 * first and peak <= CEILING_MB
    print("goal met" if within else "goal NOT met")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", action="store_true", help="(the bench runs the bot this way)")
    parser.add_argument("--chats", type=int, default=CHATS)
    parser.add_argument("--hours", type=int, default=HOURS)
    parser.add_argument("--bound", type=int, default=256, help="MAX_UPDATES_IN_FLIGHT")
    arguments = parser.parse_args()
    if arguments.bot:
        return run_bot()
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    asyncio.run(soak(arguments.chats, arguments.hours, arguments.bound))
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
