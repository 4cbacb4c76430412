"""solver.rating keeps every hand's level: the ratings recorded before the rating was made fast.

tests/solver/data/rating-levels.tsv holds, for every hand of the human-difficulty table (4nums.com,
1362 hands to 24), seeded samples of five- and six-number deals to 24, deals to other targets and
small hands with zeros, the difficulty and level the rating gave before its speed-up (commit
a65e767, the random walk computed state by state). It was written by running this module:
`python -m tests.solver.test_rating_levels --write` with that commit's solver/rating.py.

Every one of those hands must keep its level, and its difficulty up to rounding, with one known
exception: that rating's caches took a whole Fraction(2) and the int 2 for the same number (the
model does not: only an int result looks like a factor of the target), so some states were rated
as whichever came first in the process, and a hand's difficulty depended on the hands rated
before it. Rated without that mix-up (solver.rating._kinds), 77 of the 2,112 hands move, by less
than 0.034 and none out of its level; the bounds below hold that.
"""

from __future__ import annotations

import csv
import itertools
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from solver import Rating, is_solvable, rating_of, rating_table
from solver.rating import level_of, modelled_difficulty
from tests.conftest import DATA

RECORDED = DATA / "rating-levels.tsv"
CLOSE = 1e-9  # the chances are sums of floats: a new order of summing moves the last bits
MIXED_UP_MOST = 80  # hands whose recorded difficulty came from the mixed-up caches (77)
MIXED_UP_BY = 0.05  # how far those may move (0.033)


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


def moved(rate: Callable[[tuple[int, ...], int], float | None]) -> list[tuple]:
    """The recorded hands whose difficulty moves, with (recorded, now); AssertionError when a
    level changes or a hand gets no difficulty."""
    out = []
    for hand, target, difficulty, level in read_recorded():
        now = rate(hand, target)
        assert now is not None and level_of(now, len(hand)) == level, (hand, target, level, now)
        if abs(now - difficulty) > CLOSE:
            out.append((hand, target, difficulty, now))
    return out


def check_moved(out: list[tuple]) -> None:
    assert len(out) <= MIXED_UP_MOST, out[:5]
    assert all(abs(now - was) < MIXED_UP_BY for _, _, was, now in out), out


def test_every_recorded_hand_keeps_its_level():
    out = moved(lambda hand, target: rating_of(hand, target).difficulty)
    check_moved(out)
    assert all(rating_of(hand, target).level == level
               for hand, target, _, level in read_recorded())


@pytest.mark.slow
def test_the_model_itself_keeps_every_recorded_hand():
    """The same as above with the tables aside: the model, not only what it wrote ahead."""
    check_moved(moved(modelled_difficulty))


@pytest.mark.parametrize("count", rating_table.COUNTS)
def test_the_tables_are_the_models(count):
    """A seeded sample of each table against the model: a changed model with a stale table
    fails here (write the tables again: python -m solver.rating_table --write)."""
    rng = random.Random(count)
    hands = [tuple(sorted(rng.randint(1, 13) for _ in range(count))) for _ in range(25)]
    assert all(rating_table.covers(hand, 24) for hand in hands)
    assert [rating_table.recorded(hand) for hand in hands] \
        == [modelled_difficulty(hand, 24) for hand in hands]


@pytest.mark.parametrize("count", rating_table.COUNTS)
def test_a_hand_is_found_at_its_place(count):
    every = itertools.combinations_with_replacement(range(1, 14), count)
    assert all(rating_table.rank(hand) == place for place, hand in enumerate(every))
    assert not rating_table.covers((1, 2, 3, 4, 5, 14), 24)
    assert not rating_table.covers((1, 2, 3, 4, 5, 6), 25)
    assert not rating_table.covers((0, 2, 3, 4, 5, 6), 24)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m tests.solver.test_rating_levels --write")
    from tests.conftest import SHARED
    write(SHARED, rating_of)
