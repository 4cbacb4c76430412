"""The instructions an update costs, counted: this tree's bot against REF's, one round after
another, under valgrind's callgrind. Beside `make bench-guard`, never instead of it.

Why: on a shared machine an update's CPU time moves by a third from one minute to the next
(the guard's turns, docs/benchmarks.md), so a change worth a few per cent cannot be told from
the noise by timing it. The count of instructions the process runs is the same from run to
run. It is no load: one update at a time (a deal, a wrong answer, a wrong sum, a right answer,
in a new chat with three new players each round), the real Application answering updates
from the Bot API emulator in its own process (bench/trace_flow.py), so what it sees is the
work an update does, not the waiting a crowd of them makes. What the loop does by the clock
(its timers, the log's fold every second) is counted too, and a run under callgrind takes
minutes: code whose count moves with the clock shows it as runs that disagree (the store as it
is: 6.4, 12.9 and 7.6M an update in three runs; with statements in place, tried in 04ab5356:
6.13, 6.08 and 6.07M). Run it twice, and read the raw counts it prints.

Each side is run twice, with --few and --many measured rounds after the same warm-up; the
difference of the two counts over the difference of updates is an update's instructions, free
of start-up and shut-down (each run's count is printed). Under callgrind the bot runs some 30
times slower, so the store's thresholds measured on the clock (bot.store.sqlite.trips) are
scaled by --scale, as they would be read at full speed. The solver's worker process runs
outside callgrind (its work is the solver's, not an update's path). Needs valgrind (Debian's
package `valgrind`).

    python bench/bench_instructions.py [--against REF] [--few 10 --many 40]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 3  # a round's players, new in each chat
UPDATES_A_ROUND = 4


def players(round_number: int) -> list[dict[str, Any]]:
    return [{"id": 10_000 + PLAYERS * round_number + n, "is_bot": False,
             "first_name": f"P{n}", "language_code": "en"} for n in range(PLAYERS)]


async def drive(warm: int, measured: int, scale: float) -> None:
    """In the process callgrind counts: the bot started as bench/trace_flow.py starts it (the
    checkout first on the path), `warm` rounds, then `measured` rounds."""
    from telegram import Update

    from bench.trace_flow import Stock, fixed_hand, started
    from bot.runtime.config import Config
    from bot.runtime.pool import SolverPool
    from demo.emulator import BotApiEmulator
    try:
        from bot.store.sqlite import trips
    except ImportError:  # a checkout from before the trips' own module
        trips = None
    for name in ("NEAR_CPU", "NEAR_WALL", "STEP_NEAR"):
        if trips is not None and hasattr(trips, name):
            setattr(trips, name, getattr(trips, name) * scale)
    pool = SolverPool(1)
    emulator = BotApiEmulator()
    await emulator.start()
    ids = itertools.count(1)
    Stock.take = fixed_hand  # type: ignore[method-assign, assignment]
    try:
        with tempfile.TemporaryDirectory() as folder:
            config = Config(token=emulator.token, base_url=emulator.base_url,
                            database_path=Path(folder) / "bot.sqlite3", round_seconds=120.0,
                            solver_workers=1, rate_limit=False)
            async with started(config, pool) as app:
                async def say(chat: int, user: dict[str, Any], text: str) -> None:
                    message = await emulator.say(chat, user, text, None)
                    emulator.updates.clear()
                    await app.process_update(Update.de_json(
                        {"update_id": next(ids), "message": message}, app.bot))

                for number in range(warm + measured):
                    chat = -30_000 - number
                    emulator.chat(chat)
                    first, second, third = players(number)
                    await say(chat, first, "/play")
                    await say(chat, second, "1+2")
                    await say(chat, third, "3+3+8+8")
                    await say(chat, second, "8/(3-8/3)")
                sent = len(emulator.sent)
                if sent < (warm + measured) * 2:  # a deal and a result a round, at least
                    raise SystemExit(f"the bot answered too little: {sent} messages")
    finally:
        await emulator.stop()
        pool.shutdown()


def counted(tree: Path, warm: int, measured: int, scale: float, folder: Path) -> int:
    """The instructions callgrind counted in one run of this file's driver on `tree`'s bot."""
    out = folder / f"callgrind.{tree.name}.{measured}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(ROOT)]),
           "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
         str(Path(__file__).resolve()), "--drive", str(warm), str(measured), str(scale)],
        cwd=tree, env=env, capture_output=True, text=True)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"the run on {tree} failed:\n{done.stderr[-3000:]}")
    return int(found.group(1))


def per_update(tree: Path, args: argparse.Namespace, folder: Path, side: str) -> float:
    with ThreadPoolExecutor(2) as runs:  # the two runs side by side (a core each)
        few, many = runs.map(lambda measured: counted(tree, args.warm, measured, args.scale,
                                                      folder), (args.few, args.many))
    print(f"{side}: {few:,} instructions with {args.few} rounds, {many:,} with {args.many}")
    return (many - few) / ((args.many - args.few) * UPDATES_A_ROUND)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", help="REF (default: HEAD with uncommitted changes to bot/ "
                                          "or solver/, else HEAD~1)")
    parser.add_argument("--warm", type=int, default=10, help="rounds before those measured")
    parser.add_argument("--few", type=int, default=10)
    parser.add_argument("--many", type=int, default=40)
    parser.add_argument("--scale", type=float, default=40.0,
                        help="the clock thresholds' factor under callgrind")
    parser.add_argument("--drive", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        sys.path.insert(0, os.getcwd())
        asyncio.run(drive(int(args.drive[0]), int(args.drive[1]), float(args.drive[2])))
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt install valgrind)")
    sys.path.insert(0, str(ROOT))
    from bench.bench_guard import default_ref, give_core, has_changes, worktree
    ref, why = (args.against, "asked for") if args.against else default_ref(has_changes(ROOT))
    print(f"before: {ref} ({why}); after: this tree")
    print(f"{args.many - args.few} rounds of {UPDATES_A_ROUND} updates counted ({args.many} "
          f"against {args.few}, after {args.warm} to warm), one update at a time")
    with tempfile.TemporaryDirectory() as scratch, worktree(ROOT, ref) as tree:
        print(give_core(tree))
        before = per_update(tree, args, Path(scratch), "before")
        after = per_update(ROOT, args, Path(scratch), "after")
    print(f"{'instructions an update':<28}{'before':>12}{'after':>12}{'after/before':>14}")
    print(f"{'':<28}{before / 1e6:>11.3f}M{after / 1e6:>11.3f}M{after / before:>14.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
