"""/countdown's arguments: none, or '0'..'4' to deal with that many large numbers; or
'n1 .. n6 = T', a game to solve (the nearest value, with whole steps)."""

from __future__ import annotations

import re

from bot.play.asking.numbers import (
    CLOSEST_MAX_NUMBER,
    CLOSEST_MAX_TARGET,
    SOLVE_MAX_NUMBERS,
    closest_request,
    numbers_and_target,
)
from bot.play.asking.requests import DealRequest, SolveRequest
from bot.play.asking.usage import Usage, UsageError, or_none
from bot.play.games.countdown.rules import DEFAULT_LARGE, LARGE, NAME
from bot.play.rules import PlayOptions
from solver.digits import plain_digits

USAGE = Usage("countdown_usage",
              {"large": len(LARGE), "default": DEFAULT_LARGE, "most": SOLVE_MAX_NUMBERS,
               "high": CLOSEST_MAX_NUMBER, "target_high": CLOSEST_MAX_TARGET},
              "/countdown 2", {"large": f"/countdown {len(LARGE)}"},
              several_words="/countdown 2 8 25 50 75 150 = 1234")


def read_countdown(arguments: str) -> PlayOptions | SolveRequest:
    """The options of a round, or the game to solve."""
    arguments = plain_digits(arguments)
    words = arguments.split()
    if not words:
        return PlayOptions()
    if len(words) == 1 and re.fullmatch(r"[0-9]{1,3}", words[0]):  # one number: how many large
        if int(words[0]) > len(LARGE):  # (a game to solve has numbers and a target: not one)
            raise UsageError("large", most=len(LARGE), count=int(words[0]))
        return PlayOptions(large=int(words[0]))
    return closest_request(*numbers_and_target(arguments), "no_target_countdown")


def read(arguments: str) -> DealRequest | SolveRequest:
    read_ = read_countdown(arguments)
    return DealRequest(NAME, read_) if isinstance(read_, PlayOptions) else read_


def parse_countdown(arguments: str) -> PlayOptions | SolveRequest | None:
    """The options or the game to solve, or None where /countdown would refuse them."""
    return or_none(read_countdown, arguments)
