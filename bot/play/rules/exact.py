"""The rules every game of "each number once, the target exactly" shares (24, and the others
dealt that way): reading and judging an answer, every distinct solution, what hints give, the
page of tiles. A game of this kind says how it deals and which requests reach its hands; the
top-level functions here run in the solver pool as its analysis.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.play.rules import feedback
from bot.play.rules.base import Rules
from bot.play.rules.page import Combine, Form, Tiles
from bot.play.rules.page import Puzzle as PagePuzzle
from bot.play.rules.reading import read_expression
from bot.play.rules.records import (
    IGNORED,
    Analysis,
    DivisionByZero,
    Puzzle,
    Right,
    Verdict,
    Wrong,
    WrongNumbers,
    WrongValue,
)
from solver import (
    DivisionByZeroError,
    Expr,
    NumbersMismatchError,
    SolverError,
    check_numbers,
    evaluate,
    solve,
    to_text,
)
from solver.themes import Themes, themes


def judge(text: str, hand: tuple[int, ...], target: int, explicit: bool) -> Verdict:
    """Judge an answer exactly. A plain message (not explicit) is an attempt only when it uses
    the hand's numbers and as many as the hand has (feedback.tries_hand): partial workings and
    chatter are ignored. The numbers are checked before the arithmetic, so `1/0` with no 0
    dealt names the 0."""
    expr = read_expression(text, explicit)
    if not isinstance(expr, Expr):
        return expr
    shown = to_text(expr)
    if not explicit and not feedback.tries_hand(expr, hand, len(hand)) and \
            not makes_target_short(expr, hand, target):
        return IGNORED
    try:
        check_numbers(expr, hand)
        value = evaluate(expr)
    except NumbersMismatchError as error:
        return Wrong(shown, WrongNumbers(tuple(error.missing), tuple(error.extra)))
    except DivisionByZeroError:
        return Wrong(shown, DivisionByZero())
    if value != target:
        return Wrong(shown, WrongValue(str(value)))
    return Right(shown)


def makes_target_short(expr: Expr, hand: tuple[int, ...], target: int) -> bool:
    """Whether a typed expression of the hand's numbers makes the target with some of them
    left out ("8*(7-6+2)" for 8 7 6 2 3): an attempt that is told what it skips, not chatter."""
    if not feedback.tries_hand(expr, hand, 2):
        return False
    try:
        return evaluate(expr) == target
    except DivisionByZeroError:
        return False


def analyse(hand: tuple[int, ...], target: int) -> Analysis:
    """Every distinct solution, and what hints give from them (none for an unsolvable hand):
    the steps that teach of the simplest solution whose steps teach most."""
    found = solutions(hand, target)
    plan = feedback.hint_plan(found)
    return Analysis(solutions=tuple(found), steps=plan.steps, together=plan.together)


def solutions(hand: tuple[int, ...], target: int) -> list[str]:
    """Every distinct solution, simplest first."""
    return solve(hand, target)


def solved(hand: tuple[int, ...], target: int) -> tuple[list[str], Themes | None]:
    """Every distinct solution, and what every one of them needs: one piece of the pool's work
    (/solve says both)."""
    found = solve(hand, target)
    return found, themes_of(hand, target) if found else None


def themes_of(hand: tuple[int, ...], target: int) -> Themes | None:
    """What every solution of the hand needs (solver.themes: a fraction on the way, a factor
    pair, ...), or None where the solver works none out (six numbers, a target not above 0,
    no solution)."""
    try:
        return themes(hand, target)
    except SolverError:
        return None


class ExactRules(Rules):
    """A game where an answer uses every dealt number once to make the target exactly: its
    end lists every distinct solution (and pages through them), its hints are a solution's
    steps, its page is tiles combined to the target."""

    gives_hints = True
    pages_solutions = True
    coaches = True

    def analyser(self) -> Callable[[tuple, int], Analysis]:
        return analyse

    def page(self, hand: tuple, target: int) -> tuple[PagePuzzle, Form]:
        """Every tile once, the target exactly."""
        return Tiles(tuple(hand), target), Combine(every=True, whole=False)

    def judge(self, puzzle: Puzzle, text: str, explicit: bool) -> Verdict:
        """Judged here, in the event loop: the reader bounds an answer's length and depth
        (solver.parser: MAX_LENGTH, MAX_DEPTH), so judging one costs microseconds, less than a
        trip to the pool."""
        return judge(text, puzzle.hand, puzzle.target, explicit)


def may_reach_hands(numbers: tuple[int, ...] | list[int], low: int, high: int,
                    counts: tuple[int, ...]) -> bool:
    """Whether a request could reach a hand of `counts` numbers from `low` to `high` (any
    target), by the live-hand guard's rule: holding such a hand (with extras or none), or made
    of such numbers and one short of a hand's count."""
    cards = [n for n in numbers if low <= n <= high]
    if len(cards) >= min(counts):
        return True
    return len(cards) == len(numbers) and len(numbers) + 1 in counts
