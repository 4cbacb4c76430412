"""What players type after a command, read into plain values; None means "show the usage line".

Pure functions: no Telegram, no solver work. Limits are checked here, before anything reaches the
pool, so a giant or malformed request costs nothing. Numbers are ASCII digits only (full-width
ones are folded to ASCII first, as in answers): `str.isdigit` also accepts superscripts, which
`int` refuses, and `\\d` other scripts' digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.games import PlayOptions
from bot.games.countdown import LARGE
from bot.games.twentyfour import COUNTS, TARGETS
from bot.games.yahtzee import parse_dice
from solver.parser import fold_width

SOLVE_MAX_NUMBERS = 6
SOLVE_MAX_NUMBER = 1_000_000
SOLVE_MAX_TARGET = 10**9
CLOSEST_MAX_NUMBER = 1000
CLOSEST_MAX_TARGET = 100_000
LEVEL_WORDS = {"easy": "easy", "medium": "medium", "hard": "hard",
               "简单": "easy", "容易": "easy", "中等": "medium", "困难": "hard", "难": "hard"}
GAME_WORDS = {"24": "24", "countdown": "countdown", "yahtzee": "yahtzee"}
CLOSEST_FLAG = re.compile(r"(?:^|\s)(?:--closest|-c)(?=\s|$)")
NUMBERS_AND_TARGET = re.compile(r"\s*((?:[0-9]+[\s,]+)*[0-9]+)\s*(?:=\s*(-?[0-9]+)\s*)?")
MAX_ARGUMENTS = 400  # characters; well under Python's 4300-digit limit on int()

__all__ = ["SolveRequest", "parse_countdown", "parse_dice", "parse_play", "parse_solve",
           "parse_top"]


@dataclass(frozen=True)
class SolveRequest:
    numbers: tuple[int, ...]
    target: int
    closest: bool = False  # Countdown rules: the nearest value with whole-number steps


def _numbers_and_target(text: str) -> tuple[list[int], int | None] | None:
    if len(text) > MAX_ARGUMENTS:
        return None
    found = NUMBERS_AND_TARGET.fullmatch(text)
    if not found:
        return None
    numbers = [int(n) for n in re.split(r"[\s,]+", found.group(1).strip())]
    return numbers, int(found.group(2)) if found.group(2) is not None else None


def parse_solve(arguments: str) -> SolveRequest | None:
    """'3 8 3 8', '1 2 3 4 5 = 100', or '--closest 1 3 7 10 25 50 = 765'."""
    arguments = fold_width(arguments)
    closest = bool(CLOSEST_FLAG.search(arguments))
    read = _numbers_and_target(CLOSEST_FLAG.sub(" ", arguments))
    if read is None:
        return None
    numbers, target = read
    if closest:
        return closest_request(numbers, target)
    if not 1 <= len(numbers) <= SOLVE_MAX_NUMBERS or max(numbers) > SOLVE_MAX_NUMBER:
        return None
    target = 24 if target is None else target
    if abs(target) > SOLVE_MAX_TARGET:
        return None
    return SolveRequest(tuple(numbers), target)


def closest_request(numbers: list[int], target: int | None) -> SolveRequest | None:
    """Countdown's limits: up to six numbers 1..1000 and a target 1..100,000 (no default)."""
    if target is None or not 1 <= target <= CLOSEST_MAX_TARGET:
        return None
    if not 1 <= len(numbers) <= SOLVE_MAX_NUMBERS:
        return None
    if any(not 1 <= n <= CLOSEST_MAX_NUMBER for n in numbers):
        return None
    return SolveRequest(tuple(numbers), target, closest=True)


def parse_play(arguments: str) -> PlayOptions | None:
    """'/play', '/play hard', '/play 5', '/play 4 = 36', in any order."""
    words = fold_width(arguments).replace("=", " = ").split()
    level = count = target = None
    i = 0
    while i < len(words):
        word = words[i].lower()
        if word in LEVEL_WORDS and level is None:
            level = LEVEL_WORDS[word]
        elif re.fullmatch(r"[0-9]{1,3}", word) and int(word) in COUNTS and count is None:
            count = int(word)
        elif word == "=" and target is None and i + 1 < len(words):
            i += 1
            if not re.fullmatch(r"[0-9]{1,4}", words[i]):
                return None
            target = int(words[i])
            if not TARGETS[0] <= target <= TARGETS[1]:
                return None
        else:
            return None
        i += 1
    return PlayOptions(level=level, count=count, target=target)


def parse_countdown(arguments: str) -> PlayOptions | SolveRequest | None:
    """'' or '0'..'4': deal with that many large numbers; 'n1 .. n6 = T': solve one game."""
    arguments = fold_width(arguments)
    words = arguments.split()
    if not words:
        return PlayOptions()
    if len(words) == 1 and re.fullmatch(r"[0-9]", words[0]) and int(words[0]) <= len(LARGE):
        return PlayOptions(large=int(words[0]))
    read = _numbers_and_target(arguments)
    return closest_request(*read) if read is not None else None


def parse_top(arguments: str) -> tuple[bool, str | None] | None:
    """'/top', '/top all', '/top countdown', '/top all yahtzee': (all chats?, game or None)."""
    everywhere, game = False, None
    for word in fold_width(arguments).lower().split():
        if word in ("all", "全部") and not everywhere:
            everywhere = True
        elif word in GAME_WORDS and game is None:
            game = GAME_WORDS[word]
        else:
            return None
    return everywhere, game
