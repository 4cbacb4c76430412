"""/krypto's arguments: none for a round; cards and their target to solve ("20 5 = 4": up to six
cards 1 to 25 and a target 1 to 25), every distinct way shown."""

from __future__ import annotations

from bot.play.asking.numbers import (
    SOLVE_MAX_NUMBERS,
    at_most,
    numbers_and_target,
    target_within,
    within,
)
from bot.play.asking.requests import DealRequest, SolveRequest
from bot.play.asking.usage import Usage, UsageError
from bot.play.games.krypto.rules import CARDS, NAME
from solver.digits import plain_digits

# its example solves two cards, which no deal of any game is made of (the live-hand guard)
USAGE = Usage("krypto_usage", {"most": SOLVE_MAX_NUMBERS, "high": CARDS[1]}, "/krypto",
              several_words="/krypto 20 5 = 4")


def read(arguments: str) -> DealRequest | SolveRequest:
    arguments = plain_digits(arguments)
    if not arguments.strip():
        return DealRequest(NAME)
    numbers, target = numbers_and_target(arguments)
    at_most(numbers, SOLVE_MAX_NUMBERS)
    within(numbers, *CARDS)
    if target is None:
        raise UsageError("no_target_krypto")
    target_within(target, *CARDS)
    return SolveRequest(tuple(numbers), target)
