"""What each alarm does when it rings, in play: a round's time is up, a match deals its next round
or says a round's end is near, a streak or a storm deals its next hand, a deal's status is due.
The face's scheduler (bot.telegram.jobs) only rings; what is shown goes out through the outbox
like every outcome.

A process that lets some chats go (a cluster's worker giving partitions up) first silences them
(`silence`): their alarms are cancelled and the rings in flight for them end — a round closed,
its result sent and counted as announced — before another process takes them up, which would
otherwise find the result unannounced and send it again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator

from bot.play.matches.matches import Matches
from bot.play.outcomes import Outcome
from bot.play.ports import NEXT_DEAL, ROUND_END, STATUS, STORM_NEXT, STREAK_NEXT, WARNING, Alarm
from bot.play.round.service import Rounds
from bot.play.solo.storms import Storms
from bot.play.solo.streaks import Streaks


class Alarms:
    def __init__(self, rounds: Rounds, matches: Matches, streaks: Streaks | None = None,
                 storms: Storms | None = None) -> None:
        self.rounds = rounds
        self.matches = matches
        self.streaks = streaks
        self.storms = storms
        # each ring (and sweep) in flight, with its chat (None: a sweep, any chat)
        self._ringing: dict[asyncio.Future[None], int | None] = {}

    async def ring(self, alarm: Alarm) -> Outcome | None:
        """The alarm rang: what it did (shown already), if anything."""
        with self._in_flight(alarm.chat_id):
            return await self._ring(alarm)

    async def _ring(self, alarm: Alarm) -> Outcome | None:
        if alarm.kind == ROUND_END and alarm.round_id is not None:
            return await self.rounds.expire(alarm.round_id)
        if alarm.kind == NEXT_DEAL:
            return await self.matches.deal_next(alarm.chat_id, alarm.topic)
        if alarm.kind == WARNING and alarm.round_id is not None:
            return await self.matches.warning(alarm.chat_id, alarm.round_id, alarm.topic)
        if alarm.kind == STREAK_NEXT and self.streaks is not None:
            return await self.streaks.deal_next(alarm.chat_id)
        if alarm.kind == STORM_NEXT and self.storms is not None:
            return await self.storms.deal_next(alarm.chat_id)
        if alarm.kind == STATUS and alarm.round_id is not None:
            return await self.rounds.status_due(alarm.round_id)
        return None

    async def sweep(self) -> int:
        """End the rounds whose time ran out without their alarm ringing (a stall past it, a
        job lost): an end is late by one sweep at most, never missed. How many ended."""
        with self._in_flight(None):
            return len(await self.rounds.overdue())

    async def silence(self, chats: Callable[[int], bool]) -> None:
        """Cancel every alarm of these chats, then wait for the rings (and a sweep) in flight
        that may close or show something of theirs."""
        self.rounds.table.scheduler.cancel_chats(chats)
        waiting = [ring for ring, chat in self._ringing.items() if chat is None or chats(chat)]
        if waiting:
            await asyncio.wait(waiting)

    @contextlib.contextmanager
    def _in_flight(self, chat: int | None) -> Iterator[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._ringing[done] = chat
        try:
            yield
        finally:
            del self._ringing[done]
            done.set_result(None)
