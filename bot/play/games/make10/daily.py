"""Make 10's daily puzzle (bot.play.daily deals it): every four digits 0..9 that make 10 and are
no puzzle at a glance, worked out here and kept in daily_hands, so that no process works them
out as it starts. Its days are drawn apart from every other game's (`draws`)."""

from __future__ import annotations

import math
import random
from itertools import combinations_with_replacement

from bot.play.games import tables
from bot.play.games.game import DailyDeck
from bot.play.games.make10 import daily_hands
from bot.play.games.make10.rules import COUNT, DIGITS, NAME, TARGET
from solver import is_solvable

ORDER_SEED = 10  # fixes the table's order (the days take it in an order drawn with a key)

DAILY = DailyDeck(daily_hands.HANDS, TARGET, "", draws=NAME)


def eligible_hands() -> tuple[tuple[int, ...], ...]:
    """What daily_hands holds, worked out: the hands of four digits that make 10 and are not
    `obvious`, in a fixed shuffled order."""
    eligible = [hand for hand in combinations_with_replacement(range(DIGITS[0], DIGITS[1] + 1),
                                                               COUNT)
                if is_solvable(list(hand), TARGET) and not obvious(hand)]
    random.Random(ORDER_SEED).shuffle(eligible)
    return tuple(eligible)


def obvious(hand: tuple[int, ...]) -> bool:
    """A hand whose digits but its zeros (which a sum takes in unseen) make 10 by a plain sum
    or product: no puzzle for a whole day."""
    digits = [digit for digit in hand if digit]
    return sum(digits) == TARGET or math.prod(digits) == TARGET


def write_table(path: str) -> None:
    """Write daily_hands from `eligible_hands`."""
    tables.write_table(path, {"HANDS": ("tuple[tuple[int, int, int, int], ...]",
                                        eligible_hands())})


if __name__ == "__main__":
    tables.main(__spec__.name, write_table, daily_hands.__file__)
