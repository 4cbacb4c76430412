"""The answers' retention, run by play: the housekeeping job (bot/telegram/jobs.py) asks every
EXPIRE_EVERY seconds, and the rounds closed more than ANSWER_TEXTS_KEPT ago lose what
bot/store/retention.py says is not kept (the texts of answers, a player's later answers in a
round, who passed), a few short transactions at a time. /privacy says the same. Each run first
finishes the /forget a kill interrupted (the first run comes at start-up: see
bot.play.community.privacy), and last moves every chat's week's totals on (bot.store.retention:
the rounds that left the week go from them)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from bot.store.protocols import RoundStore
from bot.store.retention import ANSWER_TEXTS_KEPT, EXPIRE_EVERY, WEEK

__all__ = ["ANSWER_TEXTS_KEPT", "EXPIRE_EVERY", "Retention"]


async def _none_unfinished() -> int:
    return 0


class Retention:
    def __init__(self, rounds: RoundStore, clock: Callable[[], float] = time.time,
                 unfinished_forgets: Callable[[], Awaitable[int]] = _none_unfinished) -> None:
        self.rounds = rounds
        self.clock = clock
        self.unfinished_forgets = unfinished_forgets  # finishes them; how many

    async def expire(self) -> int:
        """One run of the retention, up to the game's clock: how many rounds it reached. A
        forget left unfinished goes first: what a person asked to delete waits no longer than
        what merely aged."""
        await self.unfinished_forgets()
        reached = await self.rounds.expire_answers(self.clock() - ANSWER_TEXTS_KEPT)
        await self.rounds.expire_week(self.clock() - WEEK)
        return reached
