"""Countdown in a chat: the TV draw, whole-number steps, and the closest answer at the end wins.

Subset rules (each number at most once, every step a positive whole number). Anyone may answer
while the round runs; an exact answer ends it at once, since nothing can beat it. The top-level
functions run in the solver pool; `Countdown` words their results.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable

from bot.play.games import feedback
from bot.play.games.batches import DEAL_SECONDS, Maker
from bot.play.games.reading import read_expression
from bot.play.games.records import Analysis, Deal, PlayOptions, Revealed, Verdict
from bot.play.games.rules import Rules
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts
from solver import evaluate, to_text
from solver.countdown import solve_countdown
from solver.expr import numbers as expr_numbers

GAME = "countdown"
LARGE = (25, 50, 75, 100)
SMALL = tuple(n for n in range(1, 11) for _ in range(2))  # two cards of each
CARDS = 6
TARGETS = (101, 999)
DEFAULT_LARGE = 2
POINTS = ((0, 10), (5, 7), (10, 5))  # (at most this far from the target, points)
WITHIN = POINTS[-1][0]


def points_for(distance: int) -> int:
    """10 for the target itself, 7 within 5, 5 within 10, nothing further away."""
    return next((points for within, points in POINTS if distance <= within), 0)


def draw(seed: int, large: int = DEFAULT_LARGE) -> Deal:
    """The TV draw: `large` of 25 50 75 100, the rest from two each of 1..10; a target 101..999."""
    rng = random.Random(seed)
    cards = rng.sample(LARGE, large) + rng.sample(SMALL, CARDS - large)
    return Deal(GAME, tuple(cards), rng.randint(*TARGETS), str(large), POINTS[0][1])


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
    if isinstance(expr, Verdict):
        return expr
    if not explicit and not feedback.tries_hand(expr, hand, 2):
        return Verdict("ignore")
    used, dealt = Counter(expr_numbers(expr)), Counter(hand)
    shown = to_text(expr)
    extra = tuple(sorted((used - dealt).elements()))
    if extra:
        return Verdict("wrong_numbers", shown, extra=extra)
    bad = feedback.first_bad_step(expr)
    if bad is not None and bad.reason == "division_by_zero":
        return Verdict("division_by_zero", shown)
    if bad is not None:
        return Verdict("not_whole", shown, params={"step": bad.text, "reason": bad.reason})
    value = evaluate(expr)
    distance = abs(int(value) - target)
    return Verdict("right" if distance == 0 else "close", shown, value=str(value),
                   distance=distance)


def best(hand: tuple[int, ...], target: int) -> tuple[int, str]:
    """The nearest value the hand can make (ties: the lower) and an expression for it."""
    result = solve_countdown(hand, target, "subset")
    return result.nearest, result.nearest_expression


class Countdown(Rules):
    name = GAME
    closest_wins = True

    def replay_options(self, ended: Round, same_level: bool) -> PlayOptions:
        """As many large numbers again."""
        return PlayOptions(large=sum(n in LARGE for n in ended.hand))

    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        return ready, (DEFAULT_LARGE if options.large is None else options.large,)

    def analyser(self) -> Callable[[tuple, int], Analysis]:
        return analyse

    def judge(self, round_: Round, text: str, explicit: bool) -> Verdict:
        """Judged in the event loop, as 24's answers are (bot.play.games.twentyfour)."""
        return judge(text, round_.hand, round_.target, explicit)

    def points_for(self, distance: int) -> int:
        return points_for(distance)

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        return texts("answer_how_countdown" if typing else "answer_how_countdown_no_typing")

    def deal_text(self, round_: Round, texts: Texts) -> str:
        return texts("deal_countdown", numbers=markup.numbers(round_.hand), target=round_.target,
                     seconds=round(round_.deadline - round_.started_at))

    def verdict_text(self, verdict: Verdict, round_: Round, texts: Texts) -> str:
        if verdict.kind == "close":
            assert verdict.distance is not None
            key = "countdown_close" if verdict.distance <= WITHIN else "countdown_far"
            return texts(key, expression=markup.code(verdict.expression), value=verdict.value,
                         distance=verdict.distance, points=points_for(verdict.distance))
        return super().verdict_text(verdict, round_, texts)

    def revealed(self, analysis: Analysis, round_: Round, texts: Texts) -> Revealed:
        assert analysis.best is not None
        nearest, expression = analysis.best
        return Revealed(best_text(texts, round_.hand, round_.target, nearest, expression))


def best_text(texts: Texts, hand: tuple[int, ...] | list[int], target: int, nearest: int,
              expression: str) -> str:
    """The best a hand can do for a target, with one expression for it."""
    if nearest == target:
        return texts("countdown_best_exact", numbers=markup.numbers(hand), target=target,
                     expression=markup.code(expression))
    return texts("countdown_best", numbers=markup.numbers(hand), target=target, best=nearest,
                 distance=abs(nearest - target), expression=markup.code(expression))
