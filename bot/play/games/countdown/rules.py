"""Countdown in a chat: the TV draw, whole-number steps, and the closest answer at the end wins.

Subset rules (each number at most once, every step a positive whole number). Anyone may answer
while the round runs; an exact answer ends it at once, since nothing can beat it. The top-level
functions run in the solver pool; `Countdown` holds the rules (its words: the folder's words.py).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence

from bot.play.rules import feedback
from bot.play.rules.base import Rules
from bot.play.rules.batches import DEAL_SECONDS, Maker
from bot.play.rules.page import Combine, Form, Tiles
from bot.play.rules.page import Puzzle as PagePuzzle
from bot.play.rules.reading import read_expression
from bot.play.rules.records import (
    IGNORED,
    Analysis,
    BadStep,
    Deal,
    DivisionByZero,
    Near,
    PlayOptions,
    Puzzle,
    Right,
    Verdict,
    Wrong,
    WrongNumbers,
)
from solver import Expr, evaluate, to_text
from solver.countdown import solve_countdown
from solver.expr import numbers as expr_numbers

NAME = "countdown"
LARGE = (25, 50, 75, 100)
SMALL = tuple(n for n in range(1, 11) for _ in range(2))  # two cards of each
CARDS = 6
TARGETS = (101, 999)
DEFAULT_LARGE = 2
POINTS = ((0, 10), (5, 7), (10, 5))  # (at most this far from the target, points)
WITHIN = POINTS[-1][0]
TILES = Counter(SMALL) + Counter(LARGE)  # every tile a draw may hold


def points_for(distance: int) -> int:
    """10 for the target itself, 7 within 5, 5 within 10, nothing further away."""
    return next((points for within, points in POINTS if distance <= within), 0)


def draw(seed: int, large: int = DEFAULT_LARGE) -> Deal:
    """The TV draw: `large` of 25 50 75 100, the rest from two each of 1..10; a target 101..999."""
    rng = random.Random(seed)
    cards = rng.sample(LARGE, large) + rng.sample(SMALL, CARDS - large)
    return Deal(NAME, tuple(cards), rng.randint(*TARGETS), str(large), POINTS[0][1])


def ready(seed: int, large: int = DEFAULT_LARGE) -> Deal:
    """`draw`, with the best the hand can do (what the round's end shows)."""
    dealt = draw(seed, large)
    return dataclasses.replace(dealt, analysis=analyse(dealt.hand, dealt.target))


def analyse(hand: tuple[int, ...], target: int) -> Analysis:
    return Analysis(best=best(hand, target))


def judge(text: str, hand: tuple[int, ...], target: int, explicit: bool) -> Verdict:
    """A valid answer's value and distance, or what is wrong with it: numbers the hand lacks,
    or the first step that is not a whole number above zero. A plain message (not explicit) is
    an attempt when it uses the hand's numbers, at least two (feedback.tries_hand)."""
    expr = read_expression(text, explicit)
    if not isinstance(expr, Expr):
        return expr
    if not explicit and not feedback.tries_hand(expr, hand, 2):
        return IGNORED
    used, dealt = Counter(expr_numbers(expr)), Counter(hand)
    shown = to_text(expr)
    extra = tuple(sorted((used - dealt).elements()))
    if extra:
        return Wrong(shown, WrongNumbers(extra=extra))
    bad = feedback.first_bad_step(expr)
    if bad is not None and bad.reason == "division_by_zero":
        return Wrong(shown, DivisionByZero())
    if bad is not None:
        return Wrong(shown, BadStep(bad.text, bad.reason))
    value = evaluate(expr)
    distance = abs(int(value) - target)
    if distance == 0:
        return Right(shown, str(value))
    return Near(shown, str(value), distance)


def best(hand: tuple[int, ...], target: int) -> tuple[int, str]:
    """The nearest value the hand can make (ties: the lower) and an expression for it."""
    result = solve_countdown(hand, target, "subset")
    return result.nearest, result.nearest_expression


class Countdown(Rules):
    name = NAME
    closest_wins = True

    def replay_options(self, ended: Puzzle, same_level: bool) -> PlayOptions:
        """As many large numbers again."""
        return PlayOptions(large=sum(n in LARGE for n in ended.hand))

    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        return ready, (DEFAULT_LARGE if options.large is None else options.large,)

    def analyser(self) -> Callable[[tuple, int], Analysis]:
        return analyse

    def page(self, hand: tuple, target: int) -> tuple[PagePuzzle, Form]:
        """Some tiles, whole steps; the closest answer wins."""
        return Tiles(tuple(hand), target), Combine(every=False, whole=True)

    def may_reach(self, numbers: Sequence[int]) -> bool:
        """Any part of the tiles may answer: numbers all drawn from the six tiles' bag."""
        return bool(numbers) and not Counter(numbers) - TILES

    def judge(self, puzzle: Puzzle, text: str, explicit: bool) -> Verdict:
        """Judged in the event loop, as 24's answers are (bot.play.games.twentyfour.rules)."""
        return judge(text, puzzle.hand, puzzle.target, explicit)

    def points_for(self, distance: int) -> int:
        return points_for(distance)
