"""What every game's rules are made of: the base the round service asks (`Rules`), the records a
deal and a verdict travel in, how an answer is read, the feedback on a near miss, and the dealer's
batches. Pure: the solver alone; each game's own rules are bot.play.games.<game>.rules."""

from __future__ import annotations

from bot.play.rules.base import Rules
from bot.play.rules.records import Analysis, Deal, PlayOptions, Puzzle, Verdict

__all__ = ["Analysis", "Deal", "PlayOptions", "Puzzle", "Rules", "Verdict"]
