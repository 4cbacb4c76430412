"""Fairness benchmark (issue 18): nothing one chat or one user does slows the other chats.

The real bot (bench/run_bot.py: `python -m bot` with the fair update processor), SOLVER_WORKERS=2,
RATE_LIMIT=off, against the Bot API emulator. Other chats send /play at a steady pace (a new
chat and a new player each time) and the latency of their deals is measured from the update's
delivery (getUpdates returning it) to the deal reaching the server, while:

  a. nothing else happens (idle);
  b. 4 members, each in a chat of their own, loop `/play 6 = 997` then `/reveal` (the rarest
     deals there are, six numbers whose reveal lists many solutions); target p99 < 100 ms;
  c. one user sends 1,000 updates at once (wrong answers to a round of their chat, each one a
     verdict to work out); target p99 < 300 ms. With `--unfair` also without the fair processor
     (PTB's own first-come queue), for comparison;
  d. (issue 24) two trolls loop `/play 6 = T` with a new rare target each time (501, 502, …)
     and `/reveal`, every one a cold shelf for the heavy lane, while bystanders ask a fresh
     five-number `/solve` once a second: its reply time, target p99 < 1 s and no time-out.
     Then the share of the 1,820 four-number hands one account can make the bot refuse a member
     of its group (bench/bench_live_reach.py; goal < 1%).

Loopback only; every wait is bounded. `--quick` for shorter phases; `--phases idle trolls` runs
only those (the idle phase and the warm-up always run first). The load average is printed with
the table: on a shared machine the figures mean little without it.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bot_load import Run, percentile, start, stop
from bench_live_reach import KINDS, troll_share
from bench_pool_isolation import plays

LOOPERS = 4
RARE = "/play 6 = 997"
FLOOD = 1000
TARGETS = {"rare deals looping": 100.0, "one user's flood": 300.0,
           "two trolls, /solve": 1000.0}
PHASES = ("idle", "looping", "flood", "trolls")


async def looping(run: Run, ids: itertools.count, stop_at: asyncio.Event,
                  rounds: list[str]) -> None:
    """LOOPERS members, each in a chat of their own: /play 6 = 997, then /reveal, again."""

    async def one(number: int) -> None:
        chat = next(ids)
        run.emulator.chat(chat)
        member = run.emulator.user(300_000 + number, f"Rare{number}")
        while not stop_at.is_set():
            for command in (RARE, "/reveal"):
                before = len(run.emulator.sent)
                await run.emulator.say(chat, member, command)
                await run.emulator.wait_for(lambda before=before: any(
                    s.chat_id == chat for s in run.emulator.sent[before:]), 60)
                said = [s.text for s in run.emulator.sent[before:] if s.chat_id == chat]
                rounds.append(f"{command.split()[0]}: " + (said[0][:30] if said else "lost"))

    await asyncio.gather(*(one(n) for n in range(LOOPERS)))


async def trolls(run: Run, ids: itertools.count, stop_at: asyncio.Event,
                 rounds: list[str]) -> None:
    """Two members, each in a chat of their own: `/play 6 = T` with a new T each time (501 to
    999, then round again), then /reveal, again. What each /play got: "deal", "busy" (their
    budget of solver time spent) or "other"."""
    targets = itertools.cycle(range(501, 1000))

    async def one(number: int) -> None:
        chat = next(ids)
        run.emulator.chat(chat)
        troll = run.emulator.user(500_000 + number, f"Troll{number}")
        while not stop_at.is_set():
            for command in (f"/play 6 = {next(targets)}", "/reveal"):
                before = len(run.emulator.sent)
                await run.emulator.say(chat, troll, command)
                await run.emulator.wait_for(lambda before=before: any(
                    s.chat_id == chat for s in run.emulator.sent[before:]), 60)
                said = next((s.text for s in run.emulator.sent[before:] if s.chat_id == chat),
                            "")
                if command.startswith("/play"):
                    rounds.append("deal" if f"Make {command.split()[-1]}!" in said else
                                  "busy" if "Busy" in said else "other")

    await asyncio.gather(*(one(n) for n in range(2)))


async def bystanders(run: Run, ids: itertools.count, seconds: float) -> dict:
    """A fresh five-number /solve once a second, each from someone new in a private chat:
    the time to its reply, and how many hit the solver's time limit."""
    rng = random.Random(5)
    waits: list[float] = []
    timeouts = lost = 0

    async def ask(number: int) -> None:
        nonlocal timeouts, lost
        user = run.emulator.user(600_000 + number, "Bystander")
        hand = " ".join(str(rng.randint(1, 13)) for _ in range(5))
        before = len(run.emulator.sent)
        started = time.perf_counter()
        await run.emulator.say(user["id"], user, f"/solve {hand} = {rng.randint(30, 99)}",
                               kind="private")
        if not await run.emulator.wait_for(lambda: any(
                s.chat_id == user["id"] for s in run.emulator.sent[before:]), 30):
            lost += 1
            return
        waits.append(time.perf_counter() - started)
        reply = next(s.text for s in run.emulator.sent[before:] if s.chat_id == user["id"])
        timeouts += "took more than" in reply

    tasks = []
    for number in range(int(seconds)):
        tasks.append(asyncio.create_task(ask(number)))
        await asyncio.sleep(1.0)
    await asyncio.gather(*tasks)
    return {"sent": len(tasks), "answered": len(waits), "p50": percentile(waits, 0.5) * 1000,
            "p99": percentile(waits, 0.99) * 1000, "max": max(waits, default=0.0) * 1000,
            "others": f"{timeouts} timed out, {lost} unanswered"}


