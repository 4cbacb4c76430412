"""Every store of one database, opened together, handed to the services together, closed once."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.store.protocols import MatchStore, PeopleStore, RoundStore, ScoreStore, UpdateStore


@dataclass(frozen=True)
class Stores:
    rounds: RoundStore
    scores: ScoreStore
    people: PeopleStore
    matches: MatchStore
    updates: UpdateStore
    close: Callable[[], Awaitable[None]]
