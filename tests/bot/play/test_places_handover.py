"""A group's move to a supergroup another process plays (bot/play/places.py, the Holding
port): the process playing the group moves the rows, lets the round and every alarm of the group
go and hands over; the one playing the supergroup takes the round up — its end armed, its deal
shown again there, an answer there winning it — or ends it if its time ran out meanwhile; a
notice heard twice takes nothing up twice. Two sets of services over one database play the two
processes (the cluster's workers: tests/cluster/test_cluster_process.py has them for real)."""

from __future__ import annotations

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Closed, Dealt
from bot.play.ports import NEXT_DEAL, ROUND_END, WARNING, Handover
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock, FakePublisher, new_services

OLD, NEW = Chat(-61, "group", "G"), Chat(-1_000_061, "supergroup", "G")
ANN, BEN = Player(1, "Ann", language_code="en"), Player(2, "Ben", language_code="en")


class Plays:
    """The Holding port of a process that plays `chats` only; what it handed over."""

    def __init__(self, *chats: int) -> None:
        self.chats = set(chats)
        self.handed: list[Handover] = []

    def holds(self, chat_id: int) -> bool:
        return chat_id in self.chats

    async def hand_over(self, moved: Handover) -> None:
        self.handed.append(moved)


def two(stores: Stores, pool: SolverPool, clock: Clock):
    """The group's process and the supergroup's, each with its publisher and scheduler."""
    mine, theirs = Plays(OLD.id), Plays(NEW.id)
    first_shown, second_shown = FakePublisher(sends=True), FakePublisher(sends=True)
    first = new_services(stores, pool, clock, publisher=first_shown, holding=mine)
    second = new_services(stores, pool, clock, publisher=second_shown, holding=theirs)
    return (first, first_shown, mine), (second, second_shown)


async def test_the_round_goes_on_in_the_supergroup_on_the_process_playing_it(
        stores: Stores, pool: SolverPool, clock: Clock):
    (first, first_shown, mine), (second, second_shown) = two(stores, pool, clock)
    services, scheduler = first
    dealt = await services.rounds.play(OLD, ANN, "24")
    assert isinstance(dealt, Dealt)
    await services.places.migrate(OLD.id, NEW.id)
    assert services.rounds.open_round(OLD.id) is None  # let go
    assert services.rounds.open_round(NEW.id) is None  # ... not followed here
    assert not any(chat in (OLD.id, NEW.id) for _, chat, _ in scheduler.alarms)
    assert mine.handed == [Handover(OLD.id, NEW.id, dealt.round.id, False)]

    taker, taker_alarms = second
    await taker.places.take_moved(mine.handed[0])
    current = taker.rounds.open_round(NEW.id)
    assert current is not None and current.id == dealt.round.id
    assert taker_alarms.pending(ROUND_END, NEW.id) is not None
    [(again, target)] = second_shown.shown  # the deal, shown again where its players are
    assert isinstance(again, Dealt) and target.chat_id == NEW.id
    assert current.message_id is not None  # replies to it there are answers

    await taker.places.take_moved(mine.handed[0])  # Telegram said it twice: nothing more
    assert len(second_shown.shown) == 1
    clock.now += 5
    won = await taker.rounds.answer(NEW, BEN, solve(dealt.round.hand)[0], explicit=True)
    assert isinstance(won, Closed) and "Ben" in won.text
    stored = await stores.rounds.get_round(dealt.round.id)
    assert stored is not None and stored.status == "won" and stored.chat_id == NEW.id
    assert [o for o, _ in first_shown.shown if isinstance(o, Closed)] == []


async def test_a_round_whose_time_ran_out_meanwhile_ends_there(
        stores: Stores, pool: SolverPool, clock: Clock):
    (first, _, mine), (second, second_shown) = two(stores, pool, clock)
    dealt = await first[0].rounds.play(OLD, ANN, "24")
    assert isinstance(dealt, Dealt)
    await first[0].places.migrate(OLD.id, NEW.id)
    clock.now += 120
    await second[0].places.take_moved(mine.handed[0])
    [(ended, target)] = second_shown.shown
    assert isinstance(ended, Closed) and "Time is up" in ended.text and target.chat_id == NEW.id
    stored = await stores.rounds.get_round(dealt.round.id)
    assert stored is not None and stored.status == "expired"
    assert dealt.round.id not in {r.round.id for r in await stores.rounds.unannounced()}


async def test_a_match_goes_on_there_and_the_group_keeps_no_alarm(
        stores: Stores, pool: SolverPool, clock: Clock):
    (first, _, mine), (second, _) = two(stores, pool, clock)
    services, scheduler = first
    assert (await services.matches.start(OLD, ANN, 3)).round is not None
    assert scheduler.pending(WARNING, OLD.id) is not None or \
        scheduler.pending(NEXT_DEAL, OLD.id) is not None
    await services.places.migrate(OLD.id, NEW.id)
    assert not any(chat == OLD.id for _, chat, _ in scheduler.alarms)
    [moved] = mine.handed
    assert moved.match
    taker, taker_alarms = second
    await taker.places.take_moved(moved)
    assert taker_alarms.pending(WARNING, NEW.id) is not None or \
        taker_alarms.pending(NEXT_DEAL, NEW.id) is not None  # the match's next step is set
    assert await taker.matches.is_on(NEW.id)


async def test_one_process_follows_the_move_itself(
        stores: Stores, pool: SolverPool, clock: Clock):
    services, scheduler = new_services(stores, pool, clock, publisher=FakePublisher(sends=True))
    dealt = await services.rounds.play(OLD, ANN, "24")
    assert isinstance(dealt, Dealt)
    await services.places.migrate(OLD.id, NEW.id)
    current = services.rounds.open_round(NEW.id)
    assert current is not None and current.id == dealt.round.id
    assert scheduler.pending(ROUND_END, NEW.id) is not None