async def flood(run: Run, ids: itertools.count) -> int:
    """One user's round, then FLOOD wrong answers from them at once; the chat."""
    chat = next(ids)
    run.emulator.chat(chat)
    flooder = run.emulator.user(400_000, "Flood")
    await run.emulator.say(chat, flooder, "/play")
    await run.emulator.wait_for(lambda: any(s.chat_id == chat for s in run.emulator.sent), 30)
    for _ in range(FLOOD):
        await run.emulator.say(chat, flooder, "/a 1+1+1+1")
    return chat


async def measure(fair: bool, rate: float, seconds: float,
                  phases: tuple[str, ...] = PHASES) -> dict[str, dict]:
    found: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        run = await start(False, 2, Path(folder), BENCH_FAIR="on" if fair else "off")
        ids = itertools.count(-30_000, -1)
        try:
            await plays(run, ids, 10, 2)  # warm: caches, connections, the stock
            found["idle"] = await plays(run, ids, rate, seconds)
            if "looping" in phases:
                stop_at, rounds = asyncio.Event(), []
                loop = asyncio.create_task(looping(run, ids, stop_at, rounds))
                await asyncio.sleep(2.0)
                found["rare deals looping"] = await plays(run, ids, rate, seconds)
                stop_at.set()
                await loop
                found["rare deals looping"]["others"] = \
                    f"{sum(r.startswith('/play') for r in rounds)} rare deals, " \
                    f"{sum('Busy' in r for r in rounds)} busy"
            if "flood" in phases:
                flooded = asyncio.create_task(flood(run, ids))
                found["one user's flood"] = await plays(run, ids, rate, seconds)
                chat = await flooded
                found["one user's flood"]["others"] = \
                    f"{sum(1 for s in run.emulator.sent if s.chat_id == chat)} messages and " \
                    f"{sum(1 for r in run.emulator.reactions if r.chat_id == chat)} " \
                    "reactions to the flood"
            if "trolls" in phases:
                stop_at, rounds = asyncio.Event(), []
                trolling = asyncio.create_task(trolls(run, ids, stop_at, rounds))
                await asyncio.sleep(2.0)
                found["two trolls, /solve"] = await bystanders(run, ids, seconds)
                stop_at.set()
                await trolling
                found["two trolls, /solve"]["others"] += \
                    f"; the trolls made {rounds.count('deal')} rare deals " \
                    f"({rounds.count('busy')} busy, {rounds.count('other')} other replies)"
        finally:
            await stop(run)
    return found


def table(name: str, found: dict[str, dict], rate: float, seconds: float) -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{name}: other chats' /play latency (delivery -> deal), {rate:g} a second for "
          f"{seconds:g} s per phase (load average at the end: {load})")
    print(f"{'phase':<22}{'deals':>9}{'p50':>10}{'p99':>10}{'max':>10}{'target':>10}  meanwhile")
    for phase, row in found.items():
        target = TARGETS.get(phase)
        mark = "" if target is None else f"< {target:.0f}" + (" ok" if row["p99"] < target
                                                              else " MISSED")
        print(f"{phase:<22}{row['answered']:>5}/{row['sent']:<3}{row['p50']:>8.1f}ms"
              f"{row['p99']:>8.1f}ms{row['max']:>8.1f}ms{mark:>10}  {row.get('others', '')}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=5.0, help="/play per second")
    parser.add_argument("--seconds", type=float, default=30.0, help="per phase")
    parser.add_argument("--quick", action="store_true", help="10 s per phase")
    parser.add_argument("--phases", nargs="+", choices=PHASES, default=list(PHASES),
                        help="which phases to run (idle always runs)")
    parser.add_argument("--unfair", action="store_true",
                        help="also without the fair processor (PTB's first-come queue)")
    args, _ = parser.parse_known_args()
    if args.quick:
        args.seconds = 10.0
    phases = tuple(args.phases)
    print("load average at the start: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()),
          flush=True)
    table("fair updates", asyncio.run(measure(True, args.rate, args.seconds, phases)),
          args.rate, args.seconds)
    worst = max(max(troll_share(random.Random(24), make, 10)) for _, make in KINDS)
    print(f"\none account at its worst refuses a member of its group {worst:.2%} of the 1,820 "
          "four-number hands (goal < 1%; bench/bench_live_reach.py for the table)")
    if args.unfair:
        print()
        table("first come, first served (PTB's own queue)",
              asyncio.run(measure(False, args.rate, args.seconds, phases)), args.rate,
              args.seconds)


if __name__ == "__main__":
    main()
