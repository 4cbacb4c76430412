"""24's daily puzzle (bot.play.daily deals it): which hands a day may deal, worked out here and
kept in daily_hands, so the bot never rates hands in its event loop."""

from __future__ import annotations

import math
import random

from bot.play.games import tables
from bot.play.games.game import DailyDeck
from bot.play.games.twentyfour import daily_hands
from bot.play.games.twentyfour.rules import FOURS
from solver import is_solvable
from solver.rating import level

TARGET = 24
LEVEL = "medium"  # hard enough to be worth a day, easy enough that most players finish it
ORDER_SEED = 24  # fixes the table's order (the days take it in an order drawn with a key)

DAILY = DailyDeck(daily_hands.HANDS, TARGET, LEVEL)


def eligible_hands() -> tuple[tuple[int, ...], ...]:
    """What daily_hands holds, worked out: the hands of four numbers 1..13 that are solvable,
    rated LEVEL and not `obvious` (451 of them), in a fixed shuffled order (0.3 s)."""
    eligible = [hand for hand in FOURS if is_solvable(list(hand), TARGET)
                and level(hand, TARGET) == LEVEL and not obvious(hand)]
    random.Random(ORDER_SEED).shuffle(eligible)
    return tuple(eligible)


def obvious(hand: tuple[int, ...]) -> bool:
    """A hand whose plain sum or product is the target: no puzzle for a whole day, whatever
    the rating (the model rates 2 7 7 8 medium)."""
    return sum(hand) == TARGET or math.prod(hand) == TARGET


def write_table(path: str) -> None:
    """Write daily_hands from `eligible_hands` (after a change to the rating)."""
    tables.write_table(path, {"HANDS": ("tuple[tuple[int, int, int, int], ...]",
                                        eligible_hands())})


if __name__ == "__main__":
    tables.main(__spec__.name, write_table, daily_hands.__file__)
