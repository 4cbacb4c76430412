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
from functools import lru_cache

from solver.errors import InputError
from solver.expr import BinOp, Expr, Num, to_text
from solver.normal import key_to_expr
from solver.parser import parse
from solver.search import SMALL, Hand, Search, reachable_values, splits
from solver.solutions import solve

RULES = ("all", "subset")
MAX_NUMBERS, MAX_NUMBER, MAX_TARGET = 8, 1000, 100_000


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


@lru_cache(maxsize=1 << 14)
def largest(hand: Hand) -> int:
    """The largest value the whole hand makes (sums and products only can reach it)."""
    if len(hand) == 1:
        return hand[0]
    return max(max(largest(a) * largest(b), largest(a) + largest(b)) for a, b in splits(hand))


def _sub_hands(hand: Hand) -> list[Hand]:
    parts = {hand} | {part for pair in splits(hand) for part in pair}
    return sorted(parts, key=lambda h: (len(h), h))


class _Game:
    """One game: which (sub-)hands may be used, and which of them reaches a value."""

    def __init__(self, hand: Hand, rules: str) -> None:
        self.search = Search(integer_only=True)
        self.hands = [hand] if rules == "all" else _sub_hands(hand)
        small = [h for h in self.hands if len(h) <= SMALL]
        self.small_values: set[int] = set()
        for h in small:
            self.small_values |= {int(v) for v in reachable_values(h, True)}
        self.big = [h for h in self.hands if len(h) > SMALL]
        self.ceiling = max(largest(h) for h in self.hands)

    def reaches(self, value: int) -> bool:
        if value in self.small_values:
            return True
        return any(self.search.can_make(h, value) for h in self.big)

    def expression(self, value: int) -> str:
        """One expression for the value, over the smallest sub-hand that reaches it.

        The smallest such sub-hand has no expression with a zero step (a zero part could be
        dropped), so its steps are positive.
        """
        for h in self.hands:
            if self.search.can_make(h, value):
                key = self.search.first(h, value)
                assert key is not None
                return to_text(key_to_expr(key))
        raise ValueError(f"{value} is not reachable")


def solve_countdown(numbers: Sequence[int], target: int, rules: str = "subset") -> CountdownResult:
    """The best reachable value under the rules, with an expression for it."""
    hand = validate_game(numbers, target, rules)
    game = _Game(hand, rules)
    low = 1 if rules == "subset" else 0
    best = next((v for v in range(min(target, game.ceiling), low - 1, -1) if game.reaches(v)),
                None)
    # above the target only a strictly closer value wins (ties go to the lower one)
    limit = game.ceiling if best is None else min(game.ceiling, 2 * target - best - 1)
    above = None if best == target else next(
        (v for v in range(target + 1, limit + 1) if game.reaches(v)), None)
    nearest = above if above is not None else best
    assert nearest is not None  # the ceiling itself is always reachable
    expression = game.expression(best) if best is not None else None
    nearest_expression = expression if expression and nearest == best else game.expression(nearest)
    return CountdownResult(hand, target, rules, best, expression, nearest, nearest_expression)


def countdown_solutions(numbers: Sequence[int], target: int, rules: str = "subset") -> list[str]:
    """Every distinct exact solution (the 24 engine's equivalence); none when not exact.

    Under "subset" rules, solutions using fewer numbers count too, and a solution must keep
    every step positive.
    """
    hand = validate_game(numbers, target, rules)
    if rules == "all":
        return solve(hand, target, integer_only=True)
    found: list[str] = []
    for sub in _sub_hands(hand):
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
