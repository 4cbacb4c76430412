"""Match mode without Telegram: rounds in a row, scoreboards, the podium, stop, restart."""

from __future__ import annotations

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.matches.matches import DEFAULT_ROUNDS
from bot.play.outcomes import Closed, Dealt, Edited, Said
from bot.play.ports import NEXT_DEAL, WARNING
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.records import Round
from bot.store.stores import Stores
from bot.telegram.grammar import parse_match
from solver import solve
from tests.bot.conftest import Clock, FakeScheduler, new_services

GROUP = Chat(-42, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
LI = Player(3, "李", language_code="zh-hans")
PAUSE = 5.0  # between a round's end and the next deal, in these tests


async def admin() -> bool:
    return True


async def not_admin() -> bool:
    return False


def build(stores: Stores, pool: SolverPool, clock: Clock, seed: int = 1
          ) -> tuple[Services, FakeScheduler]:
    return new_services(stores, pool, clock, seed=seed, seconds={"24": 60}, pause=PAUSE)


@pytest.fixture
def wired(stores: Stores, pool: SolverPool, clock: Clock) -> tuple[Services, FakeScheduler]:
    """The `services` and `scheduler` fixtures of these tests: 60 s rounds, a 5 s pause."""
    return build(stores, pool, clock)


async def restart(stores: Stores, pool: SolverPool, clock: Clock
                  ) -> tuple[Services, FakeScheduler]:
    """New services over the same database, as after a restart; the rounds resumed first (what
    a restart owes is worked out; the matches' own resume is the test's to call)."""
    again, scheduler = build(stores, pool, clock, seed=2)
    await again.recovery.owed()
    return again, scheduler


def shown_last(services: Services) -> object:
    """What play showed last (through the test's fake publisher)."""
    return services.outbox.publisher.shown[-1][0]  # type: ignore[attr-defined]


async def deal_next(services: Services, scheduler: FakeScheduler) -> Dealt | Said | None:
    """The match's next-deal alarm rings: it leaves the scheduler (as a job that ran leaves the
    job queue), and the match deals."""
    scheduler.cancel(NEXT_DEAL, GROUP.id)
    return await services.matches.deal_next(GROUP.id)


def warnings(scheduler: FakeScheduler) -> dict[int, int | None]:
    """The "30 s left" notices set: chat id -> round id."""
    return {alarm.chat_id: alarm.round_id for (alarm, _) in scheduler.alarms.values()
            if alarm.kind == WARNING}


async def win(services: Services, player: Player) -> Closed:
    """The player wins the round on: its result, with the match's step (a scoreboard or the
    podium) under its head."""
    current = services.rounds.open_round(GROUP.id)
    assert current is not None
    won = await services.rounds.answer(GROUP, player, solve(current.hand)[0], explicit=True)
    assert isinstance(won, Closed) and won.round.id == current.id
    return won


def test_parse_match():
    assert parse_match("") == DEFAULT_ROUNDS == 10
    assert parse_match(" 2 ") == 2 and parse_match("20") == 20
    assert parse_match("stop") == "stop" and parse_match("STOP") == "stop"
    # every script's digits, as every number the bot reads (issue 55: /match ۲۰ was refused)
    assert parse_match("５") == 5 and parse_match("۲۰") == 20 and parse_match("१०") == 10
    for bad in ("1", "21", "0", "ten", "-3", "２１", "3 4", "2.5"):
        assert parse_match(bad) is None, bad


async def test_a_match_from_first_deal_to_podium(services: Services, scheduler: FakeScheduler,
                                                 clock: Clock):
    matches = services.matches
    first = await matches.start(GROUP, ANN, 3)
    assert isinstance(first, Dealt) and "Match: round 1 of 3" in first.text
    assert "Make <b>24</b>" in first.text  # an ordinary round of 24, numbered
    won = await win(services, BEN)
    played, step = won.round, won.head
    assert scheduler.when(NEXT_DEAL, GROUP.id) == 5.0
    assert "Scores after round 1 of 3" in step and "1. Ben" in step
    assert f"{played.points} points, 1 win" in step and "Next round in 5 s" in step
    assert await deal_next(services, scheduler) is not None
    assert await deal_next(services, scheduler) is None  # one round at a time

    second = services.rounds.open_round(GROUP.id)
    assert second is not None and second.started_by == ANN.id  # dealt for the match's starter
    clock.now += 61
    expired = await services.rounds.expire(second.id)
    assert expired is not None and "Scores after round 2 of 3" in expired.head
    third = await deal_next(services, scheduler)
    assert third is not None and "round 3 of 3" in third.text
    ended = await win(services, ANN)
    last = ended.round
    assert scheduler.pending(NEXT_DEAL, GROUP.id) is None
    assert "Match over: 3 of 3 rounds played" in ended.head
    assert "again" in ended.actions  # the match is over: Play again is back
    podium = ended.head[ended.head.index("Match over"):]
    lines = podium.splitlines()
    assert {lines[1][0], lines[2][0]} == {"🥇", "🥈"}
    best = max((played.points, "Ben"), (last.points, "Ann"), key=lambda p: p[0])
    if played.points != last.points:
        assert best[1] in lines[1]
    else:  # a tie goes to whoever got there first
        assert "Ben" in lines[1]
    assert not await matches.is_on(GROUP.id)  # the match is over
    assert await deal_next(services, scheduler) is None
    assert "No match is on" in (await matches.stop(GROUP, ANN)).text


async def test_one_match_at_a_time_and_not_over_a_round(services: Services):
    await services.rounds.play(GROUP, BEN, "24")
    refused = await services.matches.start(GROUP, ANN, 5)
    assert not isinstance(refused, Dealt) and "finish it" in refused.text
    await services.rounds.reveal(GROUP, BEN)
    assert (await services.matches.start(GROUP, ANN, 5)).round is not None
    again = await services.matches.start(GROUP, BEN, 5)
    assert not isinstance(again, Dealt) and "A match is on here (round 1 of 5)" in again.text


async def test_a_round_outside_the_match_delays_the_next(services: Services,
                                                         scheduler: FakeScheduler):
    await services.matches.start(GROUP, ANN, 2)
    first = await win(services, BEN)
    assert "again" not in first.actions  # a match deals the next round itself
    # a player's /play in the pause is the match's (tests/bot/play/matches/test_match_pause.py);
    # a round dealt there all the same (as a tournament's deal is) holds the match back
    other = await services.rounds.deal(GROUP, BEN, "countdown")
    assert isinstance(other, Dealt)
    assert await deal_next(services, scheduler) is None
    revealed = await services.rounds.reveal(GROUP, BEN)
    assert isinstance(revealed, Closed) and "Scores" not in revealed.head
    assert scheduler.when(NEXT_DEAL, GROUP.id) == 5.0
    second = await deal_next(services, scheduler)
    assert second is not None and "round 2 of 2" in second.text


async def test_stop_is_for_the_starter_or_an_admin(services: Services, scheduler: FakeScheduler):
    await services.matches.start(GROUP, ANN, 4)
    refused = await services.matches.stop(GROUP, BEN, not_admin)
    assert "Only <b>Ann</b> (who started it) or a chat admin" in refused.text
    assert services.rounds.open_round(GROUP.id) is not None
    stopped = await services.matches.stop(GROUP, BEN, admin)
    assert isinstance(stopped, Closed) and stopped.round.id is not None
    assert "Ended early" in stopped.text and "Match stopped after 1 of 4 rounds" in stopped.text
    assert services.rounds.open_round(GROUP.id) is None
    assert await deal_next(services, scheduler) is None


async def test_the_starter_stops_between_rounds(services: Services):
    await services.matches.start(GROUP, ANN, 4)
    await win(services, BEN)
    stopped = await services.matches.stop(GROUP, ANN, not_admin)
    assert not isinstance(stopped, Closed) and "Match stopped after 1 of 4 rounds" in stopped.text
    assert "🥇 Ben — " in stopped.text


async def test_stopped_in_its_last_round_it_was_played_to_the_end(services: Services,
                                                                  scheduler: FakeScheduler):
    """/match stop in round 2 of 2 ends a match every round of which was played: it says so,
    not "stopped after 2 of 2" (issue 73); stopped in round 1 of 2, it was stopped."""
    await services.matches.start(GROUP, ANN, 2)
    await win(services, BEN)
    second = await deal_next(services, scheduler)
    assert second is not None and "round 2 of 2" in second.text
    stopped = await services.matches.stop(GROUP, ANN, not_admin)
    assert isinstance(stopped, Closed) and "Match over: 2 of 2 rounds played" in stopped.text
    assert "stopped" not in stopped.text


async def test_the_notice_before_the_end(services: Services, clock: Clock):
    matches = services.matches
    first = await matches.start(GROUP, ANN, 2)
    current = first.round
    assert current is not None
    assert matches.warning_delay(current) == 30.0  # 60 s rounds: at 30 s left
    short = Round(9, GROUP.id, "24", (1, 2, 3, 4), 24, "easy", 10, "en", None, 0.0, 4.0, "open",
                  False)
    assert matches.warning_delay(short) == 2.0  # short rounds: halfway
    clock.now += 30
    notice = await matches.warning(GROUP.id, current.id)
    assert notice is not None and isinstance(notice, Edited) and notice.round.id == current.id
    assert notice.text.startswith(first.text) and notice.text.endswith("⏳ 30 s left.")
    await win(services, BEN)
    assert await matches.warning(GROUP.id, current.id) is None  # over: no notice


async def test_a_match_resumes_after_a_restart(services: Services, stores: Stores,
                                               pool: SolverPool, clock: Clock):
    await services.matches.start(GROUP, ANN, 3)
    running = services.rounds.open_round(GROUP.id)
    again, alarms = await restart(stores, pool, clock)  # mid-round: the round goes on
    said = await again.matches.resume()
    assert warnings(alarms) == {GROUP.id: running.id} and said == []  # its notice set again

    played = (await win(again, BEN)).round  # the bot stops before the next deal
    third, alarms = await restart(stores, pool, clock)
    said = await third.matches.resume()
    assert warnings(alarms) == {} and len(said) == 1
    (chat_id, topic), step = said[0]
    assert (chat_id, topic) == (GROUP.id, 0) and alarms.when(NEXT_DEAL, GROUP.id) == 5.0
    assert "round 2 of 3 is next" in step and "Ben" in step
    second = await deal_next(third, alarms)
    assert second is not None and "round 2 of 3" in second.text
    assert isinstance(second, Dealt) and second.round.id != played.id


async def test_a_finished_match_ends_on_resume(services: Services, scheduler: FakeScheduler,
                                               stores: Stores, pool: SolverPool, clock: Clock):
    await services.matches.start(GROUP, ANN, 2)
    await win(services, BEN)
    await deal_next(services, scheduler)
    second = services.rounds.open_round(GROUP.id)
    clock.now += 120  # runs out while the bot is down
    again, alarms = await restart(stores, pool, clock)
    assert again.rounds.open_round(GROUP.id) is None and second is not None
    said = await again.matches.resume()
    assert warnings(alarms) == {} and len(said) == 1
    assert alarms.pending(NEXT_DEAL, GROUP.id) is None
    assert "Match over: 2 of 2 rounds played" in said[0][1]


async def test_the_match_speaks_the_chats_language(services: Services, scheduler: FakeScheduler):
    """Its deals are in the language it began in; a scoreboard rides on a result, in the
    result's language (a message is in one language: Ben's win, in English)."""
    first = await services.matches.start(GROUP, LI, 2)
    assert "比赛：第 1 局，共 2 局" in first.text
    step = (await win(services, BEN)).head
    assert "Scores after round 1 of 2" in step and "比分" not in step
    nxt = await deal_next(services, scheduler)
    assert nxt is not None and "第 2 局" in nxt.text


async def test_a_match_follows_its_group_into_a_supergroup(services: Services, stores: Stores):
    started = await services.matches.start(GROUP, ANN, 2)
    assert isinstance(started, Dealt)
    await services.outbox.deal_sent(started.round.id, 502)  # sent
    await services.places.migrate(GROUP.id, -100042)
    again = shown_last(services)
    assert isinstance(again, Dealt) and again.round.message_id is None  # shown again there
    moved = again.round
    assert await stores.matches.match_on(GROUP.id) is None
    match = await stores.matches.match_on(-100042)
    assert match is not None and [r.round_id for r in
                                  await stores.matches.match_rounds(match.id)] == [moved.id]


async def test_the_matchs_alarms_follow_its_group_into_a_supergroup(
        services: Services, scheduler: FakeScheduler):
    """The round's end, its "30 s left" notice and, between rounds, the next deal all move to
    the supergroup's id; nothing is left ringing for the old one."""
    started = await services.matches.start(GROUP, ANN, 3)
    assert isinstance(started, Dealt)
    await services.outbox.deal_sent(started.round.id, 503)  # sent
    new_id = -100043
    await services.places.migrate(GROUP.id, new_id)
    again = shown_last(services)
    assert isinstance(again, Dealt) and again.round.message_id is None  # shown again there
    moved = again.round
    assert {chat for _, chat, _ in scheduler.alarms} == {new_id}
    assert scheduler.pending(WARNING, new_id).round_id == moved.id  # type: ignore[union-attr]
    said = await services.rounds.reveal(Chat(new_id, "supergroup", "G"), ANN)
    assert isinstance(said, Closed) and "Scores after round 1 of 3" in said.head
    assert scheduler.when(NEXT_DEAL, new_id) == PAUSE
    services.matches.follow_chat(new_id, -100044, None)
    assert scheduler.pending(NEXT_DEAL, new_id) is None
    assert scheduler.when(NEXT_DEAL, -100044) == PAUSE
