"""What an achievement earned by a round's close is made of: the close as one of its players
sees it, the count a rule may ask the store for, and the rule itself. Every game's own
achievements (Game.achievements) and the ones every game shares (bot.play.achievements.rules)
are made of these; pure data and predicates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


@dataclass(frozen=True)
class Close:
    """A counting round's close, as one of its players sees it."""

    game: str
    level: str
    numbers: int  # in the hand
    won: bool  # this player won it
    right: bool  # the winner answered right (not only closest)
    win_seconds: float | None
    players: int  # different people who answered


class Tally(Enum):
    """A count of a player's counting rounds that a rule asks the store for."""

    WINS_HERE = "wins here"  # their wins in this chat
    RUN_HERE = "run here"  # their latest rounds in this chat, all won
    PLAYED = "played"  # the rounds they played, in any group


@dataclass(frozen=True)
class RoundAchievement:
    """Earned by a close that `holds` for the player, once their `tally` (if any) reaches
    `reach`; `won`: only a close the player won can earn it."""

    code: str
    holds: Callable[[Close], bool]
    won: bool = True
    tally: Tally | None = None
    reach: int = 0


def right_in(game: str) -> Callable[[Close], bool]:
    return lambda close: close.right and close.game == game
