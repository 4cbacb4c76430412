"""A command's arguments refused, in the one shape every refusal of the bot has (docs/refusals.md):
what was wrong (the reader's UsageError, bot.telegram.grammar), what the command takes (its usage
line, with its limits written as the language writes numbers), and an example that works.

The examples are commands that read: `tests/bot/telegram/test_refusals.py` sends each back and
sees it taken. Their hands are ones no game deals (a number above 25 that is no tile, or two
numbers), as /help's are: an example is never refused for touching a round that is live. Each
usage line's limits come from the readers' own constants, so a line never says one range while the
reader checks another.
"""

from __future__ import annotations

from bot.play.asking.usage import Usage
from bot.play.games import GAMES
from bot.play.games.help import TOPICS
from bot.play.matches.matches import DEFAULT_ROUNDS, MAX_ROUNDS, MIN_ROUNDS
from bot.play.tournaments.rules import GAMES as TOURNAMENT_GAMES
from bot.telegram.grammar import (
    CLOSEST_MAX_NUMBER,
    CLOSEST_MAX_TARGET,
    DAILY_NAMES,
    SOLVE_MAX_NUMBER,
    SOLVE_MAX_NUMBERS,
    SOLVE_MAX_TARGET,
    TOP,
    UsageError,
    usage_problem,
)
from bot.text import markup
from bot.text.i18n import Texts

# what each command that is no game's own takes (each game's command says its own: Game.usage)
OWN = (
    Usage("closest_usage", {"most": SOLVE_MAX_NUMBERS, "high": CLOSEST_MAX_NUMBER,
                            "target_high": CLOSEST_MAX_TARGET},
          "/solve --closest 2 8 25 50 75 150 = 1234"),
    Usage("solve_usage", {"most": SOLVE_MAX_NUMBERS, "high": SOLVE_MAX_NUMBER,
                          "target_low": -SOLVE_MAX_TARGET, "target_high": SOLVE_MAX_TARGET},
          "/solve 1 2 8 45", {"target_range": "/solve 3 5 14 15 36 = 100",
                               "nothing_after_equals": "/solve 3 5 14 15 36 = 100",
                               "too_many_numbers": "/solve 3 5 14 36 48 60"}),
    Usage("match_usage", {"low": MIN_ROUNDS, "high": MAX_ROUNDS, "default": DEFAULT_ROUNDS},
          "/match 5", {"number_range": f"/match {MAX_ROUNDS}"}, choices={"games": tuple(GAMES)}),
    Usage("top_usage", {}, "/top week", choices={"games": tuple(GAMES)}),
    Usage("daily_usage", {}, f"/daily {DAILY_NAMES[0]}",
          choices={"games": DAILY_NAMES, "first": DAILY_NAMES[:1]}),
    Usage("tournament_usage", {}, "/tournament new Friday hard rounds=5",
          choices={"games": TOURNAMENT_GAMES}),
    Usage("help_usage", {}, f"/help {next(iter(TOPICS))}", choices={"topics": tuple(TOPICS)}),
    Usage("storm_usage", {}, f"/storm {TOP}"),
    Usage("streak_usage", {}, f"/streak {TOP}"),
)
# the commands that take nothing after them, each refused in its own name by one line
# (`alone_usage`), their example the command alone
ALONE = ("stats", "privacy", "forget", "resetscores", "hint", "reveal", "pass", "settings",
         "practice")
USAGES: dict[str, Usage] = {usage.known_as: usage for usage in (
    *(game.usage for game in GAMES.values()), *OWN,
    *(Usage("alone_usage", {}, f"/{name}", choices={"command": (f"/{name}",)},
            name=f"{name}_alone") for name in ALONE))}
# each usage line's figures, as numbers (the catalog's {fields}), from the readers' limits, and
# the words its fields offer
LIMITS: dict[str, dict[str, int | str]] = {key: usage.fields() for key, usage in USAGES.items()}


def example(usage_key: str, error: UsageError, arguments: str) -> str:
    """A command that works, close to what the refusal names (the usage line of the limits it
    broke, where those are not the command's own: /solve --closest)."""
    return USAGES[error.rules or usage_key].example_for(error, arguments)


def usage_line(texts: Texts, key: str) -> str:
    """What the command takes, its limits written as the language writes numbers."""
    return texts(USAGES[key].key, **LIMITS[key])


def refusal(texts: Texts, usage_key: str, error: UsageError, arguments: str) -> str:
    """The refusal of a command's arguments: what was wrong, what it takes, an example."""
    rules = error.rules or usage_key
    return texts("refusal", problem=usage_problem(texts, error), allowed=usage_line(texts, rules),
                 example=markup.typed(example(usage_key, error, arguments)))
