"""Precise feedback on an answer: how it misuses the hand's numbers, which Countdown step breaks
the rule, and the steps of a solution that hints give one at a time.

Pure functions over the solver's expression trees: they run in the pool with the judging. The
wording stays in the games' rules and the catalogs; nothing here knows about Telegram.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from solver import BinOp, Expr, Num, parse, to_text
from solver.expr import apply, numbers, value

Step = tuple[str, str]
"""A step of a solution: its ASCII text (e.g. "3-8/3") and its exact value (e.g. "1/3")."""


@dataclass(frozen=True)
class Overuse:
    """A number of the hand that an answer uses more often than the hand has it."""

    number: int
    used: int
    has: int


def absent(extra: Iterable[int], hand: Iterable[int]) -> tuple[int, ...]:
    """The numbers an answer uses that the hand does not have at all, each once, sorted."""
    dealt = set(hand)
    return tuple(sorted({n for n in extra if n not in dealt}))


def overused(extra: Iterable[int], hand: Iterable[int]) -> tuple[Overuse, ...]:
    """The hand's numbers an answer uses too often ("2 is used twice, the hand has one 2")."""
    more, dealt = Counter(extra), Counter(hand)
    return tuple(Overuse(n, dealt[n] + more[n], dealt[n]) for n in sorted(more) if dealt[n])


def tries_hand(expr: Expr, hand: Iterable[int], at_least: int) -> bool:
    """Whether a typed expression is an attempt at this hand: every number in it is one of
    the hand's (how often aside) and it has as many as an answer needs. Arithmetic on other
    numbers, and partial workings, are chatter; a number used too often is a wrong attempt,
    in every game alike."""
    used = numbers(expr)
    dealt = set(hand)
    return len(used) >= at_least and all(n in dealt for n in used)


# --- Countdown's steps ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BadStep:
    """The first step of an answer that breaks Countdown's rule, with the values it combines:
    `reason` is below_zero, zero, fraction or division_by_zero."""

    text: str
    reason: str


def first_bad_step(expr: Expr, low: int = 1) -> BadStep | None:
    """The first step (in the order it is worked out) whose result is not a whole number of at
    least `low`, or None when every step is fine. The step is shown with the values it combines
    ("4-9", not "(2+2)-9"), since those are what the player computed."""
    found = _walk(expr, low)
    return found if isinstance(found, BadStep) else None


def _walk(expr: Expr, low: int) -> int | BadStep:
    if isinstance(expr, Num):
        return expr.value
    a = _walk(expr.left, low)
    if isinstance(a, BadStep):
        return a
    b = _walk(expr.right, low)
    if isinstance(b, BadStep):
        return b
    text = to_text(BinOp(expr.op, Num(a), Num(b)))
    if expr.op == "/" and b == 0:
        return BadStep(text, "division_by_zero")
    result = apply(expr.op, a, b)
    if not isinstance(result, int):
        return BadStep(text, "fraction")
    if result < low:
        return BadStep(text, "zero" if result == 0 else "below_zero")
    return result


# --- hints ---------------------------------------------------------------------------------------

def steps(solution: str | Expr) -> list[Step]:
    """The steps of a solution in the order a person works them out (the first is the hint
    `first_step` gives), each with its exact value; the last step is the answer itself."""
    expr = parse(solution) if isinstance(solution, str) else solution
    found: list[Step] = []
    _steps(expr, found)
    return found


def _steps(expr: Expr, found: list[Step]) -> None:
    if isinstance(expr, BinOp):
        _steps(expr.left, found)
        _steps(expr.right, found)
        found.append((to_text(expr), str(value(expr))))


assert [s.number for s in overused([2], (2, 3, 4, 6))] == [2]
assert first_bad_step(parse("(2+2-9)*3")) == BadStep("4-9", "below_zero")
assert first_bad_step(parse("7/2*2")) == BadStep("7/2", "fraction")
assert steps("8/(3-8/3)") == [("8/3", "8/3"), ("3-8/3", "1/3"), ("8/(3-8/3)", "24")]
