"""Krypto's daily puzzle (bot.play.daily deals it): a year of deals off Krypto's deck, each five
cards and the sixth its target, that the five can make and not at a glance, worked out here and
kept in daily_hands, so that no process works them out as it starts. Each hand has its own
target (`targets`), and its days are drawn apart from every other game's (`draws`)."""

from __future__ import annotations

import math
import random

from bot.play.games import tables
from bot.play.games.game import DailyDeck
from bot.play.games.krypto import daily_hands
from bot.play.games.krypto.rules import DECK, HAND, NAME
from solver import is_solvable

DAYS = 365  # deals in the table: a deal comes back once a year at most
ORDER_SEED = 56  # fixes the table (the days take it in an order drawn with a key)

DAILY = DailyDeck(daily_hands.HANDS, None, "", targets=daily_hands.TARGETS, draws=NAME)


def eligible_deals() -> tuple[tuple[tuple[int, ...], int], ...]:
    """What daily_hands holds, worked out: DAYS distinct deals of the shuffled deck (five cards
    sorted, and the sixth) that the five can make and that are not `obvious`."""
    rng, deals = random.Random(ORDER_SEED), dict[tuple[tuple[int, ...], int], None]()
    while len(deals) < DAYS:
        *hand, target = rng.sample(DECK, HAND + 1)
        if is_solvable(hand, target) and not obvious(hand, target):
            deals[tuple(sorted(hand)), target] = None
    return tuple(deals)


def obvious(hand: list[int], target: int) -> bool:
    """A deal whose plain sum or product is its target: no puzzle for a whole day."""
    return sum(hand) == target or math.prod(hand) == target


def write_table(path: str) -> None:
    """Write daily_hands from `eligible_deals`."""
    deals = eligible_deals()
    tables.write_table(path, {
        "HANDS": ("tuple[tuple[int, int, int, int, int], ...]", [hand for hand, _ in deals]),
        "TARGETS": ("tuple[int, ...]", [target for _, target in deals])})


if __name__ == "__main__":
    tables.main(__spec__.name, write_table, daily_hands.__file__)
