"""Storm without Telegram, on both databases: hands alone in a private chat against the bot's
clock — a solved hand adds seconds, a wrong answer or a give-up takes some and moves on, the time
running out ends it; each hand lasts what is left; the boards of the day and the season,
everyone's and a group's; refused where it is not played; a restart ends it with what it scored;
/forget erases it."""

from __future__ import annotations

import itertools

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.community.periods import day_key, season_key
from bot.play.outcomes import AGAIN, Closed, Dealt, Said
from bot.play.ports import STORM_NEXT
from bot.play.services import Services
from bot.play.solo.storm_book import BONUS, FIRST_AIM, FLOOR, PAUSE, PENALTY, aim_of, periods_of
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from tests.bot.conftest import Clock, FakeScheduler, new_services
from tests.bot.play.solo.test_streaks import a_wrong_answer, solve_hand

ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
HERS = Chat(ANN.id, "private")
HIS = Chat(BEN.id, "private")
GROUP = Chat(-42, "group", "G")
SECONDS = 60.0  # the storms' clock here


def build(stores: Stores, pool: SolverPool, clock: Clock, seed: int = 1,
          seconds: float = SECONDS) -> tuple[Services, FakeScheduler]:
    return new_services(stores, pool, clock, seed=seed, seconds={"24": 60},
                        storm_seconds=seconds)


@pytest.fixture
def wired(stores: Stores, pool: SolverPool, clock: Clock) -> tuple[Services, FakeScheduler]:
    return build(stores, pool, clock)


async def started(services: Services, chat: Chat = HERS, player: Player = ANN) -> Dealt:
    dealt = await services.storms.start(chat, player)
    assert isinstance(dealt, Dealt), dealt
    return dealt


async def next_hand(services: Services, scheduler: FakeScheduler, clock: Clock,
                    chat: Chat = HERS) -> Dealt | Said | None:
    """The storm's next-hand alarm rings once its pause has passed."""
    assert scheduler.when(STORM_NEXT, chat.id) == pytest.approx(PAUSE)
    clock.now += PAUSE
    [alarm] = [alarm for alarm in scheduler.due() if alarm.kind == STORM_NEXT]
    return await services.alarms.ring(alarm)


def test_the_hands_start_easy_and_get_harder_down_to_a_floor():
    aims = [aim_of(played) for played in range(40)]
    assert aims[0] == FIRST_AIM and aims[-1] == FLOOR
    assert all(later <= earlier for earlier, later in itertools.pairwise(aims))
    assert aims[1] < aims[0]


def test_a_storm_counts_on_the_utc_day_and_the_season_it_began_in():
    afternoon = 1_790_000_000.0  # 2026-09-21, 14:13 UTC
    assert periods_of(afternoon) == ("d2026-09-21", "s2026-09")
    assert day_key(1_789_948_800.0 - 1) == "d2026-09-20"  # a second before its midnight
    assert season_key(1_788_220_800.0) == "s2026-09" != season_key(1_788_220_800.0 - 1)


async def test_a_storm_is_played_alone_and_a_group_is_shown_its_board(wired, stores):
    services, _ = wired
    said = await services.storms.start(GROUP, ANN)
    assert isinstance(said, Said) and "/storm in a private chat" in said.text
    assert "This group's best storms today" in said.text and "No storms yet." in said.text
    assert await stores.storms.storm_on(ANN.id) is None
    assert services.rounds.open_round(GROUP.id) is None


async def test_the_clock_gains_on_a_solve_loses_on_a_miss_and_ends_it(wired, stores, clock):
    services, scheduler = wired
    start = clock.now
    first = await started(services)
    assert "Storm: hand 1. Solved so far: 0." in first.text and "Your best today: 0." in first.text
    assert first.round.deadline == pytest.approx(start + SECONDS)  # the hand lasts the clock
    won = await solve_hand(services)
    assert f"+{BONUS:.0f} seconds. Solved: 1." in won.text and AGAIN not in won.actions
    on = await stores.storms.storm_on(ANN.id)
    assert on is not None and on.ends_at == pytest.approx(start + SECONDS + BONUS)
    assert on.solved == 1 and on.round_id is None
    second = await next_hand(services, scheduler, clock)
    assert isinstance(second, Dealt) and "Storm: hand 2. Solved so far: 1." in second.text
    assert second.round.deadline == pytest.approx(start + SECONDS + BONUS)
    missed = await services.rounds.answer(HERS, ANN, a_wrong_answer(second.round.hand),
                                          explicit=True)
    assert isinstance(missed, Closed) and missed.round.id == second.round.id  # it moves on
    assert f"−{PENALTY:.0f} seconds. Solved: 1." in missed.text
    on = await stores.storms.storm_on(ANN.id)
    assert on is not None and on.missed == 1
    assert on.ends_at == pytest.approx(start + SECONDS + BONUS - PENALTY)
    third = await next_hand(services, scheduler, clock)
    assert isinstance(third, Dealt) and "Storm: hand 3." in third.text
    assert third.round.deadline == pytest.approx(on.ends_at)
    clock.now = third.round.deadline + 1
    over = await services.rounds.expire(third.round.id)
    assert isinstance(over, Closed)
    assert "Storm over. Solved: 1, missed: 1. Your best today: 1; this season: 1." in over.text
    assert "🏆" in over.text
    assert await stores.storms.storm_on(ANN.id) is None
    assert scheduler.pending(STORM_NEXT, HERS.id) is None
    board = await services.storms.board(HERS, ANN)
    assert "Best storms today" in board.text and "1. Ann — 1" in board.text
    assert "Best storms this season" in board.text


