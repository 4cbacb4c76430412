"""The solver work the bot needs, as plain functions that run in the process pool.

Everything here is picklable (top-level functions, frozen dataclasses), and is the only place the
bot calls the solver: the event loop never runs solver code.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass

from solver import (
    DivisionByZeroError,
    NumbersMismatchError,
    ParseError,
    canonical,
    check_numbers,
    evaluate,
    first_step,
    is_solvable,
    parse,
    solve,
    to_text,
)
from solver.expr import numbers as expr_numbers

LEVELS = {"easy": 10, "medium": 20, "hard": 30}  # points per level
LEVEL_MIX = (("easy", 40), ("medium", 35), ("hard", 25))  # percent of deals


@dataclass(frozen=True)
class Deal:
    hand: tuple[int, ...]
    target: int
    level: str
    points: int
    count: int


@dataclass(frozen=True)
class Verdict:
    """What an answer is: kind is right, wrong_value, wrong_numbers, division_by_zero,
    unreadable or ignore (a plain message that is no attempt at this hand)."""

    kind: str
    expression: str = ""
    value: str = ""
    reason: str = ""


def level_of(hand: tuple[int, ...], target: int = 24) -> tuple[str, int]:
    """(level, count of distinct solutions): fewer solutions, or only fractions, is harder."""
    solutions = solve(hand, target)
    if not solutions:
        return "none", 0
    if len(solutions) == 1 or not solve(hand, target, integer_only=True):
        return "hard", len(solutions)
    return ("medium" if len(solutions) <= 3 else "easy"), len(solutions)


def deal(seed: int, level: str | None = None, target: int = 24) -> Deal:
    """A random solvable hand of four numbers 1..13; the level drawn from the mix if not given."""
    rng = random.Random(seed)
    if level is None:
        level = rng.choices([name for name, _ in LEVEL_MIX],
                            weights=[weight for _, weight in LEVEL_MIX])[0]
    while True:
        hand = tuple(sorted(rng.randint(1, 13) for _ in range(4)))
        found, count = level_of(hand, target)
        if found == level:
            shown = list(hand)
            rng.shuffle(shown)
            return Deal(tuple(shown), target, level, LEVELS[level], count)


LOOKS_LIKE_MATH = re.compile(r"^[\d\s+\-*/×÷·xX−–()（）０-９＋－＊／=]+$")


def check_answer(text: str, hand: tuple[int, ...], target: int, explicit: bool) -> Verdict:
    """Judge an answer exactly. Plain messages (not explicit) that aren't an attempt are ignored."""
    text = text.strip()
    if "=" in text:  # "(3+3)*4 = 24" is fine; compare what stands before the sign
        text = text.split("=", 1)[0].strip()
    if not explicit and not LOOKS_LIKE_MATH.match(text):
        return Verdict("ignore")
    try:
        expr = parse(text)
    except ParseError as error:
        return Verdict("unreadable", reason=str(error)) if explicit else Verdict("ignore")
    shown = to_text(expr)
    if not explicit and sum((Counter(expr_numbers(expr)) & Counter(hand)).values()) < 2:
        return Verdict("ignore")
    try:
        value = evaluate(expr)
        check_numbers(expr, hand)
    except DivisionByZeroError:
        return Verdict("division_by_zero", shown)
    except NumbersMismatchError as error:
        return Verdict("wrong_numbers", shown, reason=str(error))
    if value != target:
        return Verdict("wrong_value", shown, value=str(value))
    return Verdict("right", shown)


def solutions(hand: tuple[int, ...], target: int) -> list[str]:
    """Every distinct solution, simplest first."""
    return solve(hand, target)


def hint(hand: tuple[int, ...], target: int) -> str:
    """The first step of the simplest solution."""
    return first_step(solve(hand, target, limit=1)[0])


def same_as(answer: str, others: list[str]) -> str | None:
    """The solution among `others` that `answer` is the same as, if any."""
    mine = canonical(answer)
    return next((other for other in others if canonical(other) == mine), None)


def solvable(hand: tuple[int, ...], target: int) -> bool:
    return is_solvable(hand, target)
