"""The games a chat can play, one module each, and the table the round service looks them up in."""

from __future__ import annotations

from bot.play.games.countdown import Countdown
from bot.play.games.records import Analysis, Deal, PlayOptions, Revealed, Verdict
from bot.play.games.rules import Rules
from bot.play.games.twentyfour import TwentyFour
from bot.play.games.yahtzee import Yahtzee

GAMES: dict[str, Rules] = {rules.name: rules for rules in (TwentyFour(), Countdown(), Yahtzee())}

__all__ = ["GAMES", "Analysis", "Deal", "PlayOptions", "Revealed", "Rules", "Verdict"]
