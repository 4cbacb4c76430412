"""Each command's grammar, beside the face that reads it: what players type after a command, read
into play's typed requests (a `DealRequest`, a `SolveRequest`, a `BoardAsk`, a match's length).
`read_*` raise UsageError naming what is wrong (too many numbers, a target out of range...), which
bot.telegram.refusals words in the shape of every refusal; `parse_*` return None instead.

Pure functions: no Telegram objects, no solver work. Limits are checked here, before anything
reaches the pool, so a giant or malformed request costs nothing. Numbers are read as in answers:
full-width ones and every script's decimal digits (۳, ٣, ३) are folded to ASCII first
(solver.digits), then only ASCII digits are read: `str.isdigit` also accepts superscripts, which
`int` refuses. The Arabic comma separates numbers as the Latin one does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from bot.play.community.boards import BoardAsk
from bot.play.daily.daily import GAME as DAILY_GAME
from bot.play.dealing.requests import (
    COUNTS,
    LARGE,
    TARGETS,
    DealRequest,
    PlayOptions,
    parse_dice,
)
from bot.play.matches.matches import DEFAULT_ROUNDS, MAX_ROUNDS, MIN_ROUNDS
from bot.play.solving.requests import SolveRequest
from bot.text import markup
from bot.text.i18n import Texts
from solver.digits import plain_digits

SOLVE_MAX_NUMBERS = 6
SOLVE_MAX_NUMBER = 1_000_000
SOLVE_MAX_TARGET = 10**9
CLOSEST_MAX_NUMBER = 1000
CLOSEST_MAX_TARGET = 100_000
LEVEL_WORDS = {"easy": "easy", "medium": "medium", "hard": "hard", "adaptive": "adaptive",
               "简单": "easy", "容易": "easy", "中等": "medium", "困难": "hard", "难": "hard",
               "自适应": "adaptive"}
GAME_WORDS = {"24": "24", "countdown": "countdown", "yahtzee": "yahtzee"}
CLOSEST_FLAG = re.compile(r"(?:^|\s)(?:--closest|-c)(?=\s|$)")
WHOLE = re.compile(r"-?[0-9]+")
# a number with a decimal part (3.5; the Arabic decimal sign too): not whole, said so
FRACTIONAL = re.compile(r"-?[0-9]*[.٫][0-9]+|-?[0-9]+[.٫]")
MAX_ARGUMENTS = 400  # characters; well under Python's 4300-digit limit on int()
MATCH_STOP_WORDS = ("stop", "end", "停止", "结束")
SHOWN_WORD = 20  # characters of a word a usage answer quotes
PLAY_NUMBERS = 3  # numbers after /play that are a hand, not a count (/solve is named)
SHORT_NUMBER = 6  # digits a small count may have (leading zeros too) before int() reads it
T = TypeVar("T")

__all__ = [
    "BoardAsk",
    "DealRequest",
    "SolveRequest",
    "UsageError",
    "parse_board",
    "parse_countdown",
    "parse_dice",
    "parse_match",
    "parse_play",
    "parse_solve",
    "parse_top",
    "problem",
    "read_arguments",
    "read_board",
    "read_countdown",
    "read_dice",
    "read_match",
    "read_play",
    "read_solve",
    "read_top",
    "usage_problem",
]


class UsageError(ValueError):
    """What is wrong with a command's arguments: `code` names the catalog's `usage_<code>` and
    `params` fill it (a number as a number, written as the language writes numbers; what was
    typed as text, quoted as typed); `rules`: the usage line that says what is allowed, when it
    is not the command's own (/solve --closest has Countdown's limits)."""

    def __init__(self, code: str, rules: str = "", **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.rules = rules
        self.params = params


def usage_problem(texts: Texts, error: UsageError) -> str:
    """What is wrong, in one sentence (HTML)."""
    params = {k: v if isinstance(v, int) else markup.escape(str(v))
              for k, v in error.params.items()}
    return texts(f"usage_{error.code}", **params)


def problem(read: Callable[[str], object], arguments: str) -> UsageError | None:
    """Why `read` refuses the arguments (None when it takes them)."""
    try:
        read(arguments)
    except UsageError as error:
        return error
    return None


def read_arguments(read: Callable[[str], T], arguments: str) -> T | UsageError:
    """What `read` makes of a command's arguments, or why it refuses them: read once."""
    try:
        return read(arguments)
    except UsageError as error:
        return error


def _or_none(read: Callable[[str], T], arguments: str) -> T | None:
    try:
        return read(arguments)
    except UsageError:
        return None


def _word(word: str) -> str:
    return word if len(word) <= SHOWN_WORD else word[:SHOWN_WORD] + "…"


