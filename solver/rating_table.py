"""The ratings of the bot's usual deals, made once and kept: every hand of four, five or six
numbers 1..13 for 24, as the model of solver.rating rates it.

The model walks tens of thousands of states for a six-number hand (20-80 ms in Python), and a
deal draws a few hands before one has the level asked for; the 18,564 six-number and 6,188
five-number hands are few enough to rate once, ahead, and look up (a few microseconds). The 1,820
four-number hands are quick to rate (0.4-0.7 s all together) but not free to keep: rating them
in the bot's process left some 40,000 tuples and Fractions in the model's caches for the life of
the process, and every full garbage collection walked them (20-30 ms a collection, a stop of
the event loop; docs/benchmarks.md). Hands the tables do not hold (other counts, other numbers,
other targets) are rated by the model.

The files list one difficulty per hand (its repr, so the float read back is the model's own),
"-" for a hand with no solution, in the order of itertools.combinations_with_replacement over
1..13. `python -m solver.rating_table --write` makes them again from the model, which is what a
change of the model must do: tests/solver/test_rating_levels.py fails on a stale table.
"""

from __future__ import annotations

import itertools
import sys
from functools import cache
from math import comb
from pathlib import Path

LOW, HIGH = 1, 13  # the bot's cards
TARGET = 24
COUNTS = (4, 5, 6)
FOLDER = Path(__file__).resolve().parent
NO_SOLUTION = "-"


def path(count: int) -> Path:
    return FOLDER / f"rating_table_{count}.txt"


def rank(hand: tuple[int, ...]) -> int:
    """The place of a sorted hand of LOW..HIGH in combinations_with_replacement's order.

    Shifting the i-th number up by i makes the hand a strictly increasing choice among
    HIGH - LOW + len(hand) values, ranked by counting the choices that come before it.
    """
    count, size = len(hand), HIGH - LOW + len(hand)
    place, previous = 0, -1
    for i, number in enumerate(hand):
        chosen = number - LOW + i
        place += sum(comb(size - 1 - skipped, count - 1 - i)
                     for skipped in range(previous + 1, chosen))
        previous = chosen
    return place


@cache
def _table(count: int) -> list[str] | None:
    """The lines of a count's table; None when the file is not there (the model answers)."""
    try:
        text = path(count).read_text()
    except FileNotFoundError:
        return None
    lines = text.splitlines()
    header = 0
    while header < len(lines) and lines[header].startswith("#"):
        header += 1
    del lines[:header]
    if len(lines) != comb(HIGH - LOW + count, count):
        raise RuntimeError(f"{path(count)} has {len(lines)} hands: write it again")
    return lines


def covers(hand: tuple[int, ...], target: int) -> bool:
    """Whether the tables hold this sorted hand for this target."""
    return (target == TARGET and len(hand) in COUNTS and hand[0] >= LOW and hand[-1] <= HIGH
            and _table(len(hand)) is not None)


def recorded(hand: tuple[int, ...]) -> float | None:
    """The difficulty a covered sorted hand was rated; None when it has no solution."""
    lines = _table(len(hand))
    assert lines is not None
    line = lines[rank(hand)]
    return None if line == NO_SOLUTION else float(line)


def write(count: int) -> None:
    """Rate every hand of `count` numbers with the model and write the table."""
    from solver.rating import modelled_difficulty  # the model, not the tables

    header = (f"# the difficulty of every hand of {count} numbers {LOW}..{HIGH} for {TARGET} "
              f"(solver/rating_table.py), {NO_SOLUTION} for none")
    lines = [header]
    for hand in itertools.combinations_with_replacement(range(LOW, HIGH + 1), count):
        difficulty = modelled_difficulty(hand, TARGET)
        lines.append(NO_SOLUTION if difficulty is None else repr(difficulty))
    path(count).write_text("\n".join(lines) + "\n")
    _table.cache_clear()


assert rank((1, 1, 1, 1, 1)) == 0 and rank((13,) * 6) == comb(18, 6) - 1
assert [rank(hand) for hand in itertools.combinations_with_replacement(range(1, 14), 2)] \
    == list(range(comb(14, 2)))

if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python -m solver.rating_table --write")
    for count in COUNTS:
        write(count)
