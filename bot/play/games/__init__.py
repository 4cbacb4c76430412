"""The games a chat can play, one module each, and the table the round service looks them up in:
the rules that decide (deal, judge, score); their words are bot.play.words."""

from __future__ import annotations

from bot.play.games.countdown import Countdown
from bot.play.games.records import Analysis, Deal, PlayOptions, Puzzle, Verdict
from bot.play.games.rules import Rules
from bot.play.games.twentyfour import TwentyFour
from bot.play.games.yahtzee import Yahtzee

GAMES: dict[str, Rules] = {rules.name: rules for rules in (TwentyFour(), Countdown(), Yahtzee())}

__all__ = ["GAMES", "Analysis", "Deal", "PlayOptions", "Puzzle", "Rules", "Verdict"]
