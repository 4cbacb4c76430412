"""An executable spec of the 24 game: what a hand can make, said as plainly as possible.

A hand makes a value when the value is one of its numbers, or when the hand splits into two
non-empty parts whose values combine by + - * / into it. Exact fractions, every order of the
operands, negative intermediate values allowed: nothing clever, so the fast solvers (which cut
all of that down) can be checked against it. Fine up to five numbers; it does not scale.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from itertools import combinations

Hand = tuple[int, ...]  # sorted numbers


def splits(hand: Hand) -> Iterator[tuple[Hand, Hand]]:
    """Every way to cut the hand into two non-empty parts (each part a sorted sub-hand)."""
    for size in range(1, len(hand)):
        for chosen in combinations(range(len(hand)), size):
            yield (tuple(hand[i] for i in chosen),
                   tuple(x for i, x in enumerate(hand) if i not in chosen))


def combine(a: Fraction, b: Fraction) -> set[Fraction]:
    """The values one operation makes of a and b, in this order."""
    return {a + b, a - b, a * b} | ({a / b} if b else set())


@cache
def values(hand: Hand) -> frozenset[Fraction]:
    """Every value the whole hand makes, each number used once."""
    if len(hand) == 1:
        return frozenset({Fraction(hand[0])})
    return frozenset(v for left, right in splits(hand)
                     for a in values(left) for b in values(right) for v in combine(a, b))


def solvable(numbers: list[int] | Hand, target: int | Fraction) -> bool:
    """Whether the numbers make the target."""
    return Fraction(target) in values(tuple(sorted(numbers)))


assert list(splits((1, 2, 3)))[:3] == [((1,), (2, 3)), ((2,), (1, 3)), ((3,), (1, 2))]
assert values((2, 3)) == {5, -1, 1, 6, Fraction(2, 3), Fraction(3, 2)}
assert solvable([3, 3, 8, 8], 24) and not solvable([1, 1, 1, 1], 24)
