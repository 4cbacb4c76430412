"""/yahtzee's arguments: none for a round, or 65 dice to score (13 rolls of five, digits 1 to 6,
any separators); what is wrong named: a character that is no die, or how many dice there are."""

from __future__ import annotations

import re

from bot.play.asking.requests import DealRequest, DiceRequest
from bot.play.asking.usage import Usage, UsageError
from bot.play.games.yahtzee.rules import NAME, parse_dice
from solver.digits import plain_digits
from solver.yahtzee import ROLLS

DICE = ROLLS * 5  # a game of Yahtzee to solve: 13 rolls of five
# a game of Yahtzee as it is typed: 13 rolls of five dice
EXAMPLE = "/yahtzee " + " ".join(["11111", "22222", "33333", "44444", "55555", "66666", "12345",
                                  "23456", "11222", "33366", "12346", "11123", "45566"])
USAGE = Usage("yahtzee_usage", {"dice": DICE}, EXAMPLE)


def read_dice(arguments: str) -> DiceRequest:
    arguments = plain_digits(arguments)
    if odd := re.search(r"[^1-6\s,;/|]", arguments):
        raise UsageError("not_a_die", character=odd.group(0))
    rolls = parse_dice(arguments)
    if rolls is None:
        raise UsageError("dice_count", count=len(re.findall(r"[1-6]", arguments)))
    return DiceRequest(tuple(rolls))


def read(arguments: str) -> DealRequest | DiceRequest:
    return DealRequest(NAME) if not arguments.strip() else read_dice(arguments)
