"""The public questions about a hand: all its distinct solutions, the first one, whether one exists.

Also the checks on users' answers (`evaluate`, `canonical`). Input is validated here, once, so the
search below can trust it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from solver import native
from solver.errors import InputError, NumbersMismatchError
from solver.expr import Expr, Value, to_text
from solver.expr import first_step as _first_step
from solver.expr import numbers as expr_numbers
from solver.expr import value as expr_value
from solver.normal import (
    Key,
    canonical_key,
    canonical_of,
    key_to_expr,
    negatable,
    negated,
    solution_classes,
)
from solver.parser import parse
from solver.search import Hand, Search

MAX_NUMBERS = 8
MAX_NUMBER = 1_000_000


def validate_hand(numbers: Iterable[int], target: int | Fraction = 24) -> tuple[Hand, Value]:
    """The hand sorted, and the target; raises InputError for what the solver does not take."""
    hand = list(numbers)
    if not 1 <= len(hand) <= MAX_NUMBERS:
        raise InputError(f"Give between 1 and {MAX_NUMBERS} numbers.", count=len(hand))
    for n in hand:
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_NUMBER:
            raise InputError(f"Each number must be a whole number from 0 to {MAX_NUMBER:,}.",
                             number=n)
    if isinstance(target, bool) or not isinstance(target, int | Fraction):
        raise InputError("The target must be a whole number.", target=target)
    return tuple(sorted(hand)), target


def _rank(text: str) -> tuple:
    """Simplest first: fewer divisions, fewer parentheses, shorter."""
    return (text.count("/"), text.count("("), len(text), text.count("-"), text)


def _printable(key: Key, negative: bool) -> str | None:
    if negative:
        return to_text(key_to_expr(negated(key))) if negatable(key) else None
    return to_text(key_to_expr(key))


def _distinct(hand: Hand, target: Value, integer_only: bool) -> list[str]:
    """The simplest text of each distinct solution, among the ways the search wrote it."""
    keys = Search(integer_only).expressions(hand, target if target >= 0 else -target)
    texts = [_printable(key, target < 0) for key in keys]
    best: dict[int, str] = {}
    for text, group in zip(texts, solution_classes(keys), strict=True):
        if text is not None and (group not in best or _rank(text) < _rank(best[group])):
            best[group] = text
    return list(best.values())


PURE = object()  # what `_natively` returns when the pure-Python solver has to answer


def _natively(name: str, hand: Hand, goal: Value, integer_only: bool, *rules: Any) -> Any:
    """The compiled core's answer (solver.native), or PURE when it is not in use or when a
    value of this hand goes past 64 bits (OverflowError): Python's integers never wrap."""
    core = native.CORE
    if core is None:
        return PURE
    try:
        return getattr(core, name)(hand, goal, integer_only, *rules)
    except OverflowError:
        return PURE


def solve(numbers: Sequence[int], target: int = 24, *, integer_only: bool = False,
          limit: int | None = None) -> list[str]:
    """Every distinct solution (or the first `limit` of them), simplest first, as ASCII infix.

    `integer_only` requires every intermediate result to be a whole number.
    """
    hand, goal = validate_hand(numbers, target)
    # the core searches and settles the keys nothing moves out of; the rest it asks of the
    # Python rules (canonical_key), so the rules live in one place
    answer = _natively("solve", hand, goal, integer_only, canonical_key)
    texts: list[str] = (answer if answer is not PURE
                        else sorted(_distinct(hand, goal, integer_only), key=_rank))
    return texts if limit is None else texts[:limit]


def first_solution(numbers: Sequence[int], target: int = 24, *,
                   integer_only: bool = False) -> str | None:
    """One solution, found without listing them all; None when there is none.

    The first in the search's order (splits, then values ascending), the same for the
    compiled core and the pure path.
    """
    hand, goal = validate_hand(numbers, target)
    answer = _natively("first_solution", hand, goal, integer_only)
    if answer is not PURE:
        return answer
    search = Search(integer_only)
    key = search.first(hand, goal if goal >= 0 else -goal, negative=goal < 0)
    if key is None:
        return None
    return _printable(key, goal < 0)


def is_solvable(numbers: Sequence[int], target: int = 24, *, integer_only: bool = False) -> bool:
    """Whether the hand has a solution."""
    hand, goal = validate_hand(numbers, target)
    answer = _natively("is_solvable", hand, goal, integer_only)
    if answer is not PURE:
        return bool(answer)
    if goal >= 0:
        return Search(integer_only).reaches(hand, goal)
    return first_solution(numbers, target, integer_only=integer_only) is not None


def evaluate(answer: str | Expr, numbers: Sequence[int] | None = None) -> Value:
    """The exact value of an answer; with `numbers`, also checks it uses exactly that hand.

    Raises ParseError subclasses, DivisionByZeroError or NumbersMismatchError.
    """
    expr = parse(answer) if isinstance(answer, str) else answer
    if numbers is not None:
        check_numbers(expr, numbers)
    return expr_value(expr)


def check_numbers(expr: Expr, numbers: Sequence[int]) -> None:
    """Raise NumbersMismatchError unless the expression uses each number of the hand once."""
    used, dealt = Counter(expr_numbers(expr)), Counter(numbers)
    missing = sorted((dealt - used).elements())
    extra = sorted((used - dealt).elements())
    if missing or extra:
        parts = []
        if extra:
            parts.append("uses " + ", ".join(map(str, extra)) + " that the hand doesn't have")
        if missing:
            parts.append("leaves out " + ", ".join(map(str, missing)))
        raise NumbersMismatchError("That " + " and ".join(parts) + ".", missing, extra)


def canonical(answer: str | Expr) -> Hashable:
    """The normal form of an expression: equal for two expressions iff they are one solution."""
    expr = parse(answer) if isinstance(answer, str) else answer
    return canonical_of(expr)


def first_step(solution: str | Expr) -> str:
    """A two-number sub-expression of a solution that a hint can show (e.g. "8/3")."""
    expr = parse(solution) if isinstance(solution, str) else solution
    return to_text(_first_step(expr))
