"""Streak without Telegram, on both databases: hands alone in a private chat, each aimed a little
harder, until the first not solved — a wrong answer, a give-up, the time running out; the best
kept; refused where it is not played; a restart goes on; /forget erases it."""

from __future__ import annotations

import itertools

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import AGAIN, Closed, Dealt, Said
from bot.play.ports import STREAK_NEXT
from bot.play.services import Services
from bot.play.solo.streak_book import FIRST_AIM, FLOOR, PAUSE, aim_of
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock, FakeScheduler, new_services

ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
HERS = Chat(ANN.id, "private")
HIS = Chat(BEN.id, "private")
GROUP = Chat(-42, "group", "G")


def build(stores: Stores, pool: SolverPool, clock: Clock, seed: int = 1
          ) -> tuple[Services, FakeScheduler]:
    return new_services(stores, pool, clock, seed=seed, seconds={"24": 60})


@pytest.fixture
def wired(stores: Stores, pool: SolverPool, clock: Clock) -> tuple[Services, FakeScheduler]:
    return build(stores, pool, clock)


async def restart(stores: Stores, pool: SolverPool, clock: Clock
                  ) -> tuple[Services, FakeScheduler]:
    """New services over the same database, as after a restart, resumed."""
    again, scheduler = build(stores, pool, clock, seed=2)
    await again.recovery.resume()
    return again, scheduler


async def started(services: Services, chat: Chat = HERS, player: Player = ANN) -> Dealt:
    dealt = await services.streaks.start(chat, player)
    assert isinstance(dealt, Dealt), dealt
    return dealt


async def solve_hand(services: Services, chat: Chat = HERS, player: Player = ANN) -> Closed:
    current = services.rounds.open_round(chat.id)
    assert current is not None
    won = await services.rounds.answer(chat, player, solve(current.hand)[0], explicit=True)
    assert isinstance(won, Closed), won
    return won


def a_wrong_answer(hand: tuple) -> str:
    """An expression of the hand's numbers, each once, that does not make 24."""
    numbers = [str(n) for n in hand]
    if sum(hand) != 24:
        return "+".join(numbers)
    return "*".join(numbers)  # a sum of 24 is no product of 24 (1+5+9+9: 405)


async def next_hand(services: Services, scheduler: FakeScheduler, clock: Clock,
                    chat: Chat = HERS) -> Dealt | Said | None:
    """The streak's next-hand alarm rings once its pause has passed."""
    assert scheduler.when(STREAK_NEXT, chat.id) == pytest.approx(PAUSE)
    clock.now += PAUSE
    [alarm] = [alarm for alarm in scheduler.due() if alarm.kind == STREAK_NEXT]
    return await services.alarms.ring(alarm)


def test_each_hand_is_aimed_lower_down_to_a_floor():
    aims = [aim_of(solved) for solved in range(40)]
    assert aims[0] == FIRST_AIM and aims[-1] == FLOOR
    assert all(later <= earlier for earlier, later in itertools.pairwise(aims))
    assert aims[1] < aims[0]


async def test_a_streak_is_played_alone(wired, stores):
    services, _ = wired
    said = await services.streaks.start(GROUP, ANN)
    assert isinstance(said, Said) and "/streak in a private chat" in said.text
    assert await stores.streaks.streak_on(ANN.id) is None
    assert services.rounds.open_round(GROUP.id) is None


async def test_solved_hands_follow_each_other_until_a_wrong_answer(wired, stores, clock):
    services, scheduler = wired
    first = await started(services)
    assert "Streak: hand 1." in first.text and "Your best: 0." in first.text
    on = await stores.streaks.streak_on(ANN.id)
    assert on is not None and on.round_id == first.round.id and on.solved == 0
    won = await solve_hand(services)
    assert "Solved in a row: 1." in won.text and AGAIN not in won.actions
    second = await next_hand(services, scheduler, clock)
    assert isinstance(second, Dealt) and "Streak: hand 2." in second.text
    await solve_hand(services)
    third = await next_hand(services, scheduler, clock)
    assert isinstance(third, Dealt) and "Streak: hand 3." in third.text
    unread = await services.rounds.answer(HERS, ANN, "hello there", explicit=False)
    assert unread is None and services.rounds.open_round(HERS.id) is not None  # no attempt
    over = await services.rounds.answer(HERS, ANN, a_wrong_answer(third.round.hand),
                                        explicit=True)
    assert isinstance(over, Closed) and over.round.id == third.round.id
    assert "Streak over. Solved in a row: 2. Your best: 2." in over.text and "🏆" in over.text
    assert services.rounds.open_round(HERS.id) is None
    assert scheduler.pending(STREAK_NEXT, HERS.id) is None
    assert await stores.streaks.streak_on(ANN.id) is None
    assert await stores.streaks.best_streak(ANN.id) == 2


