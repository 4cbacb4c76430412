"""Krypto, the card game: a deck of 56 cards (three each of 1 to 6, four each of 7 to 10, two each
of 11 to 17, one each of 18 to 25); five are dealt and a sixth, turned up, is the target. Every one
of the five is used once, with + − × ÷ and brackets, to make the target exactly. A deal whose five
cannot make its target is dealt again; every distinct solution is shown at the end.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from bot.play.rules.batches import DEAL_SECONDS, Maker
from bot.play.rules.exact import ExactRules, analyse, may_reach_hands
from bot.play.rules.records import Deal, PlayOptions
from solver import is_solvable

NAME = "krypto"
DECK = (*(n for n in range(1, 7) for _ in range(3)), *(n for n in range(7, 11) for _ in range(4)),
        *(n for n in range(11, 18) for _ in range(2)), *range(18, 26))
CARDS = (1, 25)
HAND = 5
POINTS = 20
DEAL_TRIES = 500  # nearly every draw can make its target: a deal finding none never happens


def deal(seed: int, budget: float = DEAL_SECONDS) -> Deal | None:
    """Six cards off the shuffled deck, the last the target, until the five make it."""
    rng = random.Random(seed)
    for _ in range(DEAL_TRIES):
        *hand, target = rng.sample(DECK, HAND + 1)
        if is_solvable(hand, target):
            return Deal(NAME, tuple(hand), target, "", POINTS)
    return None


def ready(seed: int, budget: float = DEAL_SECONDS) -> Deal | None:
    """`deal`, with every solution and what hints give."""
    dealt = deal(seed, budget)
    return None if dealt is None else \
        dataclasses.replace(dealt, analysis=analyse(dealt.hand, dealt.target))


class Krypto(ExactRules):
    name = NAME

    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        return ready, (budget,)

    def may_reach(self, numbers: Sequence[int]) -> bool:
        """A hand is five cards 1..25 (any target)."""
        return may_reach_hands(list(numbers), *CARDS, (HAND,))
