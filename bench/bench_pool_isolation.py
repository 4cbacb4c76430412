"""Pool isolation benchmark: does a chat's /play stay quick while others keep the solver busy?

The real bot (`python -m bot`, its own process, RATE_LIMIT=off) against the Bot API emulator,
as in bench_bot_load.py. /play is sent in fresh group chats at a steady pace, and its latency
measured from the update's delivery (getUpdates returning it) to the deal reaching the server:
first with nothing else going on, then with 4 heavy /solves always in flight (each
`/solve 0 7 11 13 17 19 = 0`, about 20 s of work, stopped at SOLVE_TIMEOUT; each from a new
user in a new chat, so that the per-user and per-chat budgets let them all in, and a new one sent
as soon as one is answered). The target: p99 under 300 ms with the heavy load.

Then the slowest deals there are (another target, six numbers, a level such hands rarely have),
one at a time: how long they take now that a deal has a time budget (DEAL_SECONDS), and how
many were refused.

Loopback only; every wait is bounded. `--quick` for a shorter run.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bot_load import Run, percentile, start, stop

HEAVY = "/solve 0 7 11 13 17 19 = 0"
SLOW_DEALS = ("/play easy 6 = 997", "/play 6 = 999", "/play 5 = 997", "/play 4 = 997")
IN_FLIGHT = 4
TARGET_MS = 300.0


def latencies(run: Run, chats: set[int], deals_only: bool = True) -> list[float]:
    """Per chat, the time from its first update's delivery to its first reply (with
    `deals_only`, to the deal: the chat's first message that quotes nothing)."""
    delivered = {}
    for update in run.emulator.updates_log:
        message = update.get("message")
        if message and message["chat"]["id"] in chats and "_delivered_at" in update:
            delivered.setdefault(message["chat"]["id"], update["_delivered_at"])
    replied = {}
    for sent in run.emulator.sent:
        if sent.chat_id in chats and (sent.reply_to is None or not deals_only):
            replied.setdefault(sent.chat_id, sent.at)
    return [replied[c] - delivered[c] for c in chats if c in replied and c in delivered]


async def plays(run: Run, ids: itertools.count, per_second: float, seconds: float) -> dict:
    """/play in a new chat every 1/per_second s for `seconds`; the deal latencies."""
    chats: set[int] = set()
    started = time.perf_counter()
    for n in itertools.count():
        due = started + n / per_second
        if due - started > seconds:
            break
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        chat = next(ids)
        run.emulator.chat(chat)
        chats.add(chat)
        await run.emulator.say(chat, run.emulator.user(200_000 - chat, "P"), "/play")
    await run.emulator.wait_for(
        lambda: sum(1 for s in run.emulator.sent if s.chat_id in chats) >= len(chats), 60)
    found = latencies(run, chats)
    return {"sent": len(chats), "answered": len(found),
            "p50": percentile(found, 0.50) * 1000, "p99": percentile(found, 0.99) * 1000,
            "max": max(found, default=float("nan")) * 1000}


async def heavy_load(run: Run, ids: itertools.count, users: itertools.count,
                     stop_at: asyncio.Event, outcomes: list[str]) -> None:
    """Keep IN_FLIGHT heavy /solves going: each answered one is replaced by a new one."""

    async def one_after_another() -> None:
        while not stop_at.is_set():
            chat = next(ids)
            run.emulator.chat(chat)
            before = len(run.emulator.sent)
            await run.emulator.say(chat, run.emulator.user(next(users), "Heavy"), HEAVY)
            answered = await run.emulator.wait_for(
                lambda chat=chat, before=before: any(
                    s.chat_id == chat for s in run.emulator.sent[before:]), 120)
            replies = [s.text for s in run.emulator.sent[before:] if s.chat_id == chat]
            outcomes.append("lost" if not answered else "stopped" if "took more" in replies[0]
                            else "busy" if "Busy" in replies[0] else "solved")

    await asyncio.gather(*(one_after_another() for _ in range(IN_FLIGHT)))


