"""The daily puzzle's store: each person's first right answer of a UTC day in a game, once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class DailyResult:
    day: str
    user_id: int
    name: str
    chat_id: int
    answer: str
    seconds: float
    at: float


class DailyStore(Protocol):
    async def record_daily(self, day: str, game: str, user_id: int, chat_id: int, answer: str,
                           seconds: float, at: float) -> bool:
        """Store the day's result in the game; False when the person already had one that day
        in it (the first right answer counts, once)."""
        ...
    async def daily_result(self, day: str, game: str, user_id: int) -> DailyResult | None: ...
    async def daily_days(self, user_id: int, game: str) -> list[str]:
        """Every day the person solved the game's daily, oldest first."""
        ...
    async def daily_board(self, day: str, game: str, limit: int = 10) -> list[DailyResult]:
        """The day's results in the game, fastest first (then earliest)."""
        ...
    async def daily_count(self, day: str, game: str) -> int: ...
    async def daily_rank(self, day: str, game: str, user_id: int) -> int | None:
        """The person's place on the day's board of the game (None: not solved that day)."""
        ...
