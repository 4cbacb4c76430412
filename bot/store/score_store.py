"""The scores' store: boards and a player's record, kept by the database as rounds close."""

from __future__ import annotations

from typing import Protocol

from bot.store.records import Standing, Stats


class ScoreStore(Protocol):
    """Scores per chat, player and game, kept by the database as rounds close."""

    async def top(self, chat_id: int | None, game: str | None = None,
                  limit: int = 10) -> list[Standing]: ...
    async def stats(self, chat_id: int, user_id: int) -> list[Stats]: ...
