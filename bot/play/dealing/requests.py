"""A round asked for, as play takes it: which game, with what options; and what the games allow a
request to ask (the face reads requests from what was typed: bot.telegram.grammar)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.play.games.countdown import rules as countdown
from bot.play.games.countdown.rules import DEFAULT_LARGE, LARGE
from bot.play.games.twentyfour import rules as twentyfour
from bot.play.games.twentyfour.rules import COUNTS, TARGETS
from bot.play.games.yahtzee import rules as yahtzee
from bot.play.games.yahtzee.rules import parse_dice
from bot.play.rules import PlayOptions

__all__ = ["COUNTS", "DEFAULT_LARGE", "LARGE", "TARGETS", "DealRequest", "PlayOptions",
           "parse_dice"]


@dataclass(frozen=True)
class DealRequest:
    """A round asked for: which game, with what options."""

    game: str
    options: PlayOptions = field(default_factory=PlayOptions)

    @staticmethod
    def of_24(options: PlayOptions) -> DealRequest:
        return DealRequest(twentyfour.NAME, options)

    @staticmethod
    def of_countdown(options: PlayOptions) -> DealRequest:
        return DealRequest(countdown.NAME, options)

    @staticmethod
    def of_yahtzee() -> DealRequest:
        return DealRequest(yahtzee.NAME)
