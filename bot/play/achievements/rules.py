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
from itertools import pairwise

from bot.play.games import GAMES
from bot.play.rules.feats import RoundAchievement, Tally

QUICK_SECONDS = 5  # a right answer faster than this
CROWD = 5  # people who answered in a round won
EARLY_SECONDS = 3600  # the daily puzzle solved within this of midnight UTC
PLAYERS_AT_LEAST = 2  # different people who answered, for a round to count
WEEK = 7


@dataclass(frozen=True)
class Daily:
    """A daily result just stored: its time of the UTC day, and the days solved before."""

    seconds: float
    days: tuple[str, ...]  # the latest days solved, newest first (today's among them)


@dataclass(frozen=True)
class DailyAchievement:
    code: str
    holds: Callable[[Daily], bool]


ROUND_ACHIEVEMENTS: tuple[RoundAchievement, ...] = (
    RoundAchievement("first_win", lambda close: True),
    RoundAchievement("quick_win", lambda close: close.right and close.win_seconds is not None
                     and close.win_seconds < QUICK_SECONDS),
    *(rule for game in GAMES.values() for rule in game.achievements),  # each game's own
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