def read_play_request(arguments: str) -> DealRequest:
    """/play's arguments: a round of 24 (see `read_play`)."""
    return DealRequest.of_24(read_play(arguments))


def read_countdown_request(arguments: str) -> DealRequest | SolveRequest:
    """/countdown's arguments: a round (with that many large numbers), or a game to solve."""
    read = read_countdown(arguments)
    return DealRequest.of_countdown(read) if isinstance(read, PlayOptions) else read


def read_yahtzee_request(arguments: str) -> DealRequest | list[tuple[int, ...]]:
    """/yahtzee's arguments: none for a round, or 65 dice to solve."""
    return DealRequest.of_yahtzee() if not arguments.strip() else read_dice(arguments)


def _numbers_and_target(text: str) -> tuple[list[int], int | None]:
    """"3 8 3 8", "1 2 3 4 5 = 100": the numbers (negative ones too, for the range check to
    name) and the target after "=", if any; what does not read is named."""
    if len(text) > MAX_ARGUMENTS:
        raise UsageError("too_long", length=len(text), most=MAX_ARGUMENTS)
    left, equals, right = text.partition("=")
    words = [w for w in re.split(r"[\s,،]+", left) if w]
    if odd := next((w for w in words if not WHOLE.fullmatch(w)), None):
        raise UsageError("not_whole" if FRACTIONAL.fullmatch(odd) else "unknown_word",
                         word=_word(odd))
    if not words:
        raise UsageError("no_numbers")
    if not equals:
        return [int(w) for w in words], None
    after = right.split()
    if not after:
        raise UsageError("nothing_after_equals")
    if len(after) == 1 and FRACTIONAL.fullmatch(after[0]):
        raise UsageError("not_whole", word=_word(after[0]))
    if len(after) > 1 or not WHOLE.fullmatch(after[0]):
        raise UsageError("unknown_word", word=_word(" ".join(after)))
    return [int(w) for w in words], int(after[0])


def read_solve(arguments: str) -> SolveRequest:
    """'3 8 3 8', '1 2 3 4 5 = 100', or '--closest 1 3 7 10 25 50 = 765'."""
    arguments = plain_digits(arguments)
    closest = bool(CLOSEST_FLAG.search(arguments))
    numbers, target = _numbers_and_target(CLOSEST_FLAG.sub(" ", arguments))
    if closest:
        return closest_request(numbers, target, "no_target", "closest_usage")
    _count(numbers, SOLVE_MAX_NUMBERS)
    _range(numbers, 0, SOLVE_MAX_NUMBER)
    target = 24 if target is None else target
    if abs(target) > SOLVE_MAX_TARGET:
        raise UsageError("target_range", target=_word(markup.signed(target)),
                         low=-SOLVE_MAX_TARGET, high=SOLVE_MAX_TARGET)
    return SolveRequest(tuple(numbers), target)


def parse_solve(arguments: str) -> SolveRequest | None:
    return _or_none(read_solve, arguments)


def _count(numbers: list[int], most: int) -> None:
    if len(numbers) > most:
        raise UsageError("too_many_numbers", most=most)


def _range(numbers: list[int], low: int, high: int) -> None:
    if (odd := next((n for n in numbers if not low <= n <= high), None)) is not None:
        raise UsageError("number_range", number=_word(markup.signed(odd)), low=low, high=high)


def closest_request(numbers: list[int], target: int | None, missing: str,
                    rules: str = "") -> SolveRequest:
    """Countdown's limits: up to six numbers 1..1000 and a target 1..100,000 (no default;
    `missing` names the catalog's words for its absence, which say how to give one; `rules`
    the usage line of those limits, when the command's own is not)."""
    try:
        _count(numbers, SOLVE_MAX_NUMBERS)
        _range(numbers, 1, CLOSEST_MAX_NUMBER)
        if target is None:
            raise UsageError(missing)
        if not 1 <= target <= CLOSEST_MAX_TARGET:
            raise UsageError("target_range", target=_word(markup.signed(target)), low=1,
                             high=CLOSEST_MAX_TARGET)
    except UsageError as error:
        error.rules = error.rules or rules
        raise
    return SolveRequest(tuple(numbers), target, closest=True)


def read_play(arguments: str) -> PlayOptions:
    """'/play', '/play hard', '/play 5', '/play 4 = 36', in any order. Three numbers or more
    before any "=" are a hand to play, which /play does not take: /solve is named for them."""
    words = plain_digits(arguments).replace("=", " = ").split()
    given = [w for w in words[:words.index("=") if "=" in words else len(words)]
             if re.fullmatch(r"[0-9]+", w)]
    if len(given) >= PLAY_NUMBERS:
        raise UsageError("play_numbers", numbers=_word(" ".join(given)))
    level = count = target = None
    i = 0
    while i < len(words):
        word = words[i].lower()
        if word in LEVEL_WORDS:
            if level is not None:
                raise UsageError("repeated", word=_word(words[i]))
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
                raise UsageError("repeated", word=_word(words[i]))
            target = _play_target(words[i])
        else:
            raise UsageError("unknown_word", word=_word(words[i]))
        i += 1
    return PlayOptions(level=level, count=count, target=target)