async def slow_deals(run: Run, ids: itertools.count, users: itertools.count,
                     repeat: int) -> dict[str, dict]:
    """Each of SLOW_DEALS `repeat` times, one at a time, each in a new chat by a new user."""
    found: dict[str, dict] = {}
    for command in SLOW_DEALS:
        chats = set()
        for _ in range(repeat):
            chat = next(ids)
            run.emulator.chat(chat)
            chats.add(chat)
            before = len(run.emulator.sent)
            await run.emulator.say(chat, run.emulator.user(next(users), "Slow"), command)
            await run.emulator.wait_for(
                lambda chat=chat, before=before: any(
                    s.chat_id == chat for s in run.emulator.sent[before:]), 60)
        refused = {s.chat_id for s in run.emulator.sent
                   if s.chat_id in chats and "I found no hand" in s.text}
        answered = latencies(run, chats, deals_only=False)  # a refusal quotes the /play
        found[command] = {"dealt": len(chats) - len(refused), "refused": len(refused),
                          "median": percentile(answered, 0.5) * 1000,
                          "max": max(answered, default=float("nan")) * 1000}
    return found


async def measure(workers: int, per_second: float, seconds: float,
                  repeat: int) -> tuple[dict, dict, list, dict]:
    with tempfile.TemporaryDirectory() as folder:
        run = await start(False, workers, Path(folder))
        ids, users = itertools.count(-20_000, -1), itertools.count(5000)
        try:
            await plays(run, ids, 10, 2)  # warm: caches, connections
            idle = await plays(run, ids, per_second, seconds)
            stop_at, outcomes = asyncio.Event(), []
            load = asyncio.create_task(heavy_load(run, ids, users, stop_at, outcomes))
            await asyncio.sleep(1.0)  # the heavy lane is busy and its queue full
            loaded = await plays(run, ids, per_second, seconds)
            stop_at.set()
            load.cancel()
            await asyncio.sleep(12)  # the heavy lane drains (its last work is stopped)
            slow = await slow_deals(run, ids, users, repeat)
        finally:
            await stop(run)
    return idle, loaded, outcomes, slow


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2, help="SOLVER_WORKERS")
    parser.add_argument("--rate", type=float, default=5.0, help="/play per second")
    parser.add_argument("--seconds", type=float, default=40.0, help="per phase")
    parser.add_argument("--repeat", type=int, default=10, help="of each slow deal")
    parser.add_argument("--quick", action="store_true", help="15 s per phase, 4 slow deals")
    args, _ = parser.parse_known_args()
    if args.quick:
        args.seconds, args.repeat = 15.0, 4
    idle, loaded, outcomes, slow = asyncio.run(measure(args.workers, args.rate, args.seconds,
                                                       args.repeat))
    print(f"/play latency (delivery -> deal), {args.rate:g} a second for {args.seconds:g} s per "
          f"phase, SOLVER_WORKERS={args.workers}")
    print(f"{'phase':<34}{'deals':>7}{'p50':>10}{'p99':>10}{'max':>10}{'p99 / 300 ms':>14}")
    for name, row in (("idle", idle), (f"{IN_FLIGHT} heavy /solves in flight", loaded)):
        print(f"{name:<34}{row['answered']:>4}/{row['sent']:<3}{row['p50']:>8.1f}ms"
              f"{row['p99']:>8.1f}ms{row['max']:>8.1f}ms{row['p99'] / TARGET_MS:>14.2f}")
    counts = {kind: outcomes.count(kind) for kind in ("solved", "stopped", "busy", "lost")}
    print(f"heavy /solves answered meanwhile: {len(outcomes)} "
          f"({', '.join(f'{n} {kind}' for kind, n in counts.items())})")
    print(f"p99 with heavy load vs idle: {loaded['p99'] / idle['p99']:.2f}x; "
          f"target p99 < {TARGET_MS:.0f} ms: {'met' if loaded['p99'] < TARGET_MS else 'MISSED'}")
    print(f"\nslow deals, one at a time (delivery -> deal or refusal), {args.repeat} each")
    print(f"{'command':<24}{'dealt':>7}{'refused':>9}{'median':>10}{'max':>10}")
    for command, row in slow.items():
        print(f"{command:<24}{row['dealt']:>7}{row['refused']:>9}{row['median']:>8.0f}ms"
              f"{row['max']:>8.0f}ms")


if __name__ == "__main__":
    main()
