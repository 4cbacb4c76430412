"""A round's reply waits on as few trips to SQLite's thread as its reads and writes need.

At half load the bot's replies waited mostly on the store (bench/bench_bot_load.py, traced): a
right answer's result on 17 trips of SQLite's one thread, each a hand-over to it and back, one
after another (the close's followers and each player's achievements asked in turn). What does
not depend on the other is asked together now (bot.play.round.events `Closings.closed`, the
achievements per player, a chat's and a person's rows, beside the chat's settings), and a trip
leaves a turn of the loop after it was first asked for, so that what tasks made a moment ago
ask rides it too; the rating reads the round's answers, its players' rows, the hand's and the
scale together, and the achievements read each player's codes with the round. The trips are
counted from the answer to its result, for a group round answered by three new players, and for
the deal before it."""

from __future__ import annotations

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Closed, Dealt, Said
from bot.play.services import Services
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock

GROUP = Chat(-42, "group", "G")
ANN, BEN, CY = (Player(n, name, language_code="en") for n, name in
                ((1, "Ann"), (2, "Ben"), (3, "Cy")))

RESULT_TRIPS = 6  # 17 when the followers and the players were asked one after another; 9
# while the rating read the players' rows after the answers, and the achievements each
# player's codes after the round; 7 while an achievement's count was read before its award
DEAL_TRIPS = 3  # 7 when a new chat's row and its starter's went one after the other; 5
# while its language, then its settings and rows, then its rounds played were read in turn


class Counted:
    """The trips made to the database's thread while counting."""

    def __init__(self, stores: Stores) -> None:
        self.counter = stores.rounds.db.trips
        self.counted = self.counter.sent

    def take(self) -> int:
        trips, self.counted = self.counter.sent - self.counted, self.counter.sent
        return trips


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_a_right_answer_s_result_waits_on_few_trips(services: Services, stores: Stores,
                                                          clock: Clock):
    counted = Counted(stores)
    dealt = await services.rounds.play(GROUP, ANN, "24")
    deal_trips = counted.take()
    assert isinstance(dealt, Dealt), dealt
    for loser in (BEN, CY):  # two new players answer wrong: the round counts
        clock.now += 1
        await services.rounds.answer(GROUP, loser, "1+2", explicit=True)
    clock.now += 5
    counted.take()
    answer = solve(dealt.round.hand, dealt.round.target)[0]
    closed = await services.rounds.answer(GROUP, ANN, answer, explicit=True)
    result_trips = counted.take()
    assert isinstance(closed, Closed), closed
    assert "🏅" in closed.text  # the achievements were checked (a first win), and said
    print(f"trips: the deal {deal_trips}, the result {result_trips}")
    assert deal_trips <= DEAL_TRIPS
    assert result_trips <= RESULT_TRIPS


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_rounds_one_after_another_make_no_trip_to_the_database_s_thread(
        services: Services, stores: Stores, clock: Clock):
    """Every statement of a round's path is quick: they run on the event loop, none on
    aiosqlite's thread (bot.store.sqlite.trips), not even after their first runs, which are
    slow once while SQLite prepares them (a round's close with its scoring trigger)."""
    trips = stores.rounds.db.trips
    far = trips.far
    for _ in range(3):
        dealt = await services.rounds.play(GROUP, ANN, "24")
        assert isinstance(dealt, Dealt), dealt
        clock.now += 1
        await services.rounds.answer(GROUP, BEN, "1+2", explicit=True)
        clock.now += 5
        answer = solve(dealt.round.hand, dealt.round.target)[0]
        closed = await services.rounds.answer(GROUP, CY, answer, explicit=True)
        assert isinstance(closed, Closed), closed
        clock.now += 60
    assert trips.far == far and not trips.far_keys


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_a_deal_refused_at_once_reads_nothing(services: Services, stores: Stores):
    """A /play while the topic's round is on, or past the starter's bound, is answered from
    memory: a flood of them costs the store nothing (the chat's words are remembered)."""
    dealt = await services.rounds.play(GROUP, ANN, "24")
    assert isinstance(dealt, Dealt), dealt
    counted = Counted(stores)
    for player in (ANN, BEN, CY, ANN):
        refused = await services.rounds.play(GROUP, player, "24")
        assert isinstance(refused, Said) and "on" in refused.text, refused
    again = counted.take()
    assert again == 0


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_a_round_ending_while_a_refused_deal_reads_its_words_deals_after_all(
        services: Services, stores: Stores, monkeypatch: pytest.MonkeyPatch):
    """Memory said a round is on, and it ran out while the /play read the chat's words: the
    /play deals after all, with what the chat's settings deal (read then), and its starter
    stored first."""
    dealt = await services.rounds.play(GROUP, ANN, "24")
    assert isinstance(dealt, Dealt), dealt
    people = services.rounds.dealing.people
    words = people.texts

    async def ending_meanwhile(chat, player=None):
        if services.rounds.open_round(GROUP.id) is not None:
            await services.rounds.endings.expire(dealt.round.id)
        return await words(chat, player)

    monkeypatch.setattr(people, "texts", ending_meanwhile)
    again = await services.rounds.play(GROUP, BEN, "24")
    assert isinstance(again, Dealt), again
    assert again.round.id != dealt.round.id and again.round.started_by == BEN.id
    assert len(again.round.hand) == 4