def _play_target(word: str) -> int:
    """A /play target: a whole number from 1 to 999 (any other number is out of range)."""
    if not WHOLE.fullmatch(word):
        raise UsageError("not_whole" if FRACTIONAL.fullmatch(word) else "unknown_word",
                         word=_word(word))
    if len(word) > SHORT_NUMBER or not TARGETS[0] <= int(word) <= TARGETS[1]:
        raise UsageError("target_range", target=_word(markup.signed(word)), low=TARGETS[0],
                         high=TARGETS[1])
    return int(word)


def parse_play(arguments: str) -> PlayOptions | None:
    return _or_none(read_play, arguments)


def read_countdown(arguments: str) -> PlayOptions | SolveRequest:
    """'' or '0'..'4': deal with that many large numbers; 'n1 .. n6 = T': solve one game."""
    arguments = plain_digits(arguments)
    words = arguments.split()
    if not words:
        return PlayOptions()
    if len(words) == 1 and re.fullmatch(r"[0-9]{1,3}", words[0]):  # one number: how many large
        if int(words[0]) > len(LARGE):  # (a game to solve has numbers and a target: not one)
            raise UsageError("large", most=len(LARGE), count=int(words[0]))
        return PlayOptions(large=int(words[0]))
    return closest_request(*_numbers_and_target(arguments), "no_target_countdown")


def parse_countdown(arguments: str) -> PlayOptions | SolveRequest | None:
    return _or_none(read_countdown, arguments)


def read_top(arguments: str) -> tuple[bool, str | None]:
    """'/top', '/top all', '/top countdown', '/top all yahtzee': (all chats?, game or None)."""
    everywhere, game = False, None
    for word in plain_digits(arguments).lower().split():
        if word in ("all", "全部") and not everywhere:
            everywhere = True
        elif word in GAME_WORDS and game is None:
            game = GAME_WORDS[word]
        else:
            raise UsageError("unknown_word", word=_word(word))
    return everywhere, game


def parse_top(arguments: str) -> tuple[bool, str | None] | None:
    return _or_none(read_top, arguments)


def read_dice(arguments: str) -> list[tuple[int, ...]]:
    """65 dice for /yahtzee (13 rolls of five, digits 1 to 6, any separators); what is wrong
    named: a character that is no die, or how many dice there are."""
    arguments = plain_digits(arguments)
    if odd := re.search(r"[^1-6\s,;/|]", arguments):
        raise UsageError("not_a_die", character=odd.group(0))
    rolls = parse_dice(arguments)
    if rolls is None:
        raise UsageError("dice_count", count=len(re.findall(r"[1-6]", arguments)))
    return rolls


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
                         word=_word(text))
    if len(text) > SHORT_NUMBER or not MIN_ROUNDS <= int(text) <= MAX_ROUNDS:
        raise UsageError("number_range", number=_word(text), low=MIN_ROUNDS, high=MAX_ROUNDS)
    return int(text)


def parse_match(arguments: str) -> int | str | None:
    """A number of rounds, "stop", or None (then the usage line says what /match takes)."""
    return _or_none(read_match, arguments)


EVERYWHERE_WORDS = frozenset({"all", "全部", "所有"})
PERIOD_WORDS = {"week": "week", "weekly": "week", "本周": "week", "周": "week", "周榜": "week",
                "daily": "daily", "today": "daily", "每日": "daily", "今日": "daily",
                "rating": "rating", "skill": "rating", "等级分": "rating", "水平": "rating"}
RATED_GAMES = frozenset({"24", "countdown"})  # the games /top rating ranks


def read_board(arguments: str) -> BoardAsk:
    """'/top', '/top week', '/top all countdown', '/top daily', '/top rating all': each word at
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
            raise UsageError("unknown_word", word=_word(word))
    if period == "daily" and game not in (None, DAILY_GAME):  # the daily puzzle is of 24
        raise UsageError("unknown_word", word=_word(game))
    if period == "rating" and game is not None and game not in RATED_GAMES:
        raise UsageError("unknown_word", word=_word(game))
    return BoardAsk(period, everywhere or period == "daily", game)


def parse_board(arguments: str) -> BoardAsk | None:
    return _or_none(read_board, arguments)
