"""A tournament across workers, as services over one PostgreSQL database: each of two bots
plays its own group (its Holding), the schedule runs on the first, and its errands to the
second's group are carried to the second (here by hand, as the stream carries them). The second
deals its group's round and shows its board; the hand is refused to everyone by the second too,
which holds no tournament in memory (the database's live tournament rounds are what lies beyond
its table), until the round closed in both groups; the standings are read in PostgreSQL. A
worker killed with a group's deal stored and unsent: the worker taking the group over deals it.
The worker running the schedule, taking a dead worker's group over while its own errand deals
there, shows that deal once (issue 70)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.play.asking.requests import SolveRequest
from bot.play.chats.people import Chat, Player
from bot.play.games import PART_GAMES
from bot.play.guards.live import tournament_key
from bot.play.outcomes import Closed, Dealt, Said
from bot.play.ports import Delivery, Errand, Handover, Target
from bot.play.services import Services
from bot.play.tournaments.rules import REDISPATCH, TournamentRequest
from bot.runtime.pool import SolverPool
from bot.store.postgres import open_postgres
from bot.store.postgres.live_rounds import TOURNAMENT_ROUNDS, SharedRounds, shared_rounds
from solver import solve
from tests.bot.conftest import Clock, FakePublisher, new_services
from tests.postgres import emptied

RED = Chat(-4601, "supergroup", "Red")
BLUE = Chat(-4602, "supergroup", "Blue")
ANN, BEN, EVE = Player(461, "Ann"), Player(462, "Ben"), Player(469, "Eve")


async def admin() -> bool:
    return True


class Holds:
    """A worker's holding of one group (more, once it took another's over); its errands for
    the other's group go to `other`, done at once, or with `detached` on their own (as the
    stream would, the sender not waiting); with no `other` (its worker dead), the stream keeps
    them."""

    def __init__(self, chat: int) -> None:
        self.chats = {chat}
        self.other: Services | None = None
        self.carried: list[Errand] = []
        self.detached = False
        self.in_flight: list[asyncio.Future[None]] = []

    def holds(self, chat_id: int) -> bool:
        return chat_id in self.chats

    async def hand_over(self, moved: Handover) -> None:
        raise AssertionError("no group moves here")

    async def carry(self, errand: Errand) -> None:
        self.carried.append(errand)
        if self.other is None:
            return
        if self.detached:
            self.in_flight.append(asyncio.ensure_future(self.other.tournaments.errand(errand)))
        else:
            await self.other.tournaments.errand(errand)  # as the stream would, in order


@pytest.fixture
async def workers(postgres_url: str, pool: SolverPool
                  ) -> AsyncIterator[tuple[Services, Services, Holds, Clock]]:
    await emptied(postgres_url)
    opened = [await open_postgres(postgres_url) for _ in range(2)]
    clock = Clock()
    holds = [Holds(RED.id), Holds(BLUE.id)]
    built = [new_services(stores, pool, clock, seed=n,
                          open_rounds=shared_rounds(stores, PART_GAMES), holding=holds[n],
                          publisher=FakePublisher(sends=True),
                          shared_names=True, deal_rate=1000.0, tournament_pause=10.0)[0]
             for n, stores in enumerate(opened)]
    holds[0].other, holds[1].other = built[1], built[0]
    try:
        yield built[0], built[1], holds[0], clock
    finally:
        for stores in opened:
            await stores.close()


def shown(services: Services, chat: Chat) -> list:
    publisher = services.outbox.publisher
    return [o for o, target in publisher.shown if target.chat_id == chat.id]  # type: ignore


async def look(services: Services, clock: Clock) -> None:
    clock.now += 1
    await services.tournaments.tick()
    await services.tournaments.settled()


async def test_a_tournament_across_two_workers(workers):
    first, second, holds, clock = workers
    said = await first.tournaments.new(RED, ANN, TournamentRequest(
        name="Cup", rounds=2, seconds=60, starts_in=10), admin)
    assert said.code is not None
    joined = await second.tournaments.join(BLUE, BEN, said.code, admin)
    assert "joined" in joined.text
    clock.now += 10
    await look(first, clock)
    red = [o for o in shown(first, RED) if isinstance(o, Dealt)]
    blue = [o for o in shown(second, BLUE) if isinstance(o, Dealt)]
    assert len(red) == len(blue) == 1 and red[0].round.hand == blue[0].round.hand
    assert [e.kind for e in holds.carried] == ["deal"], "Blue's deal carried to its worker"
    assert not shown(first, BLUE), "the schedule's worker sends nothing to Blue itself"
    hand = red[0].round.hand
    # the second worker holds no tournament in memory: the database's live rounds refuse it
    assert not second.table.live.shared.keys()
    for numbers in (hand, (*hand, 1), tuple(reversed(hand))):
        refused = await second.solving.refusal(SolveRequest(numbers, 24),
                                               await second.people.texts(BLUE, EVE), None)
        assert refused is not None and "tournament" in refused, numbers
    assert tournament_key(1, 1) == 1 * TOURNAMENT_ROUNDS + 1  # the store's key is play's
    clock.now += 2
    won = await second.rounds.answer(BLUE, BEN, solve(hand)[0], explicit=True)
    assert isinstance(won, Closed) and solve(hand)[0] not in won.text
    assert "every group has played it" in won.text and "solutions" not in won.actions
    await look(first, clock)
    assert not [o for o in shown(first, RED) if isinstance(o, Said)], "Red still plays"
    clock.now += 60
    await first.alarms.sweep()  # Red's round runs out
    await look(first, clock)
    boards = [o.text for o in shown(second, BLUE) if isinstance(o, Said)]
    assert len(boards) == 1 and "Here: <b>Ben</b> solved it in 2.0 s" in boards[0]
    red_board = next(o.text for o in shown(first, RED) if isinstance(o, Said))
    assert red_board.count("Ben (Blue)") == 1
    assert await second.solving.refusal(SolveRequest(hand, 24), await second.people.texts(
        BLUE, EVE), None) is None, "free once both groups closed"


class Unsent(FakePublisher):
    """The second worker's sends: its deal to Blue never returns (Telegram's limit held it
    back), until the worker is killed there."""

    def __init__(self) -> None:
        super().__init__(sends=True)
        self.stuck = asyncio.Event()
        self.dead = asyncio.Event()

    async def show(self, outcome, target: Target) -> Delivery:
        if target.chat_id == BLUE.id and isinstance(outcome, Dealt) and not self.dead.is_set():
            self.stuck.set()
            await self.dead.wait()
            raise asyncio.CancelledError  # the worker is gone: nothing after the send runs
        return await super().show(outcome, target)


async def test_a_worker_killed_with_a_deal_unsent_its_group_taken_over(
        postgres_url: str, pool: SolverPool):
    """The worker playing Blue is killed with Blue's round stored and linked and its deal not
    sent yet; the other worker takes Blue's partition over: its recovery deals the round with
    its line, its clock from that deal, and the errand the stream delivers again does
    nothing twice."""
    await emptied(postgres_url)
    opened = [await open_postgres(postgres_url) for _ in range(2)]
    clock, unsent = Clock(), Unsent()
    holds = [Holds(RED.id), Holds(BLUE.id)]
    first, second = [new_services(stores, pool, clock, seed=n,
                                  open_rounds=shared_rounds(stores, PART_GAMES), holding=holds[n],
                                  publisher=FakePublisher(sends=True) if n == 0 else unsent,
                                  shared_names=True, deal_rate=1000.0,
                                  tournament_pause=10.0)[0]
                     for n, stores in enumerate(opened)]
    holds[0].other = second
    holds[0].detached = True  # the errand in flight, as the stream holds it
    try:
        said = await first.tournaments.new(RED, ANN, TournamentRequest(
            name="Cup", rounds=2, seconds=60, starts_in=10), admin)
        assert said.code is not None
        await second.tournaments.join(BLUE, BEN, said.code, admin)
        clock.now += 10
        await look(first, clock)
        await asyncio.wait_for(unsent.stuck.wait(), 10)
        unsent.dead.set()  # killed: the errand it had in hand is never acknowledged
        await asyncio.gather(*holds[0].in_flight, return_exceptions=True)
        assert not [o for o in shown(second, BLUE) if isinstance(o, Dealt)]
        clock.now += 5  # its lease ran out: Blue's partition is the first worker's now
        holds[0].chats.add(BLUE.id)
        resumed = await first.recovery.resume(lambda chat: chat == BLUE.id)
        blue = [o for o in shown(first, BLUE) if isinstance(o, Dealt)]
        assert len(blue) == 1 and resumed == blue
        assert "round 1 of 2, the same hand in 2 groups" in blue[0].text
        red = [o for o in shown(first, RED) if isinstance(o, Dealt)]
        assert blue[0].round.hand == red[0].round.hand
        assert blue[0].round.started_at == clock.now, "Blue's clock from the deal it sees"
        await first.tournaments.errand(holds[0].carried[0])  # delivered again by the stream
        await look(first, clock)
        assert len([o for o in shown(first, BLUE) if isinstance(o, Dealt)]) == 1
        clock.now += 3
        won = await first.rounds.answer(BLUE, BEN, solve(blue[0].round.hand)[0], explicit=True)
        assert isinstance(won, Closed) and "solves it in 4.0 s" in won.text
    finally:
        for stores in opened:
            await stores.close()


class HeldDeal(FakePublisher):
    """The first deal to Blue is held on its way (behind Telegram's send limit) until `go`."""

    def __init__(self) -> None:
        super().__init__(sends=True)
        self.stuck = asyncio.Event()
        self.go = asyncio.Event()

    async def show(self, outcome, target: Target) -> Delivery:
        if target.chat_id == BLUE.id and isinstance(outcome, Dealt) and not self.stuck.is_set():
            self.stuck.set()
            await self.go.wait()
        return await super().show(outcome, target)


class HeldOpen(SharedRounds):
    """Blue's round stored, and the deal opening it held there (before the dealer takes it
    into its table) until `go`."""

    def __init__(self, stores) -> None:
        super().__init__(shared_rounds(stores, PART_GAMES).db, PART_GAMES)
        self.stored = asyncio.Event()
        self.go = asyncio.Event()

    async def open_round(self, most: int, chat_id: int, *args, **kwargs):
        opened = await super().open_round(most, chat_id, *args, **kwargs)
        if chat_id == BLUE.id:
            self.stored.set()
            await self.go.wait()
        return opened


async def schedule_and_dead(postgres_url: str, pool: SolverPool, publisher: FakePublisher,
                            held_open: bool = False):
    """The first worker runs a started tournament's schedule and plays Red; Blue's worker died
    before Blue's deal reached it (the stream keeps the errand). The stores (to close), the
    first worker, its holding, the clock and its open rounds (`held_open`: HeldOpen's)."""
    await emptied(postgres_url)
    opened = [await open_postgres(postgres_url) for _ in range(2)]
    clock = Clock()
    holds = [Holds(RED.id), Holds(BLUE.id)]
    rounds = HeldOpen(opened[0]) if held_open else shared_rounds(opened[0], PART_GAMES)
    first = new_services(opened[0], pool, clock, seed=0, open_rounds=rounds, holding=holds[0],
                         publisher=publisher, shared_names=True, deal_rate=1000.0,
                         tournament_pause=10.0)[0]
    second = new_services(opened[1], pool, clock, seed=1,
                          open_rounds=shared_rounds(opened[1], PART_GAMES),
                          holding=holds[1], publisher=FakePublisher(sends=True),
                          shared_names=True, deal_rate=1000.0, tournament_pause=10.0)[0]
    said = await first.tournaments.new(RED, ANN, TournamentRequest(
        name="Cup", rounds=2, seconds=60, starts_in=10), admin)
    assert said.code is not None
    await second.tournaments.join(BLUE, BEN, said.code, admin)
    clock.now += 10
    await look(first, clock)
    assert [e.kind for e in holds[0].carried] == ["deal"], "Blue's deal went to its worker"
    assert not shown(first, BLUE)
    return opened, first, holds[0], clock, rounds


async def test_the_schedules_worker_taking_a_group_over_while_dealing_it_deals_once(
        postgres_url: str, pool: SolverPool):
    """Blue's worker died; the schedule's worker owns Blue's partition from the moment it took
    it (its holding), and its schedule deals Blue again there, the deal's send held behind the
    send limit, while the take-over reads Blue's open rounds: the round the errand stored is
    not a deal never shown (it was shown twice: issue 70); Blue sees one deal."""
    publisher = HeldDeal()
    opened, first, holds, clock, _ = await schedule_and_dead(postgres_url, pool, publisher)
    try:
        holds.chats.add(BLUE.id)  # the partition is the first worker's now
        clock.now += REDISPATCH  # the schedule sends Blue's deal again, here
        await first.tournaments.tick()
        await asyncio.wait_for(publisher.stuck.wait(), 10)
        resumed = await first.recovery.resume(lambda chat: chat == BLUE.id)
        assert not [o for o in resumed if isinstance(o, Dealt)], resumed
        publisher.go.set()
        await first.tournaments.settled()
        blue = [o for o in shown(first, BLUE) if isinstance(o, Dealt)]
        assert len(blue) == 1, [o.text for o in blue]
        assert "round 1 of 2, the same hand in 2 groups" in blue[0].text
        clock.now += 3
        won = await first.rounds.answer(BLUE, BEN, solve(blue[0].round.hand)[0], explicit=True)
        assert isinstance(won, Closed), "the round the errand dealt is the one played"
    finally:
        for stores in opened:
            await stores.close()


async def test_a_take_up_waits_for_a_deal_opening_its_round_there(
        postgres_url: str, pool: SolverPool):
    """A deal errand has stored Blue's round and not yet taken it into its table when Blue is
    taken up: the take-up begins only once the round is held (and so is left to the errand),
    never in between, where it would read the round as a deal never shown."""
    publisher = FakePublisher(sends=True)
    opened, first, holds, clock, rounds = await schedule_and_dead(postgres_url, pool,
                                                                  publisher, held_open=True)
    try:
        holds.chats.add(BLUE.id)
        clock.now += REDISPATCH
        await first.tournaments.tick()
        assert isinstance(rounds, HeldOpen)
        await asyncio.wait_for(rounds.stored.wait(), 10)
        held_at_start: list[bool] = []

        async def take_up() -> None:
            async with first.tournaments.errands.taking_up(lambda chat: chat == BLUE.id):
                held_at_start.append(first.table.of(BLUE.id) is not None)

        taking = asyncio.ensure_future(take_up())
        for _ in range(10):  # in memory only: a take-up that did not wait would be in by now
            await asyncio.sleep(0)
        assert not held_at_start, "the take-up waits while the deal opens its round"
        rounds.go.set()
        await asyncio.wait_for(taking, 10)
        assert held_at_start == [True]
        await first.tournaments.settled()
        assert len([o for o in shown(first, BLUE) if isinstance(o, Dealt)]) == 1
    finally:
        for stores in opened:
            await stores.close()
