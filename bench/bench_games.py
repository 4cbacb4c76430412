"""Benchmark of Countdown against a plain subset DP (side by side), and of Yahtzee.

The plain DP below is the baseline of issue 12, test code only: it builds every value of every
sub-multiset, bottom up, one pair of values at a time. Each game is timed for both, one after the
other, so the ratio holds even on a busy machine; both must agree on the best value.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import TypeVar

from solver.countdown import solve_countdown
from solver.yahtzee import best_assignment

Game = tuple[list[int], int]
T = TypeVar("T")


def plain_values(hand: tuple[int, ...], low: int) -> dict[tuple[int, ...], set[int]]:
    """Every value of every sub-multiset of the hand (steps whole and >= low)."""
    n = len(hand)
    table: dict[tuple[int, ...], set[int]] = {}
    for mask in sorted(range(1, 1 << n), key=lambda m: bin(m).count("1")):
        key = tuple(hand[i] for i in range(n) if mask >> i & 1)
        if key in table:
            continue
        if len(key) == 1:
            table[key] = {key[0]}
            continue
        out: set[int] = set()
        part = (mask - 1) & mask
        while part:
            rest = mask ^ part
            if part > rest:
                left = table[tuple(hand[i] for i in range(n) if part >> i & 1)]
                right = table[tuple(hand[i] for i in range(n) if rest >> i & 1)]
                for a in left:
                    for b in right:
                        big, small = (a, b) if a >= b else (b, a)
                        out.add(a + b)
                        out.add(a * b)
                        if big - small >= low:
                            out.add(big - small)
                        if small and big % small == 0:
                            out.add(big // small)
            part = (part - 1) & mask
        table[key] = out
    return table


def plain_best(numbers: list[int], target: int, rules: str) -> int | None:
    """The largest value <= target, by the plain DP."""
    hand = tuple(sorted(numbers))
    table = plain_values(hand, 0 if rules == "all" else 1)
    values = table[hand] if rules == "all" else set().union(*table.values())
    return max((v for v in values if v <= target), default=None)


def random_games(count: int, seed: int = 12, top: int = 100, targets: int = 1000) -> list[Game]:
    """Issue 12's games: six numbers 1..100, a target 1..1000 (or other ranges)."""
    rng = random.Random(seed)
    return [([rng.randint(1, top) for _ in range(6)], rng.randint(1, targets))
            for _ in range(count)]


def tv_games(count: int, seed: int = 7) -> list[Game]:
    """TV Countdown deals: 0-4 of 25 50 75 100, the rest from two each of 1..10; 101..999."""
    rng = random.Random(seed)
    small = [n for n in range(1, 11) for _ in range(2)]
    games = []
    for _ in range(count):
        large = rng.randint(0, 4)
        numbers = rng.sample([25, 50, 75, 100], large) + rng.sample(small, 6 - large)
        games.append((numbers, rng.randint(101, 999)))
    return games


def timed(solver: Callable[[list[int], int, str], T], game: Game, rules: str) -> tuple[float, T]:
    start = time.perf_counter()
    result = solver(*game, rules)
    return time.perf_counter() - start, result


def side_by_side(games: list[Game], rules: str) -> tuple[list[float], list[float], Game, int]:
    """Seconds per game for the plain DP and the project; the project's slowest game; exact."""
    plain, project = [], []
    exact = 0
    for game in games:
        seconds, expected = timed(plain_best, game, rules)
        plain.append(seconds)
        seconds, result = timed(solve_countdown, game, rules)
        project.append(seconds)
        if result.best != expected:
            sys.exit(f"{game} {rules}: plain DP {expected}, project {result.best}")
        exact += result.best == game[1]
    slowest = games[max(range(len(games)), key=project.__getitem__)]
    return plain, project, slowest, exact


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98]


def countdown(count: int) -> None:
    print(f"Countdown, {count} seeded games per row, one process, plain subset DP vs project "
          "(ms per game)")
    header = (f"{'games':<22}{'rules':<8}{'plain med':>10}{'p99':>8}{'project med':>12}"
              f"{'p99':>7}{'max':>7}{'ratio med':>10}{'p99':>6}")
    print(header)
    rows = [("random 6 of 1..100", random_games(count), "all"),
            ("random 6 of 1..100", random_games(count), "subset"),
            ("TV deals", tv_games(count), "subset"),
            # the bot's limits for /countdown n1 .. n6 = T: values are sparse near big targets
            ("6 of 1..1000, T<=1e5", random_games(count, 13, 1000, 100_000), "subset")]
    notes = []
    for name, games, rules in rows:
        plain, project, slowest, exact = side_by_side(games, rules)
        med_plain, med_project = statistics.median(plain), statistics.median(project)
        print(f"{name:<22}{rules:<8}{med_plain * 1000:>10.1f}{p99(plain) * 1000:>8.1f}"
              f"{med_project * 1000:>12.2f}{p99(project) * 1000:>7.1f}"
              f"{max(project) * 1000:>7.1f}{med_plain / med_project:>9.1f}x"
              f"{p99(plain) / p99(project):>5.1f}x")
        notes.append(f"{name}, {rules}: {exact} of {count} exact; slowest for the project "
                     f"{' '.join(map(str, slowest[0]))} -> {slowest[1]}")
    print("\n".join(notes) + "\n")


def yahtzee() -> None:
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
    print(f"{'measure':<28}{'value':>10}{'target':>10}{'ratio':>8}")
    print(f"{'all 200 games':<28}{whole:>9.3f}s{1.0:>9.1f}s{whole / 1.0:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300, help="Countdown games per row")
    countdown(parser.parse_args().games)
    yahtzee()


if __name__ == "__main__":
    main()
