"""Benchmark of the 24 engine: prints tables of medians and their ratio to the issue's targets.

Run with `make bench` (all benchmarks) or `python bench/bench_solver.py [--repeat N]`.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from solver import first_solution, solve
from solver.normal import clear_caches
from solver.search import reachable_values, splits

SIX = [(89, 67, 34, 5, 6, 87), (1, 2, 3, 4, 5, 6), (2, 3, 5, 7, 11, 13), (23, 45, 67, 89, 34, 66),
       (1, 1, 3, 8, 8, 13)]
SEVEN = (1, 2, 3, 4, 5, 6, 7)


def cold() -> None:
    """Empty every cache, so each measurement starts from nothing."""
    for cached in (reachable_values, splits):
        cached.cache_clear()
    clear_caches()


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    hands = list(itertools.combinations_with_replacement(range(1, 14), 4))
    runs = []
    for _ in range(args.repeat):
        cold()
        runs.append(timed(lambda: [solve(h) for h in hands]))
    solvable = sum(1 for h in hands if solve(h))
    total = sum(len(solve(h)) for h in hands)
    whole = statistics.median(runs)
    print(f"All 1820 hands of 1..13 for 24, one process, cold caches ({args.repeat} runs)")
    print(f"{'measure':<34}{'median':>10}{'target':>10}{'ratio':>8}")
    label = "all distinct solutions, 1820 hands"
    print(f"{label:<34}{whole:>9.3f}s{2.0:>9.1f}s{whole / 2.0:>8.2f}")
    print(f"({solvable} solvable hands, {total} distinct solutions)\n")

    print("Six numbers, target 24, cold caches")
    print(f"{'hand':<24}{'count':>6}{'all (s)':>10}{'first (ms)':>12}")
    all_times, first_times = [], []
    for hand in SIX:
        t_all, t_first = [], []
        for _ in range(args.repeat):
            cold()
            t_all.append(timed(lambda: solve(hand)))  # noqa: B023
            cold()
            t_first.append(timed(lambda: first_solution(hand)))  # noqa: B023
        all_times.append(statistics.median(t_all))
        first_times.append(statistics.median(t_first))
        print(f"{' '.join(map(str, hand)):<24}{len(solve(hand)):>6}"
              f"{all_times[-1]:>10.3f}{first_times[-1] * 1000:>12.1f}")
    med_all, med_first = statistics.median(all_times), statistics.median(first_times)
    print(f"{'median':<24}{'':>6}{med_all:>10.3f}{med_first * 1000:>12.1f}")
    print(f"{'target':<24}{'':>6}{0.4:>10.3f}{50:>12.1f}")
    print(f"{'ratio':<24}{'':>6}{med_all / 0.4:>10.2f}{med_first / 0.05:>12.2f}")

    runs = []
    for _ in range(min(args.repeat, 3)):
        cold()
        runs.append(timed(lambda: solve(SEVEN)))
    seven = statistics.median(runs)
    print(f"\nSeven numbers, target 24, cold caches ({len(runs)} runs)")
    print(f"{'hand':<24}{'count':>6}{'all (s)':>10}{'target':>10}{'ratio':>8}")
    print(f"{' '.join(map(str, SEVEN)):<24}{len(solve(SEVEN)):>6}{seven:>10.3f}{3.0:>10.3f}"
          f"{seven / 3.0:>8.2f}")


if __name__ == "__main__":
    main()
