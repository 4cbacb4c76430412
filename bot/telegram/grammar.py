"""The grammar of the commands that are no game's own (a game's command reads its arguments in its
folder: bot.play.games.<game>.asking): /solve, /top, /match, read into play's typed requests (a
`SolveRequest`, a `BoardAsk`, a match's length). `read_*` raise UsageError naming what is wrong
(too many numbers, a target out of range...), which bot.telegram.refusals words in the shape of
every refusal; `parse_*` return None instead.

Pure functions: no Telegram objects, no solver work. Limits are checked here (and by the parts of
bot.play.asking), before anything reaches the pool, so a giant or malformed request costs
nothing. Numbers are read as in answers: full-width ones and every script's decimal digits (۳, ٣,
३) are folded to ASCII first (solver.digits), then only ASCII digits are read: `str.isdigit` also
accepts superscripts, which `int` refuses. The Arabic comma separates numbers as the Latin one
does.
"""

from __future__ import annotations

import re

from bot.play.asking.levels import LEVEL_WORDS
from bot.play.asking.numbers import (
    CLOSEST_MAX_NUMBER,
    CLOSEST_MAX_TARGET,
    FRACTIONAL,
    SHORT_NUMBER,
    SOLVE_MAX_NUMBER,
    SOLVE_MAX_NUMBERS,
    SOLVE_MAX_TARGET,
    WHOLE,
    at_most,
    closest_request,
    numbers_and_target,
    target_within,
    within,
)
from bot.play.asking.requests import DealRequest, DiceRequest, SolveRequest
from bot.play.asking.usage import (
    SHOWN_WORD,
    UsageError,
    or_none,
    problem,
    read_arguments,
    shown,
    usage_problem,
)
from bot.play.community.boards import BoardAsk
from bot.play.games import DAILY_GAME, DAILY_GAMES, GAMES
from bot.play.matches.matches import DEFAULT_ROUNDS, MAX_ROUNDS, MIN_ROUNDS
from solver.digits import plain_digits

GAME_WORDS = {name: name for name in GAMES}  # a game named in /top's words: by its own name
DAILY_NAMES = tuple(game.name for game in DAILY_GAMES)  # the games that have a daily
SOLVE_TARGET = 24  # what /solve aims at when no target is given
CLOSEST_FLAG = re.compile(r"(?:^|\s)(?:--closest|-c)(?=\s|$)")
MATCH_STOP_WORDS = ("stop", "end", "停止", "结束")

__all__ = [
    "CLOSEST_MAX_NUMBER",
    "CLOSEST_MAX_TARGET",
    "LEVEL_WORDS",
    "SHOWN_WORD",
    "SOLVE_MAX_NUMBER",
    "SOLVE_MAX_NUMBERS",
    "SOLVE_MAX_TARGET",
    "BoardAsk",
    "DealRequest",
    "DiceRequest",
    "SolveRequest",
    "UsageError",
    "parse_board",
    "parse_match",
    "parse_solve",
    "parse_top",
    "problem",
    "read_arguments",
    "read_board",
    "read_daily",
    "read_match",
    "read_match_game",
    "read_solve",
    "read_top",
    "usage_problem",
]


def read_solve(arguments: str) -> SolveRequest:
    """'3 8 3 8', '1 2 3 4 5 = 100', or '--closest 1 3 7 10 25 50 = 765'."""
    arguments = plain_digits(arguments)
    closest = bool(CLOSEST_FLAG.search(arguments))
    numbers, target = numbers_and_target(CLOSEST_FLAG.sub(" ", arguments))
    if closest:
        return closest_request(numbers, target, "no_target", "closest_usage")
    at_most(numbers, SOLVE_MAX_NUMBERS)
    within(numbers, 0, SOLVE_MAX_NUMBER)
    target = SOLVE_TARGET if target is None else target
    target_within(target, -SOLVE_MAX_TARGET, SOLVE_MAX_TARGET)
    return SolveRequest(tuple(numbers), target)


def parse_solve(arguments: str) -> SolveRequest | None:
    return or_none(read_solve, arguments)


def read_top(arguments: str) -> tuple[bool, str | None]:
    """'/top', '/top all', '/top <game>', '/top all <game>': (all chats?, game or None)."""
    everywhere, game = False, None
    for word in plain_digits(arguments).lower().split():
        if word in ("all", "全部") and not everywhere:
            everywhere = True
        elif word in GAME_WORDS and game is None:
            game = GAME_WORDS[word]
        else:
            raise UsageError("unknown_word", word=shown(word))
    return everywhere, game


