"""Every store of one database, opened together, handed to the services together, closed once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.store.daily_store import DailyStore
from bot.store.protocols import (
    AchievementStore,
    MatchStore,
    MenuStore,
    PageStore,
    PeopleStore,
    RatingStore,
    RoundStore,
    ScoreStore,
    StormStore,
    StreakStore,
    UpdateStore,
)
from bot.store.score_store import ForgetStore
from bot.store.tournament_store import TournamentStore


@dataclass(frozen=True)
class Stores:
    rounds: RoundStore
    scores: ScoreStore
    people: PeopleStore
    matches: MatchStore
    updates: UpdateStore
    daily: DailyStore
    forgetting: ForgetStore
    close: Callable[[], Awaitable[None]]
    ratings: RatingStore
    achievements: AchievementStore
    pages: PageStore  # what the Mini App's pages read
    tournaments: TournamentStore  # tournaments between groups
    streaks: StreakStore  # the solo streaks (/streak)
    storms: StormStore  # the solo storms (/storm)
    menus: MenuStore  # the digest of the command menus last set on Telegram
