"""The achievements and their rules, decided from what the store read (no store, no words).

Only rounds that count earn anything: a round in a group (never a private chat, where the
solver is the only opponent) that at least two different people answered. So a farmer playing
round after round alone, privately or in a group of their own, earns nothing; the daily puzzle
counts (one hand a day, the same for everyone, its first right answer kept). Migration 17 says
the same rules in SQL for the history stored before it (the backfill); a test holds the two
together (tests/bot/store/test_achievements_backfill.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from enum import Enum
from itertools import pairwise

QUICK_SECONDS = 5  # a right answer faster than this
CROWD = 5  # people who answered in a round won
EARLY_SECONDS = 3600  # the daily puzzle solved within this of midnight UTC
PLAYERS_AT_LEAST = 2  # different people who answered, for a round to count
WEEK = 7


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


@dataclass(frozen=True)
class Daily:
    """A daily result just stored: its time of the UTC day, and the days solved before."""

    seconds: float
    days: tuple[str, ...]  # the latest days solved, newest first (today's among them)


@dataclass(frozen=True)
class DailyAchievement:
    code: str
    holds: Callable[[Daily], bool]


def right_in(game: str) -> Callable[[Close], bool]:
    return lambda close: close.right and close.game == game


ROUND_ACHIEVEMENTS: tuple[RoundAchievement, ...] = (
    RoundAchievement("first_win", lambda close: True),
    RoundAchievement("quick_win", lambda close: close.right and close.win_seconds is not None
                     and close.win_seconds < QUICK_SECONDS),
    RoundAchievement("hard_hand", lambda close: right_in("24")(close) and close.level == "hard"),
    RoundAchievement("five_numbers", lambda close: right_in("24")(close) and close.numbers == 5),
    RoundAchievement("countdown_exact", right_in("countdown")),
    RoundAchievement("yahtzee_optimum", right_in("yahtzee")),
    RoundAchievement("crowd_win", lambda close: close.players >= CROWD),
    RoundAchievement("ten_wins", lambda close: True, tally=Tally.WINS_HERE, reach=10),
    RoundAchievement("three_in_a_row", lambda close: True, tally=Tally.RUN_HERE, reach=3),
    RoundAchievement("fifty_rounds", lambda close: True, won=False, tally=Tally.PLAYED,
                     reach=50),
)


def week_solved(days: tuple[str, ...]) -> bool:
    """The latest WEEK days solved are WEEK days in a row."""
    if len(days) < WEEK:
        return False
    latest = [date.fromisoformat(day) for day in days[:WEEK]]
    return all(a - b == timedelta(days=1) for a, b in pairwise(latest))


DAILY_ACHIEVEMENTS: tuple[DailyAchievement, ...] = (
    DailyAchievement("daily_first", lambda daily: True),
    DailyAchievement("daily_early", lambda daily: daily.seconds < EARLY_SECONDS),
    DailyAchievement("daily_week", lambda daily: week_solved(daily.days)),
)

CODES: tuple[str, ...] = (*(rule.code for rule in ROUND_ACHIEVEMENTS),
                          *(rule.code for rule in DAILY_ACHIEVEMENTS))


def counts(chat_id: int, players: int) -> bool:
    """Whether a round counts: played in a group (a private chat's id is its person's,
    positive; a group's is negative) by at least two different people."""
    return chat_id < 0 and players >= PLAYERS_AT_LEAST


def earned(rule: RoundAchievement, close: Close, tally: int | None) -> bool:
    """Whether the close earns the rule's achievement (`tally`: the count it asked for)."""
    if (rule.won and not close.won) or not rule.holds(close):
        return False
    return rule.tally is None or (tally is not None and tally >= rule.reach)
