"""Benchmark of a six-number round of the bot: deal (draw hands until one has the level wanted,
rating each) and analysis (every solution, the hints' steps), as the stock makes it in a worker.

Warm: seeded rounds one after another in one process, with the caches the process keeps (as a
solver-pool worker does). Cold: every cache of the rating and of the search emptied before each
round (the rating's tables read again; the compiled core keeps what it keeps). Fresh: the first
round of a new process, after its imports (nothing kept at all). Medians, with issue 28's goals
beside them; the rating's share of the warm round.

    python bench/bench_round_analysis.py [--rounds N] [--fresh N] [--count 6] [--target 24]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.play.games.twentyfour import (
    rules as twentyfour,  # imported, not changed: the bot's own deal
)
from solver import rating as rating_module

GOALS_MS = {"warm": 10.0, "cold": 20.0, "fresh": 20.0}  # issue 28: "cold" either way


def cold() -> None:
    """Empty every cache of the rating (all its modules) and of the search it asks."""
    for name, module in list(sys.modules.items()):
        if name.startswith(("solver.rating", "solver.search")) and module is not None:
            for value in vars(module).values():
                if hasattr(value, "cache_clear"):
                    value.cache_clear()


def rounds(seeds: range, count: int, target: int, empty: bool) -> dict[str, list[float]]:
    """Seconds of each round's deal, analysis, whole round and of the ratings within the deal."""
    spent: dict[str, list[float]] = {"deal": [], "analysis": [], "round": [], "rating": []}
    real = rating_module.rating_of
    rating_seconds = 0.0

    def timed_rating(numbers, goal=24):
        nonlocal rating_seconds
        began = time.perf_counter()
        try:
            return real(numbers, goal)
        finally:
            rating_seconds += time.perf_counter() - began

    rating_module.rating_of = timed_rating  # level() calls it; the bot calls level()
    try:
        for seed in seeds:
            if empty:
                cold()
            rating_seconds = 0.0
            began = time.perf_counter()
            dealt = twentyfour.deal(seed, count=count, target=target, budget=float("inf"))
            dealt_at = time.perf_counter()
            if dealt is None:
                raise SystemExit(f"seed {seed}: no hand dealt")
            twentyfour.analyse(dealt.hand, dealt.target)
            done = time.perf_counter()
            spent["deal"].append(dealt_at - began)
            spent["analysis"].append(done - dealt_at)
            spent["round"].append(done - began)
            spent["rating"].append(rating_seconds)
    finally:
        rating_module.rating_of = real
    return spent


def fresh(seeds: range, count: int, target: int) -> dict[str, list[float]]:
    """Each round the first of its own process (the seconds printed by --one)."""
    spent: dict[str, list[float]] = {"deal": [], "analysis": [], "round": [], "rating": []}
    for seed in seeds:
        out = subprocess.run([sys.executable, __file__, "--one", str(seed), "--count", str(count),
                              "--target", str(target)], capture_output=True, text=True,
                             check=True).stdout.split()
        for part, seconds in zip(spent, out, strict=True):
            spent[part].append(float(seconds))
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--fresh", type=int, default=20, help="rounds in fresh processes")
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--target", type=int, default=24)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a fresh process's round
    args = parser.parse_args()
    if args.one is not None:
        spent = rounds(range(args.one, args.one + 1), args.count, args.target, empty=False)
        print(" ".join(repr(values[0]) for values in spent.values()))
        return
    seeds = range(args.rounds)
    cold()
    warm = rounds(seeds, args.count, args.target, empty=False)
    cold_rounds = rounds(seeds, args.count, args.target, empty=True)
    fresh_rounds = fresh(range(args.fresh), args.count, args.target)
    ms = {kind: {part: statistics.median(values) * 1000 for part, values in spent.items()}
          for kind, spent in (("warm", warm), ("cold", cold_rounds), ("fresh", fresh_rounds))}
    share = sum(warm["rating"]) / sum(warm["round"])
    print(f"{args.count}-number rounds to {args.target}, {args.rounds} seeded rounds in one"
          f" process,"
          f" {args.fresh} in fresh ones"
          f" (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print(f"{'measure':<40}{'median':>10}{'goal':>10}")
    for kind in ("warm", "cold", "fresh"):
        goal = GOALS_MS[kind]
        met = "met" if ms[kind]["round"] <= goal else "missed"
        print(f"{'round, deal + analysis, ' + kind:<40}{ms[kind]['round']:>8.2f}ms"
              f"{'<= ' + format(goal, 'g') + ' ms':>10}  {met}")
        for part in ("deal", "rating", "analysis"):
            print(f"{'  ' + part + ', ' + kind:<40}{ms[kind][part]:>8.2f}ms")
    print(f"rating's share of the warm rounds' time: {share:.0%}")


if __name__ == "__main__":
    main()
