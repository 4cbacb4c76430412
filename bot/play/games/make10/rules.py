"""Make 10, the ticket puzzle: four digits 0 to 9 (a train ticket's, a number plate's), each used
once with + − × ÷ and brackets, to make exactly 10. Zeros are dealt like any digit, so a division
by zero is a wrong answer said as such (bot.play.rules.exact judges it). Only hands that can make
10 are dealt; every distinct solution is shown at the end.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from bot.play.rules.batches import DEAL_SECONDS, Maker
from bot.play.rules.exact import ExactRules, analyse, may_reach_hands
from bot.play.rules.records import Deal, PlayOptions
from solver import is_solvable

NAME = "make10"
TARGET = 10
DIGITS = (0, 9)
COUNT = 4
POINTS = 10
DEAL_TRIES = 500  # four random hands in five make 10: a deal finding none never happens


def deal(seed: int, budget: float = DEAL_SECONDS) -> Deal | None:
    """Four random digits that make 10 (None if none turned up: never, in practice)."""
    rng = random.Random(seed)
    for _ in range(DEAL_TRIES):
        hand = tuple(rng.randint(*DIGITS) for _ in range(COUNT))
        if is_solvable(list(hand), TARGET):
            return Deal(NAME, hand, TARGET, "", POINTS)
    return None


def ready(seed: int, budget: float = DEAL_SECONDS) -> Deal | None:
    """`deal`, with every solution and what hints give."""
    dealt = deal(seed, budget)
    return None if dealt is None else \
        dataclasses.replace(dealt, analysis=analyse(dealt.hand, dealt.target))


class MakeTen(ExactRules):
    name = NAME

    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        return ready, (budget,)

    def may_reach(self, numbers: Sequence[int]) -> bool:
        """A hand is four digits (any target)."""
        return may_reach_hands(list(numbers), *DIGITS, (COUNT,))
