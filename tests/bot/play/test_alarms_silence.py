"""A process letting chats go (a worker giving partitions up) first silences them
(bot/play/alarms.py, `silence`): their alarms are cancelled, and a round's end in flight — closed,
its result being sent — finishes and is counted as announced before the chats are let go, so the
process taking them up owes nothing and sends the result no second time. Other chats' alarms and
rings go on untouched."""

from __future__ import annotations

import asyncio

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Closed, Dealt, Outcome
from bot.play.ports import ROUND_END, Delivery, Target
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from tests.bot.conftest import Clock, FakePublisher, new_services

GROUP = Chat(-42, "group", "G")
OTHER = Chat(-43, "group", "H")
ANN = Player(1, "Ann", language_code="en")


class HeldResults(FakePublisher):
    """Sends at once, but a result waits until `go` is set (a slow Telegram)."""

    def __init__(self) -> None:
        super().__init__(sends=True)
        self.go = asyncio.Event()
        self.holding = asyncio.Event()

    async def show(self, outcome: Outcome, target: Target) -> Delivery:
        if isinstance(outcome, Closed):
            self.holding.set()
            await self.go.wait()
        return await super().show(outcome, target)


async def test_a_result_in_flight_is_sent_once_across_the_hand_over(
        stores: Stores, pool: SolverPool, clock: Clock):
    publisher = HeldResults()
    services, scheduler = new_services(stores, pool, clock, publisher=publisher)
    assert isinstance(await services.rounds.play(GROUP, ANN, "24"), Dealt)
    clock.now += 61
    assert isinstance(await services.rounds.play(OTHER, ANN, "24"), Dealt)  # not due yet
    [ending] = scheduler.due()
    assert ending.kind == ROUND_END
    ringing = asyncio.create_task(services.alarms.ring(ending))
    await asyncio.wait_for(publisher.holding.wait(), 10)  # closed; its result on its way

    asyncio.get_running_loop().call_later(0.3, publisher.go.set)
    await services.alarms.silence(lambda chat: chat == GROUP.id)
    assert ringing.done()  # silenced only once the result went out and was counted
    assert isinstance(ringing.result(), Closed)
    assert all(chat != GROUP.id for _, chat, _ in scheduler.alarms)  # its alarms cancelled
    assert any(chat == OTHER.id for _, chat, _ in scheduler.alarms)  # another chat's kept
    services.recovery.release(lambda chat: chat == GROUP.id)

    taker = FakePublisher(sends=True)  # the next owner, over the same database
    successor, _ = new_services(stores, pool, clock, publisher=taker)
    assert await successor.recovery.resume(lambda chat: chat == GROUP.id) == []
    assert taker.shown == []  # nothing owed: the result is not sent again
    results = [outcome for outcome, target in publisher.shown
               if isinstance(outcome, Closed) and target.chat_id == GROUP.id]
    assert len(results) == 1


async def test_silence_waits_for_nothing_when_nothing_rings(
        stores: Stores, pool: SolverPool, clock: Clock):
    """Another chat's ring in flight does not hold these chats' silence up."""
    publisher = HeldResults()
    services, scheduler = new_services(stores, pool, clock, publisher=publisher)
    for chat in (GROUP, OTHER):
        await services.rounds.play(chat, ANN, "24")
    clock.now += 61
    [ending] = [alarm for alarm in scheduler.due() if alarm.chat_id == OTHER.id]
    ringing = asyncio.create_task(services.alarms.ring(ending))
    await asyncio.wait_for(publisher.holding.wait(), 10)
    await asyncio.wait_for(services.alarms.silence(lambda chat: chat == GROUP.id), 5)
    assert not ringing.done()
    publisher.go.set()
    await ringing