@pytest.mark.parametrize("how", ["time", "reveal"])
async def test_a_hand_not_solved_in_time_or_given_up_ends_it(wired, stores, clock, how):
    services, scheduler = wired
    dealt = await started(services)
    if how == "time":
        clock.now += 61
        ended = await services.rounds.expire(dealt.round.id)
    else:
        ended = await services.rounds.reveal(HERS, ANN)
    assert isinstance(ended, Closed)
    assert "Streak over. Solved in a row: 0. Your best: 0." in ended.text
    assert "🏆" not in ended.text  # nothing solved is no best
    assert await stores.streaks.streak_on(ANN.id) is None
    assert scheduler.pending(STREAK_NEXT, HERS.id) is None


async def test_the_best_is_the_longest_and_each_person_has_their_own(wired, stores, clock):
    services, scheduler = wired
    await started(services)
    await solve_hand(services)
    second = await next_hand(services, scheduler, clock)
    assert isinstance(second, Dealt)
    await services.rounds.reveal(HERS, ANN)
    again = await started(services)
    assert "Your best: 1." in again.text
    ended = await services.rounds.reveal(HERS, ANN)
    assert isinstance(ended, Closed) and "Solved in a row: 0. Your best: 1." in ended.text
    his = await started(services, HIS, BEN)
    assert "Your best: 0." in his.text
    assert await stores.streaks.best_streak(BEN.id) == 0


async def test_one_streak_at_a_time_and_never_over_a_round(wired, stores):
    services, _ = wired
    await started(services)
    said = await services.streaks.start(HERS, ANN)
    assert isinstance(said, Said) and "Your streak is on. Solved so far: 0." in said.text
    played = await services.rounds.play(HIS, BEN, "24")
    assert isinstance(played, Dealt)
    refused = await services.streaks.start(HIS, BEN)
    assert isinstance(refused, Said) and await stores.streaks.streak_on(BEN.id) is None
    # an ordinary round's wrong answer leaves it open, as ever
    await services.rounds.answer(HIS, BEN, a_wrong_answer(played.round.hand), explicit=True)
    assert services.rounds.open_round(HIS.id) is not None


async def test_a_round_started_between_hands_stops_the_streak(wired, stores, clock):
    services, scheduler = wired
    await started(services)
    await solve_hand(services)
    other = await services.rounds.play(HERS, ANN, "24")  # in the pause
    assert isinstance(other, Dealt)
    said = await next_hand(services, scheduler, clock)
    assert isinstance(said, Said)
    assert "The streak stopped. Solved in a row: 1. Your best: 1." in said.text
    assert await stores.streaks.streak_on(ANN.id) is None
    await services.rounds.answer(HERS, ANN, a_wrong_answer(other.round.hand), explicit=True)
    assert services.rounds.open_round(HERS.id) is not None  # an ordinary round: it goes on


async def test_a_restart_mid_hand_goes_on_and_a_miss_still_ends_it(stores, pool, clock):
    services, _ = build(stores, pool, clock)
    dealt = await started(services)
    again, _ = await restart(stores, pool, clock)
    over = await again.rounds.answer(HERS, ANN, a_wrong_answer(dealt.round.hand),
                                     explicit=True)
    assert isinstance(over, Closed) and "Streak over" in over.text


async def test_a_restart_between_hands_deals_the_next(stores, pool, clock):
    services, _ = build(stores, pool, clock)
    await started(services)
    await solve_hand(services)  # its next-hand alarm is lost with the process
    again, scheduler = await restart(stores, pool, clock)
    dealt = await next_hand(again, scheduler, clock)
    assert isinstance(dealt, Dealt) and "Streak: hand 2." in dealt.text


