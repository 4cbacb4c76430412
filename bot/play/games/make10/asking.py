"""/make10's arguments: none for a round; digits to solve for 10 (up to six, 0 to 9, and "= 10"
if one writes it), every distinct way shown."""

from __future__ import annotations

from bot.play.asking.numbers import SOLVE_MAX_NUMBERS, at_most, numbers_and_target, within
from bot.play.asking.requests import DealRequest, SolveRequest
from bot.play.asking.usage import Usage, UsageError, shown
from bot.play.games.make10.rules import DIGITS, NAME, TARGET
from bot.text import markup
from solver.digits import plain_digits

# no example solves digits: any of them could be a hand being played (the live-hand guard)
USAGE = Usage("make10_usage", {"most": SOLVE_MAX_NUMBERS, "high": DIGITS[1], "target": TARGET},
              "/make10")


def read(arguments: str) -> DealRequest | SolveRequest:
    arguments = plain_digits(arguments)
    if not arguments.strip():
        return DealRequest(NAME)
    numbers, target = numbers_and_target(arguments)
    at_most(numbers, SOLVE_MAX_NUMBERS)
    within(numbers, *DIGITS)
    if target not in (None, TARGET):
        raise UsageError("target_range", target=shown(markup.signed(target)), low=TARGET,
                         high=TARGET)
    return SolveRequest(tuple(numbers), TARGET)