async def test_a_give_up_costs_the_penalty_and_too_little_left_ends_it(stores, pool, clock):
    services, scheduler = build(stores, pool, clock, seconds=PENALTY + 3)
    await started(services)
    ended = await services.rounds.reveal(HERS, ANN)
    assert isinstance(ended, Closed)
    assert "Storm over. Solved: 0, missed: 1." in ended.text and "🏆" not in ended.text
    assert scheduler.pending(STORM_NEXT, HERS.id) is None
    assert await stores.storms.storm_on(ANN.id) is None
    assert await stores.storms.board(day_key(clock.now), 10) == []  # nothing solved


async def test_one_storm_at_a_time_and_never_over_a_round(wired, stores, clock):
    services, _ = wired
    await started(services)
    clock.now += 20
    said = await services.storms.start(HERS, ANN)
    assert isinstance(said, Said)
    assert "Your storm is on. Solved so far: 0. Time left: 40 seconds." in said.text
    played = await services.rounds.play(HIS, BEN, "24")
    assert isinstance(played, Dealt)
    refused = await services.storms.start(HIS, BEN)
    assert isinstance(refused, Said) and await stores.storms.storm_on(BEN.id) is None


async def test_a_restart_ends_it_with_what_it_scored(stores, pool, clock):
    services, scheduler = build(stores, pool, clock)
    await started(services)
    await solve_hand(services)
    dealt = await next_hand(services, scheduler, clock)
    assert isinstance(dealt, Dealt)
    again, again_scheduler = build(stores, pool, clock, seed=2)
    await again.recovery.resume()
    [said] = [shown for shown, _ in again.outbox.publisher.shown  # type: ignore[attr-defined]
              if isinstance(shown, Said)]
    assert "The storm stopped (the bot restarted)" in said.text and "solved 1" in said.text
    assert await stores.storms.storm_on(ANN.id) is None
    assert await stores.storms.best_storm(ANN.id, day_key(clock.now)) == 1
    # its hand goes on as an ordinary round: a miss leaves it open, a solve adds nothing
    await again.rounds.answer(HERS, ANN, a_wrong_answer(dealt.round.hand), explicit=True)
    assert again.rounds.open_round(HERS.id) is not None
    await solve_hand(again)
    assert again_scheduler.pending(STORM_NEXT, HERS.id) is None
    assert await stores.storms.best_storm(ANN.id, day_key(clock.now)) == 1


async def test_a_hand_that_ran_out_while_the_bot_was_away_stops_it(stores, pool, clock):
    services, scheduler = build(stores, pool, clock)
    await started(services)
    await solve_hand(services)
    await next_hand(services, scheduler, clock)
    clock.now += 600  # the bot was down past the clock's end
    again, _ = build(stores, pool, clock, seed=2)
    await again.recovery.resume()
    [late] = [shown for shown, _ in again.outbox.publisher.shown  # type: ignore[attr-defined]
              if isinstance(shown, Closed)]
    assert "The storm stopped" in late.text and "solved 1, missed 0" in late.text
    assert await stores.storms.storm_on(ANN.id) is None


async def test_the_boards_keep_each_persons_best_of_the_day_and_the_season(wired, stores,
                                                                           clock):
    services, _ = wired
    day = 86400.0
    clock.now = 40 * day + 3600  # 1970-02-10, 01:00 UTC: the season began on the 1st
    for player, at, solved in ((ANN, 35 * day, 9), (ANN, clock.now - 60, 4),
                               (BEN, clock.now - 30, 6), (ANN, clock.now - 10, 2)):
        storm = await stores.storms.open_storm(player.id, player.id, "en", at, at + 60)
        assert storm is not None
        for number in range(solved):
            assert await stores.storms.play_hand(storm.id, 1000 + number)
            assert await stores.storms.hand_done(storm.id, 1000 + number, True, False, BONUS)
        assert await stores.storms.end_storm(storm.id, "over", at + 60, periods_of(at))
    await services.people.remember(HERS, ANN)
    await services.people.remember(HIS, BEN)
    today = await stores.storms.board(day_key(clock.now), 10)
    assert [(row.name, row.solved) for row in today] == [("Ben", 6), ("Ann", 4)]
    season = await stores.storms.board(season_key(clock.now), 10)
    assert [(row.name, row.solved) for row in season] == [("Ann", 9), ("Ben", 6)]
    # a group's board: its own players' (Ann plays there, Ben does not)
    played = await services.rounds.play(GROUP, ANN, "24")
    assert isinstance(played, Dealt)
    await solve_hand(services, GROUP, ANN)
    mine = await stores.storms.board(season_key(clock.now), 10, GROUP.id)
    assert [(row.name, row.solved) for row in mine] == [("Ann", 9)]
    said = await services.storms.start(GROUP, BEN)
    assert "1. Ann — 4" in said.text and "1. Ann — 9" in said.text and "Ben" not in said.text
    assert await stores.storms.best_storm(ANN.id, day_key(clock.now)) == 4
    assert await stores.storms.best_storm(ANN.id, season_key(clock.now)) == 9


