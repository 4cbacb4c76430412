"""/tournament's words: what is asked (`read_command`: new, join CODE, follow CODE,
unfollow [CODE], leave, cancel, start, or nothing: this group's), and /tournament new's
arguments read into play's request: the game (one dealt alike to every group), the level (easy,
medium, hard, mix), `rounds=N`, `seconds=N` (or `90s`), `in N` minutes or `at HH:MM` (UTC); every
other word is the tournament's name. A word it does not know, a code missing, a value out of
range, or an option given twice, is refused with the usage line."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar

from bot.play.games import FIRST
from bot.play.tournaments.rules import (
    DEFAULT_ROUNDS,
    GAMES,
    LEVELS,
    MAX_ROUNDS,
    MAX_SECONDS,
    MAX_START_MINUTES,
    MIN_ROUNDS,
    MIN_SECONDS,
    MIX,
    NAME_LIMIT,
    TournamentRequest,
)
from bot.telegram.grammar import LEVEL_WORDS, SHOWN_WORD, UsageError

# what /tournament's first word may ask; those that need the tournament's code after it
VERBS = ("new", "join", "follow", "unfollow", "leave", "cancel", "start")
CODED = ("join", "follow")
OPTIONS = ("rounds", "seconds", "in", "at")
SECONDS = re.compile(r"([0-9]{1,4})s")
T = TypeVar("T")
CLOCK = re.compile(r"([01]?[0-9]|2[0-3])[:.h]([0-5][0-9])")


@dataclass(frozen=True)
class Asked:
    """What /tournament asks: `verb` one of VERBS, or "" (this group's tournament); `code`, the
    tournament's as typed ("" when none came: /tournament unfollow alone means every one the
    chat follows); `request`, what /tournament new asked for."""

    verb: str = ""
    code: str = ""
    request: TournamentRequest | None = None


def read_command(words: list[str]) -> Asked:
    """What /tournament's words ask (UsageError: a word it does not know, or a code missing)."""
    if not words:
        return Asked()
    verb = words[0].lower()
    if verb == "new":
        return Asked(verb, request=read_tournament(words[1:]))
    if verb not in VERBS:
        raise UsageError("unknown_word", word=" ".join(words)[:SHOWN_WORD])
    code = words[1] if len(words) > 1 else ""
    if verb in CODED and not code:  # said so, not "I don't understand"
        raise UsageError("no_code", word=verb)
    return Asked(verb, code)


def read_tournament(words: list[str]) -> TournamentRequest:
    """The request /tournament new's words make."""
    chosen: dict[str, str] = {}  # game, level: as named
    numbers: dict[str, int] = {}  # rounds, seconds, in (minutes), at (minute of the day)
    name: list[str] = []
    i = 0
    while i < len(words):
        word, low = words[i], words[i].lower()
        key, equals, value = low.partition("=")
        if equals and key in OPTIONS:
            _choose(numbers, key, _value(key, value, word), word)
        elif low in ("in", "at") and i + 1 < len(words):
            i += 1
            _choose(numbers, low, _value(low, words[i].lower(), words[i]), word)
        elif (seconds := SECONDS.fullmatch(low)) is not None:
            _choose(numbers, "seconds", _value("seconds", seconds.group(1), word), word)
        elif low in GAMES:
            _choose(chosen, "game", low, word)
        elif LEVEL_WORDS.get(low, low) in LEVELS:
            _choose(chosen, "level", LEVEL_WORDS.get(low, low), word)
        else:
            name.append(word)
        i += 1
    if "in" in numbers and "at" in numbers:
        raise UsageError("repeated", word="at")
    return TournamentRequest(
        name=" ".join(name)[:NAME_LIMIT] or None, game=chosen.get("game", FIRST.name),
        level=chosen.get("level", MIX), rounds=numbers.get("rounds", DEFAULT_ROUNDS),
        seconds=numbers.get("seconds"),
        starts_in=60.0 * numbers["in"] if "in" in numbers else None,
        starts_at=numbers.get("at"))


def _choose(chosen: dict[str, T], key: str, value: T, word: str) -> None:
    if key in chosen:
        raise UsageError("repeated", word=word)
    chosen[key] = value


def _value(key: str, value: str, word: str) -> int:
    """An option's value: a whole number in its range, or a time of day (minutes after
    midnight, UTC)."""
    if key == "at":
        clock = CLOCK.fullmatch(value)
        if clock is None:
            raise UsageError("unknown_word", word=word)
        return int(clock.group(1)) * 60 + int(clock.group(2))
    if not value.isdigit() or len(value) > 6:
        raise UsageError("unknown_word", word=word)
    low, high = {"rounds": (MIN_ROUNDS, MAX_ROUNDS), "seconds": (MIN_SECONDS, MAX_SECONDS),
                 "in": (0, MAX_START_MINUTES)}[key]
    if not low <= int(value) <= high:
        raise UsageError("number_range", number=value, low=low, high=high)
    return int(value)


assert read_tournament([]) == TournamentRequest()
assert read_tournament(["Friday", "Cup", "hard", "rounds=5", "in", "15", "90s"]) == \
    TournamentRequest(name="Friday Cup", level="hard", rounds=5, seconds=90, starts_in=900.0)
assert read_tournament(["at", "20:30"]).starts_at == 20 * 60 + 30
assert read_command([]) == Asked() and read_command(["Unfollow"]) == Asked("unfollow")
assert read_command(["follow", "abc234"]) == Asked("follow", "abc234")
assert read_command(["new", "hard"]).request == TournamentRequest(level="hard")
