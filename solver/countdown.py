"""Countdown: get as close to the target as the numbers allow, every step a whole number.

Two rule sets. "all" (the seed's contest): every number used exactly once, intermediate results
non-negative whole numbers; the answer is the largest reachable value at most the target.
"subset" (TV Countdown): each number at most once, intermediates positive; the answer is the
nearest reachable value (ties: the lower), and the largest one at most the target is reported too.
The scan asks the hand's search about values outwards from the target: the compiled one
(solver/native/countdown.c) when it is built and the values fit in 62 bits, else its pure twin
solver.countdown_search, whose values are exact Python integers, uncapped. Only
`countdown_solutions` uses the 24 engine (its public `solve`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from solver.countdown_native import Search, as_expr, new_search
from solver.countdown_search import Hand
from solver.errors import InputError
from solver.expr import BinOp, Expr, Num, to_text
from solver.parser import parse
from solver.solutions import solve

RULES = ("all", "subset")
MAX_NUMBERS, MAX_NUMBER, MAX_TARGET = 8, 1000, 100_000
SINGLE_VALUES = 16  # values asked one by one before the scan asks for ranges
PREPARE_AFTER = 3  # distances tried before the parts of the whole hand get their value sets
FIRST_RANGE = 128  # the first range's width; each next one is twice as wide


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
    search = new_search(hand, rules == "subset")
    best, nearest = _scan(search, target)
    expression = None if best is None else to_text(as_expr(search.expression(search.full, best)))
    nearest_expression = (expression if nearest == best and expression is not None
                          else to_text(as_expr(search.expression(search.full, nearest))))
    return CountdownResult(hand, target, rules, best, expression, nearest, nearest_expression)


def _scan(search: Search, target: int) -> tuple[int | None, int]:
    """(largest value <= target, nearest value, ties lower), outwards from the target.

    First single values at distance 0, 1, 2, ... (below before above: ties go low), while the
    answer is likely near; then ranges around the target, twice as wide each time, so a hand
    whose values are sparse there costs a few range searches. The nearest value below the
    target is also the best; one above it leaves the best to a scan further down.
    """
    ceiling = search.ceiling(2 * target)
    reaches, full, low = search.reaches, search.full, search.low
    for distance in range(SINGLE_VALUES):
        below, above = target - distance, target + distance
        if below < low and above > ceiling:
            break
        if distance == PREPARE_AFTER:
            search.build_parts()
        if below >= low and below <= ceiling and reaches(full, below):
            return below, below
        if distance and above <= ceiling and reaches(full, above):
            return _below(search, below - 1, SINGLE_VALUES), above
    reach = SINGLE_VALUES - 1  # every value within this distance is known not to be made
    width = FIRST_RANGE
    while target - reach > low or target + reach < ceiling:
        found = search.window(full, target - reach - width, target + reach + width)
        if found:
            nearest = min(found, key=lambda v: (abs(v - target), v))
            under = [v for v in found if v <= target]
            if nearest <= target or under:
                return max(under), nearest
            return _below(search, target - reach - width - 1, 0), nearest
        reach, width = reach + width, 2 * width
    raise AssertionError("a hand always makes its largest value")


def _below(search: Search, start: int, singles: int) -> int | None:
    """The largest value at most `start` that the whole hand makes: a few single values, then
    ranges going down."""
    for value in range(start, max(start - singles, search.low - 1), -1):
        if search.reaches(search.full, value):
            return value
    start -= singles
    width = FIRST_RANGE
    while start >= search.low:
        found = search.window(search.full, start - width + 1, start)
        if found:
            return max(found)
        start, width = start - width, 2 * width
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
