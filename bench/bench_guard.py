"""A short capacity check (`make bench-guard`): the bot's burst against the bare
python-telegram-bot application's on the same emulator (bench_bot_load's burst, both processes
side by side, the bot's burst right after the baseline's), a few short runs, and the medians.
It exits non-zero when the median ratio of updates per second falls below --floor (0.9x): a
change that costs the bot its capacity is seen before it is merged.

A benchmark, not a test: the machine's load moves both figures, so only the ratio of bursts
run one right after the other is judged, and the median of a few. Loopback only; every wait
is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_bot_load import paired_bursts, print_bursts

FLOOR = 0.9  # the bot's burst against the baseline's, at least


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=100, help="chats in each burst")
    parser.add_argument("--runs", type=int, default=3, help="bursts of each (the median)")
    parser.add_argument("--workers", type=int, default=2, help="the bot's solver workers")
    parser.add_argument("--floor", type=float, default=FLOOR,
                        help="the lowest median ratio of updates per second that passes")
    parser.add_argument("--postgres", action="store_true",
                        help="the bot on a PostgreSQL server of its own")
    args = parser.parse_args()
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    pairs = asyncio.run(paired_bursts(args.chats, args.runs, args.workers, args.postgres))
    print_bursts(pairs, args.chats, ", PostgreSQL" if args.postgres else ", SQLite")
    ratio = statistics.median(pair.ratio for pair in pairs)
    verdict = "ok" if ratio >= args.floor else "TOO SLOW"
    print(f"burst ratio {ratio:.2f}x, floor {args.floor:.2f}x: {verdict}")
    return 0 if ratio >= args.floor else 1


if __name__ == "__main__":
    sys.exit(main())