async def test_a_hand_counts_once_and_a_storm_ends_once(stores):
    storm = await stores.storms.open_storm(ANN.id, ANN.id, "en", 1.0, 61.0)
    assert storm is not None
    assert await stores.storms.play_hand(storm.id, 7)
    assert not await stores.storms.play_hand(storm.id, 8)  # one hand in play at a time
    assert await stores.storms.hand_done(storm.id, 7, True, False, BONUS)
    assert not await stores.storms.hand_done(storm.id, 7, True, False, BONUS)  # said again
    assert await stores.storms.open_storm(ANN.id, ANN.id, "en", 2.0, 62.0) is None  # one on
    on = await stores.storms.storm_on(ANN.id)
    assert on is not None and on.solved == 1 and on.ends_at == pytest.approx(61.0 + BONUS)
    assert await stores.storms.end_storm(storm.id, "over", 3.0, periods_of(1.0))
    assert not await stores.storms.end_storm(storm.id, "stopped", 4.0, periods_of(1.0))
    assert await stores.storms.best_storm(ANN.id, day_key(1.0)) == 1
    assert await stores.storms.best_storm(ANN.id, day_key(86400.0)) == 0  # another day
    # a worse storm the same day leaves the best; a better one takes its place
    for at, solved, best in ((100.0, 0, 1), (200.0, 3, 3), (300.0, 2, 3)):
        later = await stores.storms.open_storm(ANN.id, ANN.id, "en", at, at + 60)
        assert later is not None
        for number in range(solved):
            assert await stores.storms.play_hand(later.id, 2000 + number)
            assert await stores.storms.hand_done(later.id, 2000 + number, True, False, 0.0)
        assert await stores.storms.end_storm(later.id, "over", at + 60, periods_of(at))
        assert await stores.storms.best_storm(ANN.id, season_key(at)) == best


async def test_forget_erases_every_storm(wired, stores, clock):
    services, scheduler = wired
    await started(services)
    await solve_hand(services)
    await services.community.privacy.forget(ANN.id)
    await services.community.privacy.erased()
    assert await stores.storms.storm_on(ANN.id) is None
    assert await stores.storms.best_storm(ANN.id, season_key(clock.now)) == 0
    assert await stores.storms.board(season_key(clock.now), 10) == []
    clock.now += PAUSE
    for alarm in scheduler.due():
        await services.alarms.ring(alarm)
    assert services.rounds.open_round(HERS.id) is None


async def test_a_storms_hand_is_live_while_it_is_played(wired, clock):
    """The live-hand rule covers a solo hand: /solve of it is refused until its round ends."""
    services, scheduler = wired
    dealt = await started(services)
    hand, target = dealt.round.hand, dealt.round.target
    assert await services.solving.live_now(hand, target)
    await solve_hand(services)
    assert not await services.solving.live_now(hand, target)
    following = await next_hand(services, scheduler, clock)
    assert isinstance(following, Dealt)
    assert await services.solving.live_now(following.round.hand, following.round.target)


async def test_stats_say_the_best_storm_of_the_season_in_every_chat(stores, pool, clock):
    services, _ = build(stores, pool, clock, seconds=PENALTY - BONUS + 3)
    assert "Best storm" not in await services.community.standings.stats(HERS, ANN)
    await started(services)
    await solve_hand(services)  # 1 solved, the clock +5 s
    assert "Best storm" not in await services.community.standings.stats(HERS, ANN)  # still on
    await services.storms.deal_next(HERS.id)
    ended = await services.rounds.reveal(HERS, ANN)  # −10 s: too little left, over
    assert isinstance(ended, Closed) and "Storm over. Solved: 1, missed: 1." in ended.text
    for where in (HERS, GROUP):
        said = await services.community.standings.stats(where, ANN)
        assert "⛈ Best storm this season: 1 (hands solved against the clock, /storm)." in said
    assert "Best storm" not in await services.community.standings.stats(HIS, BEN)
