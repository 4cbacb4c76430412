"""`solve` against the closure of the rewrite rules (tests/closure.py) on every four-number hand.

For each target: how many hands of 1..13 have a solution, how many distinct solutions `solve`
lists in all, how many the closure of the rules defines, and on how many hands the two differ
(a different count, or two listed solutions of one class). Not run by `make bench` (its name
does not start with bench_); the unit suite checks a part of it (tests/test_closure.py).

    python bench/sweep_closure.py [--targets 0 1 2 5 10 12 24 36] [--five N] [--six N]

`--five N` and `--six N` add N sampled hands of 1..13 of that size (the same for every target).
The solver is whichever `solver` imports first, so `PYTHONPATH=<another tree>` measures another
version against the same oracle.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # after PYTHONPATH: tests.solver.closure

from solver import parse, solve
from tests.solver.closure import Forest, classes

TARGETS = [0, 1, 2, 5, 10, 12, 24, 36]


def differs(forest: Forest, hand: tuple[int, ...], target: int, listed: list[str]) -> bool:
    """Whether `solve`'s solutions are not exactly one per class of the closure."""
    groups = classes(forest, hand, target)
    group_of = {t: i for i, group in enumerate(groups) for t in group}
    found = [group_of.get(forest.from_expr(parse(text)) or -1) for text in listed]
    return None in found or len(set(found)) != len(found) or len(found) != len(groups)


def sampled_hands(size: int, count: int) -> list[tuple[int, ...]]:
    rng = random.Random(size)
    return [tuple(sorted(rng.randint(1, 13) for _ in range(size))) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--targets", type=int, nargs="+", default=TARGETS)
    parser.add_argument("--five", type=int, default=0, help="sampled five-number hands")
    parser.add_argument("--six", type=int, default=0, help="sampled six-number hands")
    args = parser.parse_args()

    four = list(itertools.combinations_with_replacement(range(1, 14), 4))
    print(f"solver: {sys.modules['solver'].__file__}")
    print(f"{'hands':<14}{'target':>7}{'solvable':>10}{'solve':>9}{'closure':>9}{'differ':>8}"
          f"{'time (s)':>10}")
    sets = [("four 1..13", four)]
    sets += [(f"five x{args.five}", sampled_hands(5, args.five))] if args.five else []
    sets += [(f"six x{args.six}", sampled_hands(6, args.six))] if args.six else []
    for name, hands in sets:
        for target in args.targets:
            start = time.perf_counter()
            forest = Forest()
            solvable = listed = truth = wrong = 0
            for hand in hands:
                found = solve(hand, target)
                solvable += bool(found)
                listed += len(found)
                truth += len(classes(forest, hand, target))
                wrong += differs(forest, hand, target, found)
            print(f"{name:<14}{target:>7}{solvable:>10}{listed:>9}{truth:>9}{wrong:>8}"
                  f"{time.perf_counter() - start:>10.1f}", flush=True)


if __name__ == "__main__":
    main()