def parse_top(arguments: str) -> tuple[bool, str | None] | None:
    return or_none(read_top, arguments)


def read_match(arguments: str) -> int | str:
    """/match's argument: a number of rounds (default 10) or "stop"; what is wrong named. The
    number's length is checked before `int()`, which refuses 4,301 digits and more."""
    text = plain_digits(arguments).strip().lower()
    if not text:
        return DEFAULT_ROUNDS
    if text in MATCH_STOP_WORDS:
        return "stop"
    if not WHOLE.fullmatch(text):
        raise UsageError("not_whole" if FRACTIONAL.fullmatch(text) else "unknown_word",
                         word=shown(text))
    if len(text) > SHORT_NUMBER or not MIN_ROUNDS <= int(text) <= MAX_ROUNDS:
        raise UsageError("number_range", number=shown(text), low=MIN_ROUNDS, high=MAX_ROUNDS)
    return int(text)


def read_match_game(arguments: str) -> tuple[str, str | None]:
    """/match's arguments without the game they name, if any ('/match 5 <game>'): the rest
    (read by `read_match`) and the game; a second game named is refused."""
    rest, game = [], None
    for word in arguments.split():
        named = GAME_WORDS.get(word.lower())
        if named is None:
            rest.append(word)
        elif game is not None:
            raise UsageError("repeated", word=shown(word))
        else:
            game = named
    return " ".join(rest), game


def parse_match(arguments: str) -> int | str | None:
    """A number of rounds, "stop", or None (then the usage line says what /match takes)."""
    return or_none(read_match, arguments)


EVERYWHERE_WORDS = frozenset({"all", "全部", "所有"})
PERIOD_WORDS = {"week": "week", "weekly": "week", "本周": "week", "周": "week", "周榜": "week",
                "daily": "daily", "today": "daily", "每日": "daily", "今日": "daily",
                "rating": "rating", "skill": "rating", "等级分": "rating", "水平": "rating"}
RATED_GAMES = frozenset(name for name, game in GAMES.items() if game.rated)  # /top rating


def read_board(arguments: str) -> BoardAsk:
    """'/top', '/top week', '/top all <game>', '/top daily', '/top rating all': each word at
    most once, in any order; what is not understood is named."""
    period, everywhere, game = "all", False, None
    for word in plain_digits(arguments).lower().split():
        if word in EVERYWHERE_WORDS and not everywhere:
            everywhere = True
        elif word in PERIOD_WORDS and period == "all":
            period = PERIOD_WORDS[word]
        elif word in GAME_WORDS and game is None:
            game = GAME_WORDS[word]
        else:
            raise UsageError("unknown_word", word=shown(word))
    if period == "daily" and game is not None and game not in DAILY_NAMES:  # a game with a daily
        raise UsageError("unknown_word", word=shown(game))
    if period == "rating" and game is not None and game not in RATED_GAMES:
        raise UsageError("unknown_word", word=shown(game))
    return BoardAsk(period, everywhere or period == "daily", game)


TOP = "top"  # /storm top, /streak top: a solo mode's boards


def read_solo(arguments: str) -> bool:
    """'/storm' or '/streak' (one begins: False), or with 'top' (its boards: True); anything
    else is named."""
    words = arguments.lower().split()
    if not words:
        return False
    if words == [TOP]:
        return True
    extra = [word for word in words if word != TOP] or words[1:]  # or a second top
    raise UsageError("unknown_word", word=shown(extra[0]))


def parse_board(arguments: str) -> BoardAsk | None:
    return or_none(read_board, arguments)


def read_daily(arguments: str) -> tuple[str, str]:
    """'/daily', '/daily <game>', '/daily (1+2)*8', '/daily <game> <answer>': the game whose
    daily is asked for (its word first; none: the first daily's) and the answer after it, if
    any. A game that has no daily, named first, is refused: its word read as an answer would
    only say the answer is unreadable."""
    first, *rest = arguments.split(maxsplit=1) or [""]
    named = GAME_WORDS.get(first.lower())
    if named is None:
        return DAILY_GAME.name, arguments.strip()
    if named not in DAILY_NAMES:
        raise UsageError("unknown_word", word=shown(first))
    return named, "".join(rest).strip()
