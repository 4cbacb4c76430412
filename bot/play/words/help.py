"""/help: every command with this bot's round lengths, and the rules of fair play; `/help
yahtzee`: how the Yahtzee puzzle scores (categories, points, bonus) and how guesses count."""

from __future__ import annotations

from collections.abc import Mapping

from bot.play.games.yahtzee import GUESSES, POINTS, most_any_rolls
from bot.text.i18n import Texts

TOPICS = {"yahtzee": "yahtzee", "快艇骰子": "yahtzee"}


def help_text(texts: Texts, bot_name: str, seconds: Mapping[str, float], topic: str = "") -> str:
    """The help for `topic` (what follows /help); every command for anything else."""
    if TOPICS.get(topic.strip().lower()) == "yahtzee":
        return texts("help_yahtzee", guesses=GUESSES, seconds=seconds["yahtzee"],
                     exact=POINTS[0][1], near=POINTS[1][1], near_within=POINTS[1][0],
                     far=POINTS[2][1], far_within=POINTS[2][0], most=most_any_rolls())
    return texts("help", bot=bot_name, seconds_24=seconds["24"],
                 seconds_countdown=seconds["countdown"], seconds_yahtzee=seconds["yahtzee"])
