"""Countdown: get as close to the target as the numbers allow, every step a whole number.

Two rule sets. "all" (the seed's contest): every number used exactly once, intermediate results
non-negative whole numbers; the answer is the largest reachable value at most the target.
"subset" (TV Countdown): each number at most once, intermediates positive; the answer is the
nearest reachable value (ties: the lower), and the largest one at most the target is reported too.
Reuses the 24 engine's search with `integer_only`; values are exact Python integers, uncapped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from solver.countdown_search import Hand, HandSearch
from solver.errors import InputError
from solver.expr import BinOp, Expr, Num, to_text
from solver.parser import parse
from solver.solutions import solve

RULES = ("all", "subset")
MAX_NUMBERS, MAX_NUMBER, MAX_TARGET = 8, 1000, 100_000
SINGLE_VALUES = 6  # values asked one by one before the scan asks for ranges
FIRST_RANGE = 32  # the first range's width; each next one is twice as wide


@dataclass(frozen=True)
class CountdownResult:
    """`best`: largest reachable value <= target (None if none); `nearest`: closest, ties lower."""

    numbers: tuple[int, ...]
    target: int
    rules: str
    best: int | None
    expression: str | None
    nearest: int
    nearest_expression: str

    @property
    def exact(self) -> bool:
        return self.best == self.target


def validate_game(numbers: Sequence[int], target: int, rules: str) -> Hand:
    """The hand sorted; InputError for what the game does not allow."""
    if rules not in RULES:
        raise InputError(f"Rules are {' or '.join(RULES)}.", rules=rules)
    hand = list(numbers)
    if not 1 <= len(hand) <= MAX_NUMBERS:
        raise InputError(f"Give between 1 and {MAX_NUMBERS} numbers.", count=len(hand))
    for n in hand:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_NUMBER:
            raise InputError(f"Each number must be a whole number from 1 to {MAX_NUMBER}.",
                             number=n)
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= MAX_TARGET:
        raise InputError(f"The target must be a whole number from 1 to {MAX_TARGET:,}.",
                         target=target)
    return tuple(sorted(hand))


def solve_countdown(numbers: Sequence[int], target: int, rules: str = "subset") -> CountdownResult:
    """The best reachable value under the rules, with an expression for it."""
    hand = validate_game(numbers, target, rules)
    search = HandSearch(hand, rules == "subset")
    best, nearest = _scan(search, target)
    expression = None if best is None else to_text(search.expression(search.full, best))
    nearest_expression = (expression if nearest == best and expression is not None
                          else to_text(search.expression(search.full, nearest)))
    return CountdownResult(hand, target, rules, best, expression, nearest, nearest_expression)


def _scan(search: HandSearch, target: int) -> tuple[int | None, int]:
    """(largest value <= target, nearest value): down from the target, then just above it."""
    ceiling = search.ceiling(2 * target)
    best = _first_made(search, min(target, ceiling), search.low, -1)
    # above the target only a strictly closer value wins (ties go to the lower one)
    limit = ceiling if best is None else min(ceiling, 2 * target - best - 1)
    above = None if best == target else _first_made(search, target + 1, limit, 1)
    nearest = above if above is not None else best
    assert nearest is not None  # the ceiling itself is always reachable
    return best, nearest


def _first_made(search: HandSearch, start: int, stop: int, step: int) -> int | None:
    """The first value the whole hand makes from start to stop (both included), step +-1.

    One value at a time while the answer is likely near, then ranges twice as wide each time,
    so a hand whose values are sparse around the target costs a few range searches.
    """
    reaches, full = search.reaches, search.full
    value = start
    for _ in range(SINGLE_VALUES):
        if (stop - value) * step < 0:
            return None
        if reaches(full, value):
            return value
        value += step
    width = FIRST_RANGE
    while (stop - value) * step >= 0:
        end = value + step * (width - 1)
        if (stop - end) * step < 0:
            end = stop
        found = search.window(full, min(value, end), max(value, end))
        if found:
            return max(found) if step < 0 else min(found)
        value, width = end + step, 2 * width
    return None


def countdown_solutions(numbers: Sequence[int], target: int, rules: str = "subset") -> list[str]:
    """Every distinct exact solution (the 24 engine's equivalence); none when not exact.

    Under "subset" rules, solutions using fewer numbers count too, and a solution must keep
    every step positive.
    """
    hand = validate_game(numbers, target, rules)
    if rules == "all":
        return solve(hand, target, integer_only=True)
    found: list[str] = []
    sub_hands = {sub for size in range(1, len(hand) + 1) for sub in combinations(hand, size)}
    for sub in sorted(sub_hands, key=lambda h: (len(h), h)):
        found += [s for s in solve(sub, target, integer_only=True) if steps_ok(parse(s), "subset")]
    return found


def steps_ok(expr: Expr, rules: str) -> bool:
    """Whether every step is a whole number, positive ("subset") or non-negative ("all")."""
    return _step_value(expr, 1 if rules == "subset" else 0) is not None


def _step_value(expr: Expr, low: int) -> int | None:
    if isinstance(expr, Num):
        return expr.value
    a = _step_value(expr.left, low)
    b = _step_value(expr.right, low)
    if a is None or b is None:
        return None
    assert isinstance(expr, BinOp)
    if expr.op == "+":
        v = a + b
    elif expr.op == "-":
        v = a - b
    elif expr.op == "*":
        v = a * b
    else:
        if b == 0 or a % b:
            return None
        v = a // b
    return v if v >= low else None
