"""What each alarm does when it rings, in play: a round's time is up, a match deals its next round
or says a round's end is near, a deal's status is due. The face's scheduler (bot.telegram.jobs)
only rings; what is shown goes out through the outbox like every outcome."""

from __future__ import annotations

from bot.play.matches.matches import Matches
from bot.play.ports import NEXT_DEAL, ROUND_END, STATUS, WARNING, Alarm
from bot.play.round.outcomes import Outcome
from bot.play.round.service import Rounds


class Alarms:
    def __init__(self, rounds: Rounds, matches: Matches) -> None:
        self.rounds = rounds
        self.matches = matches

    async def ring(self, alarm: Alarm) -> Outcome | None:
        """The alarm rang: what it did (shown already), if anything."""
        if alarm.kind == ROUND_END and alarm.round_id is not None:
            return await self.rounds.expire(alarm.round_id)
        if alarm.kind == NEXT_DEAL:
            return await self.matches.deal_next(alarm.chat_id, alarm.topic)
        if alarm.kind == WARNING and alarm.round_id is not None:
            return await self.matches.warning(alarm.chat_id, alarm.round_id, alarm.topic)
        if alarm.kind == STATUS and alarm.round_id is not None:
            return await self.rounds.status_due(alarm.round_id)
        return None

    async def sweep(self) -> int:
        """End the rounds whose time ran out without their alarm ringing (a stall past it, a
        job lost): an end is late by one sweep at most, never missed. How many ended."""
        return len(await self.rounds.overdue())
