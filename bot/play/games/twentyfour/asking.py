"""/play's arguments: a round of 24 at a level, with a count of cards and a target, in any order
('/play', '/play hard', '/play 5', '/play 4 = 36'). Three numbers or more before any "=" are a
hand to play, which /play does not take: /solve is named for them."""

from __future__ import annotations

import re

from bot.play.asking.levels import LEVEL_WORDS
from bot.play.asking.numbers import FRACTIONAL, SHORT_NUMBER, WHOLE
from bot.play.asking.requests import DealRequest
from bot.play.asking.usage import Usage, UsageError, or_none, shown
from bot.play.games.twentyfour.rules import COUNTS, NAME, TARGETS
from bot.play.rules import PlayOptions
from bot.text import markup
from solver.digits import plain_digits

HAND_NUMBERS = 3  # numbers after /play that are a hand, not a count
USAGE = Usage("play_usage", {"low": TARGETS[0], "high": TARGETS[1]}, "/play hard",
              {"count": "/play 5", "target_range": "/play 4 = 36",
               "nothing_after_equals": "/play 4 = 36", "not_whole": "/play 4 = 36"})


def read_play(arguments: str) -> PlayOptions:
    """The options /play's words ask for; what is not understood is named."""
    words = plain_digits(arguments).replace("=", " = ").split()
    given = [w for w in words[:words.index("=") if "=" in words else len(words)]
             if re.fullmatch(r"[0-9]+", w)]
    if len(given) >= HAND_NUMBERS:
        raise UsageError("play_numbers", numbers=shown(" ".join(given)))
    level = count = target = None
    i = 0
    while i < len(words):
        word = words[i].lower()
        if word in LEVEL_WORDS:
            if level is not None:
                raise UsageError("repeated", word=shown(words[i]))
            level = LEVEL_WORDS[word]
        elif re.fullmatch(r"[0-9]{1,3}", word):
            if count is not None:
                raise UsageError("repeated", word=word)
            if int(word) not in COUNTS:
                raise UsageError("count", count=int(word))
            count = int(word)
        elif word == "=":
            i += 1
            if i == len(words):
                raise UsageError("nothing_after_equals")
            if target is not None:
                raise UsageError("repeated", word=shown(words[i]))
            target = _target(words[i])
        else:
            raise UsageError("unknown_word", word=shown(words[i]))
        i += 1
    return PlayOptions(level=level, count=count, target=target)


def _target(word: str) -> int:
    """A /play target: a whole number from 1 to 999 (any other number is out of range)."""
    if not WHOLE.fullmatch(word):
        raise UsageError("not_whole" if FRACTIONAL.fullmatch(word) else "unknown_word",
                         word=shown(word))
    if len(word) > SHORT_NUMBER or not TARGETS[0] <= int(word) <= TARGETS[1]:
        raise UsageError("target_range", target=shown(markup.signed(word)), low=TARGETS[0],
                         high=TARGETS[1])
    return int(word)


def read(arguments: str) -> DealRequest:
    """/play's arguments: a round of 24."""
    return DealRequest(NAME, read_play(arguments))


def parse_play(arguments: str) -> PlayOptions | None:
    """The options, or None where /play would refuse them."""
    return or_none(read_play, arguments)
