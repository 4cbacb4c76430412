"""Benchmark of Countdown (300 seeded TV games, 6 numbers) and Yahtzee (200 random games)."""

from __future__ import annotations

import random
import statistics
import time

from solver.countdown import largest, solve_countdown
from solver.search import reachable_values, splits
from solver.yahtzee import best_assignment


def countdown_games(count: int, seed: int = 7) -> list[tuple[list[int], int]]:
    rng = random.Random(seed)
    small = [n for n in range(1, 11) for _ in range(2)]
    games = []
    for _ in range(count):
        large = rng.randint(0, 4)
        numbers = rng.sample([25, 50, 75, 100], large) + rng.sample(small, 6 - large)
        games.append((numbers, rng.randint(101, 999)))
    return games


def main() -> None:
    for cached in (reachable_values, splits, largest):
        cached.cache_clear()
    times = []
    exact = 0
    for numbers, target in countdown_games(300):
        start = time.perf_counter()
        result = solve_countdown(numbers, target, "subset")
        times.append(time.perf_counter() - start)
        exact += result.exact
    median = statistics.median(times)
    print("Countdown, subset rules, 300 seeded TV games of 6 numbers, one process")
    print(f"{'measure':<28}{'value':>10}{'target':>10}{'ratio':>8}")
    print(f"{'median per game':<28}{median * 1000:>8.1f}ms{20:>8}ms{median / 0.020:>8.2f}")
    print(f"{'99th percentile':<28}{sorted(times)[296] * 1000:>8.1f}ms")
    print(f"({exact} of 300 exact)\n")

    rng = random.Random(10149)
    games = [[[rng.randint(1, 6) for _ in range(5)] for _ in range(13)] for _ in range(200)]
    best_assignment(games[0])  # builds the mask tables once
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        for game in games:
            best_assignment(game)
        runs.append(time.perf_counter() - start)
    whole = statistics.median(runs)
    print("Yahtzee, 200 random games, one process (median of 3 runs)")
    print(f"{'all 200 games':<28}{whole:>9.3f}s{1.0:>9.1f}s{whole / 1.0:>8.2f}")


if __name__ == "__main__":
    main()
