"""The open rounds of a process that deals every round itself (one process, on SQLite or
PostgreSQL): its round table holds them all, so nothing lies beyond it, and the bound on one
person's rounds is the table's count, checked before the deal (bot.play.round.dealing)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.protocols import RoundStore
from bot.store.records import ClaimGone, OwedClaim, Round, StarterFull


class OwnRounds:
    """The OpenRounds port (bot.play.ports) over this process's own table and store."""

    def __init__(self, store: RoundStore) -> None:
        self.store = store

    async def reaching(self, numbers: Sequence[int]) -> list[Round]:
        return []

    async def reaching_rolls(self, rolls: Sequence[Sequence[int]]) -> list[Round]:
        return []

    async def open_round(self, most: int, chat_id: int, game: str, hand: tuple, target: int,
                         level: str, points: int, lang: str, started_at: float, deadline: float,
                         started_by: int | None, topic: int = 0, hints_on: bool | None = None,
                         typing_on: bool | None = None, claim: OwedClaim | None = None
                         ) -> Round | StarterFull | ClaimGone | None:
        """The store's open_round: the table counted the starter's rounds before the deal."""
        return await self.store.open_round(chat_id, game, hand, target, level, points, lang,
                                           started_at, deadline, started_by, topic,
                                           hints_on=hints_on, typing_on=typing_on, claim=claim)
