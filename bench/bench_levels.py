"""Do the levels of five- and six-number deals differ? Figures per level over random solvable hands.

For seeded random hands of 1..13 that make 24 (what the bot deals), per count and level: the share
of hands, the median difficulty, how often a shortcut finishes the hand, the fewest numbers a
player must really combine, the median count of distinct solutions, and the rating time; with
--against (e.g. `git show main:solver/rating.py > /tmp/rating_main.py`), the time of that rating
code too, cold, on the same hands, one after the other.

    python bench/bench_levels.py [--hands 2000] [--solved 100] [--timed 200] [--against F]
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import itertools
import random
import statistics
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_solver import timed
from solver import LEVELS, is_solvable, solve
from solver import rating as rating_module

TARGET = 24
Hand = tuple[int, ...]


def deals(count: int, hands: int, seed: int) -> list[Hand]:
    """Solvable hands drawn as the bot draws them: `count` numbers 1..13, kept if they make 24."""
    rng, found = random.Random(seed), []
    while len(found) < hands:
        drawn = tuple(sorted(rng.randint(1, 13) for _ in range(count)))
        if is_solvable(drawn, TARGET):
            found.append(drawn)
    return found


def without(hand: Hand, picked: Iterable[int]) -> Hand:
    """The hand without the numbers at the given places."""
    gone = set(picked)
    return tuple(x for i, x in enumerate(hand) if i not in gone)


def sub_hands(hand: Hand) -> Iterable[tuple[Hand, Hand]]:
    """(kept, rest) for each way to keep some of the numbers (at least one)."""
    for size in range(1, len(hand) + 1):
        for kept in itertools.combinations(range(len(hand)), size):
            yield tuple(hand[i] for i in kept), without(hand, kept)


@functools.cache
def makes(hand: Hand) -> bool:
    """Whether the numbers (all of them) make the target."""
    return is_solvable(hand, TARGET)


def zero(rest: Hand) -> bool:
    """Whether numbers make 0 whatever else they hold: a 0, or two equal numbers (x-x)."""
    return 0 in rest or len(set(rest)) < len(rest)


def one(rest: Hand) -> bool:
    """Whether numbers are a 1, or two numbers one apart ((a+1)-a)."""
    return rest == (1,) or (len(rest) == 2 and rest[1] - rest[0] == 1)


def cancels(rest: Hand) -> bool:
    """Whether numbers left out of a solution can be got rid of at a glance (x-x times the
    others, or times 1), or there are none."""
    return not rest or zero(rest) or one(rest)


def cancel_one_step(hand: Hand) -> bool:
    """12 4 7 12 7: two equal numbers cancel and two others make the target in one step."""
    return any(len(kept) <= 2 and makes(kept) and zero(rest) for kept, rest in sub_hands(hand))


def cancel_pair(hand: Hand) -> bool:
    """Two equal numbers cancel and some of the others make the target."""
    return any(makes(kept) and zero(rest) for kept, rest in sub_hands(hand))


def times_one(hand: Hand) -> bool:
    """A 1 or two numbers one apart make x1 and all the others make the target."""
    return any(makes(kept) and one(rest) for kept, rest in sub_hands(hand))


def work(hand: Hand) -> int:
    """The fewest numbers a player must combine: the smallest sub-hand that makes the target
    while the other numbers cancel (see `cancels`)."""
    return min(len(kept) for kept, rest in sub_hands(hand) if makes(kept) and cancels(rest))


def load(path: str) -> ModuleType:
    """Another version of solver/rating.py, imported under its own name."""
    spec = importlib.util.spec_from_file_location("rating_against", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def cold(*modules: ModuleType) -> None:
    """Empty every cache of the given rating modules and of the search they ask."""
    for module in (*modules, sys.modules["solver.search"]):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def cold_times(hands: list[Hand], modules: list[ModuleType]) -> list[list[float]]:
    """Seconds to rate each hand from cold caches, per module, the modules taking turns."""
    times: list[list[float]] = [[] for _ in modules]
    for hand in hands:
        for module, spent in zip(modules, times, strict=True):
            cold(*modules)
            spent.append(timed(lambda hand=hand, module=module: module.rate(hand, TARGET)))
    return times


def median(values: list[float], scale: float = 1.0, digits: int = 1) -> str:
    return f"{statistics.median(values) * scale:.{digits}f}" if values else "-"


def mean(values: list[int]) -> str:
    return f"{statistics.fmean(values):.1f}" if values else "-"


def share(hands: list[Hand], test: Callable[[Hand], bool]) -> str:
    return f"{sum(map(test, hands)) / len(hands):.0%}" if hands else "-"


def report(count: int, args: argparse.Namespace, against: ModuleType | None) -> None:
    hands = deals(count, args.hands, seed=count)
    rated = {hand: rating_module.rating_of(hand, TARGET) for hand in hands}
    by_level = {name: [h for h in hands if rated[h].level == name] for name in LEVELS}
    cuts = rating_module.CUTS[count]
    print(f"\n{count} numbers of 1..13 to {TARGET}: {len(hands)} solvable hands (seed {count}),"
          f" medium from {cuts[0]}, hard from {cuts[1]}")
    head = ("level", "share", "difficulty", "x-x, 1 step", "x-x", "x1", "work", "solutions")
    print("".join(f"{h:>12}" for h in head))
    for name, chosen in by_level.items():
        solved = [len(solve(h, TARGET)) for h in chosen[:args.solved]]
        row = (name, f"{len(chosen) / len(hands):.1%}",
               median([rated[h].difficulty for h in chosen], digits=2),
               share(chosen, cancel_one_step), share(chosen, cancel_pair),
               share(chosen, times_one), mean([work(h) for h in chosen]),
               median(solved, digits=0))
        print("".join(f"{cell:>12}" for cell in row))
    timed_hands = hands[:args.timed]
    modules = [rating_module] + ([against] if against else [])
    times = cold_times(timed_hands, modules)
    names = ["this branch"] + ([Path(args.against).name] if against else [])
    for name, spent in zip(names, times, strict=True):
        print(f"rating time, {name:<24} median {median(spent, 1000)} ms,"
              f" max {max(spent) * 1000:.1f} ms (cold, {len(spent)} hands)")
    if against:
        old = [against.level_of(against.rate(h, TARGET)) for h in hands]
        split = " / ".join(f"{old.count(name) / len(old):.0%}" for name in LEVELS)
        print(f"levels by {names[1]}: {split} easy / medium / hard")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="solvable hands per count")
    parser.add_argument("--solved", type=int, default=100,
                        help="hands per level whose distinct solutions are counted")
    parser.add_argument("--timed", type=int, default=200, help="hands per count timed cold")
    parser.add_argument("--against", help="another solver/rating.py to time side by side")
    args, _ = parser.parse_known_args()
    against = load(args.against) if args.against else None
    print("Per level: share of hands; median difficulty; share where two equal numbers cancel"
          " and two others\nmake 24 in one step (x-x, 1 step), where they cancel and some others"
          " make 24 (x-x),\nwhere a 1 or two numbers one apart leave the rest to make 24 (x1);"
          " mean fewest numbers\nto combine with the rest cancelled (work); median distinct"
          f" solutions of up to {args.solved} hands.")
    for count in (5, 6):
        report(count, args, against)


if __name__ == "__main__":
    main()