async def test_a_hand_that_ran_out_while_the_bot_was_away_stops_it_with_what_it_solved(
        stores, pool, clock):
    services, scheduler = build(stores, pool, clock)
    await started(services)
    await solve_hand(services)
    await next_hand(services, scheduler, clock)
    clock.now += 600  # the bot was down past the hand's end
    again, _ = await restart(stores, pool, clock)
    [late] = [shown for shown, _ in again.outbox.publisher.shown  # type: ignore[attr-defined]
              if isinstance(shown, Closed)]
    assert "The streak stopped. Solved in a row: 1. Your best: 1." in late.text
    assert await stores.streaks.streak_on(ANN.id) is None
    assert await stores.streaks.best_streak(ANN.id) == 1


async def test_a_solved_hand_counts_once(stores):
    streak = await stores.streaks.open_streak(ANN.id, ANN.id, "en", 1.0)
    assert streak is not None
    assert await stores.streaks.play_hand(streak.id, 7)
    assert not await stores.streaks.play_hand(streak.id, 8)  # one hand in play at a time
    assert await stores.streaks.hand_solved(streak.id, 7)
    assert not await stores.streaks.hand_solved(streak.id, 7)  # its result said again
    assert await stores.streaks.open_streak(ANN.id, ANN.id, "en", 2.0) is None  # one on
    assert await stores.streaks.end_streak(streak.id, "missed", 3.0)
    assert not await stores.streaks.end_streak(streak.id, "stopped", 4.0)
    assert await stores.streaks.best_streak(ANN.id) == 1


async def test_forget_erases_every_streak(wired, stores, clock):
    services, scheduler = wired
    await started(services)
    await solve_hand(services)
    await services.community.privacy.forget(ANN.id)
    await services.community.privacy.erased()
    assert await stores.streaks.best_streak(ANN.id) == 0
    assert await stores.streaks.streak_on(ANN.id) is None
    clock.now += PAUSE
    for alarm in scheduler.due():
        await services.alarms.ring(alarm)
    assert services.rounds.open_round(HERS.id) is None


async def test_stats_say_the_best_streak_in_every_chat_once_there_is_one(wired, clock):
    services, scheduler = wired
    assert "Best streak" not in await services.community.standings.stats(HERS, ANN)
    await started(services)
    await solve_hand(services)
    await next_hand(services, scheduler, clock)
    await solve_hand(services)  # the streak on counts as it stands
    assert "Best streak: 2 " in await services.community.standings.stats(HERS, ANN)
    await next_hand(services, scheduler, clock)
    await services.rounds.reveal(HERS, ANN)
    for where in (HERS, GROUP):  # the person's, whichever chat asks
        said = await services.community.standings.stats(where, ANN)
        assert "🔥 Best streak: 2 (hands solved in a row alone, /streak)." in said
    assert "Best streak" not in await services.community.standings.stats(HIS, BEN)


async def test_the_boards_show_the_longest_streaks_of_the_season_and_of_all_time(
        wired, stores, clock):
    services, scheduler = wired
    empty = await services.streaks.board(HERS, ANN)
    assert "Longest streaks this season" in empty.text and "No streaks yet." in empty.text
    await started(services)
    await solve_hand(services)
    await next_hand(services, scheduler, clock)
    await solve_hand(services)
    await next_hand(services, scheduler, clock)
    on = await services.streaks.board(HERS, ANN)
    assert "Ann" not in on.text  # a streak on is on no board yet
    await services.rounds.reveal(HERS, ANN)
    await started(services, HIS, BEN)
    await solve_hand(services, HIS, BEN)
    await next_hand(services, scheduler, clock, HIS)
    await services.rounds.reveal(HIS, BEN)
    board = await services.streaks.board(HERS, ANN)
    assert "1. Ann — 2\n2. Ben — 1" in board.text
    assert board.text.count("1. Ann — 2") == 2  # the season's and all time's
    # a group's own: its players' (Ben plays there, Ann does not)
    played = await services.rounds.play(GROUP, BEN, "24")
    assert isinstance(played, Dealt)
    await solve_hand(services, GROUP, BEN)
    said = await services.streaks.start(GROUP, ANN)
    assert isinstance(said, Said) and "/streak in a private chat" in said.text
    assert "This group's longest streaks of all time" in said.text
    assert "1. Ben — 1" in said.text and "Ann" not in said.text
