"""Benchmark of the difficulty rating: one hand at a time (as the bot rates hands when it deals),
the 1362 solvable hands of 1..13 from cold caches, and six-number hands: looked up in the table
rated ahead (solver/rating_table.py), and rated by the model itself (the table aside)."""

from __future__ import annotations

import itertools
import os
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_solver import timed
from solver import is_solvable, rate, rating_table
from solver import rating as rating_module


def cold() -> None:
    """Empty every cache of the rating modules (the tables read again) and of the search."""
    for module in (rating_module, rating_table, sys.modules["solver.search"]):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def main() -> None:
    hands = [h for h in itertools.combinations_with_replacement(range(1, 14), 4)
             if is_solvable(h, 24)]
    rng = random.Random(7)
    cold()
    all_hands = timed(lambda: [rate(h) for h in hands])
    cold()
    single = []
    for hand in rng.sample(hands, 200):
        single.append(timed(lambda hand=hand: rate(hand)))
    six, model = [], []
    for _ in range(20):
        drawn = [rng.randint(1, 13) for _ in range(6)]
        if is_solvable(drawn, 24):
            cold()
            six.append(timed(lambda drawn=drawn: rate(drawn)))
            cold()
            hand = tuple(sorted(drawn))
            model.append(timed(lambda hand=hand: rating_module.modelled_difficulty(hand, 24)))
    cold()
    load = timed(lambda: rating_table.covers((1,) * 6, 24))
    print(f"Difficulty rating (solver.rating), one process (load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print(f"{'measure':<44}{'value':>10}")
    print(f"{'all 1362 solvable hands of 1..13, cold':<44}{all_hands:>9.2f}s")
    print(f"{'one new 4-number hand, median':<44}{statistics.median(single) * 1000:>8.2f}ms")
    print(f"{'one new 4-number hand, max of 200':<44}{max(single) * 1000:>8.2f}ms")
    print(f"{'six numbers of 1..13, cold, median':<44}{statistics.median(six) * 1000:>8.1f}ms")
    print(f"{'six numbers of 1..13, cold, max of ' + str(len(six)):<44}"
          f"{max(six) * 1000:>8.1f}ms")
    print(f"{'  of which reading the six-number table':<44}{load * 1000:>8.1f}ms")
    print(f"{'six numbers, the model (table aside), median':<44}"
          f"{statistics.median(model) * 1000:>8.1f}ms")
    print(f"{'six numbers, the model, max of ' + str(len(model)):<44}"
          f"{max(model) * 1000:>8.1f}ms")


if __name__ == "__main__":
    main()
