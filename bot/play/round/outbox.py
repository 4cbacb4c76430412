"""Play's one way out: an outcome is shown through the Publisher port (bot.play.ports), and what
the face says became of it is acted on here, in play — the chat's fate first (a group moved to
its supergroup, a chat or topic gone: bot.play.places's `Fates.settle`, and what it hands back
shown in turn), then what follows a sent message (a deal's message id stored, a result counted
as announced and its head kept for paging). The face only renders and sends.
"""

from __future__ import annotations

from typing import Protocol

from bot.play.outcomes import Closed, Dealt, Outcome
from bot.play.ports import Delivery, Fate, Publisher, Target
from bot.play.round.table import RoundTable
from bot.store.protocols import RoundStore


class Settles(Protocol):
    """What acts on a chat's fate (bot.play.places.Fates) and hands back what to show then: it
    shows nothing itself, so it is built before the outbox and passed in."""

    async def settle(self, fate: Fate) -> list[tuple[Outcome, Target]]: ...


class Outbox:
    def __init__(self, publisher: Publisher, table: RoundTable, store: RoundStore,
                 fates: Settles) -> None:
        self.publisher = publisher
        self.table = table
        self.store = store
        self.fates = fates

    async def show(self, outcome: Outcome | None, target: Target) -> Delivery:
        """Show the outcome (None: nothing to show); a network error is raised, with nothing
        counted as sent (a restart sends an owed result again)."""
        if outcome is None:
            return Delivery()
        delivery = await self.publisher.show(outcome, target)
        if delivery.fate is not None:
            for then, where in await self.fates.settle(delivery.fate):
                await self.show(then, where)
        if isinstance(outcome, Dealt) and delivery.message_id is not None:
            await self.deal_sent(outcome.round.id, delivery.message_id)
        elif isinstance(outcome, Closed):
            await self.store.set_announced([outcome.round.id])
            if delivery.message_id is not None:
                self.table.remember_head(outcome.round.id, outcome.head)
        if delivery.then is not None:  # the face's last step, once the send is on record
            await delivery.then()
        return delivery

    async def deal_sent(self, round_id: int, message_id: int) -> None:
        """The deal was sent as this message: replies to it are answers, hints edit it."""
        held = self.table.held(round_id)
        if held is None:
            await self.store.set_message(round_id, message_id)
            return
        if held.sent(message_id, self.table.clock()):
            self.table.arm(held)  # its end moved with its start
        await self.table.commit(held)
