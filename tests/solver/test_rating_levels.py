"""solver.rating keeps every hand's level: the ratings recorded before the rating was made fast.

tests/solver/data/rating-levels.tsv holds, for every hand of the human-difficulty table (4nums.com,
1362 hands to 24), seeded samples of five- and six-number deals to 24, deals to other targets and
small hands with zeros, the difficulty and level the rating gave before its speed-up (commit
a65e767, the random walk computed state by state). It was written by running this module:
`python -m tests.solver.test_rating_levels --write` with that commit's solver/rating.py. A faster
rating must give every one of those hands the same level and the same difficulty up to rounding.
"""

from __future__ import annotations

import csv
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from solver import Rating, is_solvable, rating_of
from tests.conftest import DATA

RECORDED = DATA / "rating-levels.tsv"
CLOSE = 1e-9  # the chances are sums of floats: a new order of summing moves the last bits


def deals(count: int, many: int, seed: int, targets: tuple[int, int] = (24, 24),
          cards: tuple[int, int] = (1, 13)) -> Iterator[tuple[tuple[int, ...], int]]:
    """`many` seeded solvable hands of `count` numbers (sorted) and their targets."""
    rng = random.Random(seed)
    found = 0
    while found < many:
        hand = tuple(sorted(rng.randint(*cards) for _ in range(count)))
        target = rng.randint(*targets)
        if is_solvable(hand, target):
            found += 1
            yield hand, target


def sample(shared: Path) -> list[tuple[tuple[int, ...], int]]:
    """The hands recorded: the human table, then the seeded deals."""
    with open(shared / "data" / "4nums-human-difficulty.csv", newline="") as f:
        human = [(tuple(sorted(map(int, row["Puzzles"].split()))), 24)
                 for row in csv.DictReader(f)]
    return [*human, *deals(5, 300, 5), *deals(6, 300, 6),
            *(hand for count in (4, 5, 6) for hand in deals(count, 20, 10 + count, (1, 999))),
            *(hand for count in range(1, 7) for hand in deals(count, 15, 20 + count, (0, 30),
                                                             (0, 13)))]


def read_recorded() -> list[tuple[tuple[int, ...], int, float, str]]:
    with open(RECORDED) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
    return [(tuple(map(int, numbers.split())), int(target), float(difficulty), level)
            for numbers, target, difficulty, level in rows]


def write(shared: Path, rate: Callable[[tuple[int, ...], int], Rating]) -> None:
    lines = ["# numbers\ttarget\tdifficulty\tlevel (see tests/solver/test_rating_levels.py)"]
    for hand, target in sample(shared):
        rated = rate(hand, target)
        lines.append(f"{' '.join(map(str, hand))}\t{target}\t{rated.difficulty!r}\t{rated.level}")
    RECORDED.write_text("\n".join(lines) + "\n")


def test_the_record_covers_the_human_table(shared_dir):
    recorded = {(hand, target) for hand, target, _, _ in read_recorded()}
    assert set(sample(shared_dir)) == recorded
    assert sum(1 for hand, _ in recorded if len(hand) == 4) >= 1362


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6])
def test_every_recorded_hand_keeps_its_level(count):
    rows = [row for row in read_recorded() if len(row[0]) == count]
    assert rows
    changed = []
    for hand, target, difficulty, level in rows:
        rated = rating_of(hand, target)
        if rated.level != level or abs(rated.difficulty - difficulty) > CLOSE:
            changed.append((hand, target, difficulty, level, rated))
    assert not changed, changed[:5]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m tests.solver.test_rating_levels --write")
    from tests.conftest import SHARED
    write(SHARED, rating_of)
