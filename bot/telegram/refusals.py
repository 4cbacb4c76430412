"""A command's arguments refused, in the one shape every refusal of the bot has (docs/refusals.md):
what was wrong (the reader's UsageError, bot.telegram.grammar), what the command takes (its usage
line, with its limits written as the language writes numbers), and an example that works.

The examples are commands that read: `tests/bot/telegram/test_refusals.py` sends each back and
sees it taken. Their hands are ones the bot never deals (a number above 13, a tile no draw has), as
/help's are: an example is never refused for touching a round that is live. Each usage line's
limits come from the readers' own constants, so a line never says one range while the reader
checks another.
"""

from __future__ import annotations

from bot.play.dealing.requests import DEFAULT_LARGE, LARGE, TARGETS
from bot.play.matches.matches import DEFAULT_ROUNDS, MAX_ROUNDS, MIN_ROUNDS
from bot.telegram.grammar import (
    CLOSEST_MAX_NUMBER,
    CLOSEST_MAX_TARGET,
    SOLVE_MAX_NUMBER,
    SOLVE_MAX_NUMBERS,
    SOLVE_MAX_TARGET,
    UsageError,
    usage_problem,
)
from bot.text import markup
from bot.text.i18n import Texts

DICE = 65  # a game of Yahtzee to solve: 13 rolls of five
# each usage line's figures, as numbers (the catalog's {fields}), from the readers' limits
LIMITS: dict[str, dict[str, int]] = {
    "play_usage": {"low": TARGETS[0], "high": TARGETS[1]},
    "countdown_usage": {"large": len(LARGE), "default": DEFAULT_LARGE,
                        "most": SOLVE_MAX_NUMBERS, "high": CLOSEST_MAX_NUMBER,
                        "target_high": CLOSEST_MAX_TARGET},
    "closest_usage": {"most": SOLVE_MAX_NUMBERS, "high": CLOSEST_MAX_NUMBER,
                      "target_high": CLOSEST_MAX_TARGET},
    "solve_usage": {"most": SOLVE_MAX_NUMBERS, "high": SOLVE_MAX_NUMBER,
                    "target_low": -SOLVE_MAX_TARGET, "target_high": SOLVE_MAX_TARGET},
    "yahtzee_usage": {"dice": DICE},
    "match_usage": {"low": MIN_ROUNDS, "high": MAX_ROUNDS, "default": DEFAULT_ROUNDS},
    "top_usage": {},
    "tournament_usage": {},
}
COUNTDOWN_SOLVE = "/countdown 2 8 25 50 75 150 = 1234"
# a game of Yahtzee as it is typed: 13 rolls of five dice
YAHTZEE_GAME = "/yahtzee " + " ".join(["11111", "22222", "33333", "44444", "55555", "66666",
                                       "12345", "23456", "11222", "33366", "12346", "11123",
                                       "45566"])
# the example for each usage line, and for what a refusal names where it differs
EXAMPLES = {"play_usage": "/play hard", "countdown_usage": "/countdown 2",
            "closest_usage": "/solve --closest 2 8 25 50 75 150 = 1234",
            "solve_usage": "/solve 1 4 12 14", "yahtzee_usage": YAHTZEE_GAME,
            "match_usage": "/match 5", "top_usage": "/top week",
            "tournament_usage": "/tournament new Friday hard rounds=5"}
EXAMPLES_FOR = {
    ("play_usage", "count"): "/play 5",
    ("play_usage", "target_range"): "/play 4 = 36",
    ("play_usage", "nothing_after_equals"): "/play 4 = 36",
    ("play_usage", "not_whole"): "/play 4 = 36",
    ("countdown_usage", "large"): f"/countdown {len(LARGE)}",
    ("solve_usage", "target_range"): "/solve 3 5 14 15 16 = 100",
    ("solve_usage", "nothing_after_equals"): "/solve 3 5 14 15 16 = 100",
    ("solve_usage", "too_many_numbers"): "/solve 3 5 14 15 16 17",
    ("match_usage", "number_range"): f"/match {MAX_ROUNDS}",
}


def example(usage_key: str, error: UsageError, arguments: str) -> str:
    """A command that works, close to what the refusal names: a Countdown game to solve when
    more than one word was given to /countdown (a count of large numbers is one word)."""
    if usage_key == "countdown_usage" and error.code != "large" and len(arguments.split()) > 1:
        return COUNTDOWN_SOLVE
    key = error.rules or usage_key
    return EXAMPLES_FOR.get((key, error.code), EXAMPLES[key])


def usage_line(texts: Texts, key: str) -> str:
    """What the command takes, its limits written as the language writes numbers."""
    return texts(key, **LIMITS[key])


def refusal(texts: Texts, usage_key: str, error: UsageError, arguments: str) -> str:
    """The refusal of a command's arguments: what was wrong, what it takes, an example."""
    rules = error.rules or usage_key
    return texts("refusal", problem=usage_problem(texts, error), allowed=usage_line(texts, rules),
                 example=markup.typed(example(usage_key, error, arguments)))
