"""The round service without Telegram: rounds of each game, winners, hints, timers, restarts."""

from __future__ import annotations

import asyncio
import random
from functools import partial

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Closed, Dealt, Edited, Said
from bot.play.ports import ROUND_END
from bot.play.round.showing import hint_points
from bot.play.rules import PlayOptions
from bot.play.services import Services
from bot.play.solving.solving import Solving
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from bot.telegram.grammar import SolveRequest
from solver import solve
from solver.countdown import solve_countdown
from solver.yahtzee import best_assignment
from tests.bot.conftest import Clock, FakeScheduler, new_services

GROUP = Chat(-42, "group", "G")
OTHER = Chat(-43, "group", "H")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
LI = Player(3, "李", language_code="zh-hans")


async def admin() -> bool:
    """The speaker is a chat admin (what the handlers ask Telegram)."""
    return True


async def load(services: Services) -> None:
    """Read the chats' languages and the open rounds into memory, as at start-up."""
    await services.people.load()
    services.table.load(await services.rounds.store.open_rounds())


async def restart(stores: Stores, pool: SolverPool, clock: Clock
                  ) -> tuple[Services, FakeScheduler]:
    """New services over the same database, as after a restart of the bot."""
    again, scheduler = new_services(stores, pool, clock, seed=2)
    await load(again)
    return again, scheduler


def running(scheduler: FakeScheduler) -> dict[int, int | None]:
    """The rounds whose end alarm is set: chat id -> round id."""
    return {alarm.chat_id: alarm.round_id for (alarm, _) in scheduler.alarms.values()
            if alarm.kind == ROUND_END}


async def test_round_win_and_streak(services: Services, clock: Clock):
    dealt = await services.rounds.play(GROUP, ANN, "24")
    assert isinstance(dealt, Dealt)
    hand = dealt.round.hand
    again = await services.rounds.play(GROUP, BEN, "24")
    assert not isinstance(again, Dealt) and "A round of 24 is on" in again.text
    clock.now += 12.5
    won = await services.rounds.answer(GROUP, BEN, solve(hand)[0], explicit=True)
    assert isinstance(won, Closed) and "Ben" in won.text and "12.5 s" in won.text
    late = await services.rounds.answer(GROUP, ANN, "1+1", explicit=True)
    assert late is not None and "over already" in late.text
    stats = await services.community.standings.stats(GROUP, BEN)
    assert "1 win in 1 round" in stats and "Streak: 1" in stats


async def test_answer_is_judged_with_the_reason(services: Services):
    dealt = await services.rounds.play(GROUP, ANN, "24")
    a, b, c, d = dealt.round.hand
    zh = await services.rounds.answer(GROUP, LI, f"{a}+{b}", explicit=True)
    assert isinstance(zh, Said) and "漏掉了" in zh.text  # no deal sent to edit: in words
    await services.outbox.deal_sent(dealt.round.id, 77)
    wrong = await services.rounds.answer(GROUP, BEN, f"{a}+{b}", explicit=True)
    assert isinstance(wrong, Edited) and "leaves out" in wrong.notice  # where it can't edit
    assert wrong.text.endswith(f"👎 Ben: <code>{a}+{b}</code> skips {c} and {d}")  # status
    assert await services.rounds.answer(GROUP, BEN, "nice weather", explicit=False) is None


async def test_hint_then_win_gives_fewer_points(services: Services):
    dealt = await services.rounds.play(GROUP, ANN, "24", PlayOptions(level="hard"))
    points = dealt.round.points
    assert points == 30
    hint = await services.rounds.hint(GROUP, ANN)
    assert f"(now worth {hint_points(points)} points)" in hint.text and isinstance(hint, Edited)
    await services.rounds.hint(GROUP, ANN)  # a second hint costs nothing more
    won = await services.rounds.answer(GROUP, ANN, solve(dealt.round.hand)[0], True)
    assert won is not None and f"+{hint_points(points)} points" in won.text


async def test_timer_expiry_reveals_once(services: Services):
    dealt = await services.rounds.play(GROUP, ANN, "24")
    closed = await services.rounds.expire(dealt.round.id)
    assert closed is not None and closed.round.id == dealt.round.id and "Time is up" in closed.text
    assert f"{len(solve(dealt.round.hand))} distinct solution" in closed.text
    assert await services.rounds.expire(dealt.round.id) is None
    assert services.rounds.open_round(GROUP.id) is None


async def test_resume_after_restart(services: Services, stores: Stores, pool: SolverPool,
                                    clock: Clock):
    dealt = [await services.rounds.play(GROUP, ANN, "24"),
             await services.rounds.play(OTHER, ANN, "countdown")]
    for message_id, deal in enumerate(dealt, 500):
        assert isinstance(deal, Dealt)
        await services.outbox.deal_sent(deal.round.id, message_id)  # sent (else shown again)
    first, second = (deal.round for deal in dealt)
    clock.now += 30
    again, scheduler = await restart(stores, pool, clock)
    expired = await again.recovery.resume()
    assert running(scheduler) == {GROUP.id: first.id, OTHER.id: second.id} and not expired
    clock.now += 31
    again, scheduler = await restart(stores, pool, clock)
    expired = await again.recovery.resume()
    assert not running(scheduler) and {e.round.chat_id for e in expired} == {GROUP.id, OTHER.id}
    assert again.rounds.open_round(GROUP.id) is None
    assert (await stores.rounds.open_rounds()) == []


async def test_other_targets_and_more_numbers(services: Services):
    dealt = await services.rounds.play(GROUP, ANN, "24", PlayOptions(count=5, target=36))
    assert isinstance(dealt, Dealt) and len(dealt.round.hand) == 5 and dealt.round.target == 36
    assert "Make <b>36</b>" in dealt.text
    won = await services.rounds.answer(GROUP, ANN, solve(dealt.round.hand, 36)[0], True)
    assert isinstance(won, Closed)


async def dealt_by_hand(services: Services, stores: Stores, chat: Chat, kind: str, hand: tuple,
                        target: int):
    """A round with a known puzzle, stored as a deal would store it, then loaded."""
    await stores.people.remember_chat(chat.id, chat.type, chat.title)
    now = services.rounds.clock()
    made = await stores.rounds.open_round(chat.id, kind, hand, target, "", 10, "en", now,
                                          now + 60)
    await load(services)
    return made


async def test_countdown_closest_answer_wins_at_the_end(services: Services, stores: Stores,
                                                       clock: Clock):
    round_ = await dealt_by_hand(services, stores, GROUP, "countdown", (1, 3, 7, 10, 25, 50),
                                 831)
    ann = await services.rounds.answer(GROUP, ANN, "10*(3*25+1+7)", explicit=True)
    assert ann is not None and not isinstance(ann, Closed) and "1 away" in ann.text
    clock.now += 5
    # as close, but later
    ben = await services.rounds.answer(GROUP, BEN, "(1+7+3*25)*10", explicit=True)
    assert ben is not None and not isinstance(ben, Closed)
    far = await services.rounds.answer(GROUP, LI, "50*10", explicit=True)
    assert far is not None and "331" in far.text
    closed = await services.rounds.expire(round_.id)
    assert closed is not None and "Ann" in closed.text and "+7 points" in closed.text
    assert "the closest is <b>830</b>" in closed.text
    assert "7 points, 1 win in 1 round" in await services.community.standings.stats(GROUP, ANN)
    assert "0 points, 0 wins in 1 round" in await services.community.standings.stats(GROUP, BEN)


async def test_countdown_nobody_close(services: Services, stores: Stores, clock: Clock):
    round_ = await dealt_by_hand(services, stores, GROUP, "countdown", (1, 3, 7, 10, 25, 50),
                                 831)
    await services.rounds.answer(GROUP, ANN, "50*10", explicit=True)
    clock.now += 61  # time is up, the timer has not fired yet
    closed = await services.rounds.reveal(GROUP, BEN, admin)
    assert isinstance(closed, Closed) and "Nobody came within 10" in closed.text
    assert (await stores.rounds.get_round(round_.id)).status == "revealed"
    assert "0 wins in 1 round" in await services.community.standings.stats(GROUP, ANN)


async def test_countdown_exact_answer_ends_the_round(services: Services):
    for seed in range(50):
        services.rounds.dealer.stock.seed = partial(random.Random(seed).getrandbits, 64)
        dealt = await services.rounds.play(GROUP, ANN, "countdown")
        round_ = dealt.round
        assert round_ is not None
        best = solve_countdown(round_.hand, round_.target)
        if best.exact:
            break
        await services.rounds.reveal(GROUP, ANN)
    else:
        pytest.fail("no exact Countdown hand in 50 deals")
    won = await services.rounds.answer(GROUP, BEN, best.expression or "", explicit=True)
    assert isinstance(won, Closed) and "+10 points" in won.text
    assert services.rounds.open_round(GROUP.id) is None


async def test_yahtzee_round(services: Services):
    dealt = await services.rounds.play(GROUP, ANN, "yahtzee")
    round_ = dealt.round
    assert round_ is not None and len(round_.hand) == 13 and "⚀" in dealt.text + "⚀"
    total = best_assignment(round_.hand).total
    wrong = await services.rounds.answer(GROUP, BEN, str(total - 1), explicit=False)
    assert wrong is not None and wrong.reaction == "✍" and "more" not in wrong.text
    assert (await services.rounds.hint(GROUP, BEN)).text == "No hints in this game."
    won = await services.rounds.answer(GROUP, ANN, str(total), explicit=True)
    assert isinstance(won, Closed) and f"The best total is <b>{total}</b>" in won.text
    assert "<pre>" in won.text and "full house" in won.text


async def test_languages(services: Services, stores: Stores, pool: SolverPool, clock: Clock):
    assert "I don't speak <code>nl</code>" in await services.people.set_language(GROUP, ANN,
                                                                                 "nl")
    assert "Usage: /lang" in await services.people.set_language(GROUP, ANN, "")
    assert "中文" in await services.people.set_language(GROUP, ANN, "zh", admin)
    # Ann speaks English, the chat chose Chinese
    dealt = await services.rounds.play(GROUP, ANN, "24")
    assert "算出" in dealt.text
    closed = await services.rounds.expire(dealt.round.id)
    assert closed is not None and "时间到" in closed.text
    again, _ = await restart(stores, pool, clock)  # the choice is stored
    assert "还没有" in await again.community.standings.stats(GROUP, ANN)


async def test_leaderboards_per_game(services: Services):
    for chat, player, kind in ((GROUP, ANN, "24"), (OTHER, BEN, "24"), (OTHER, BEN, "yahtzee")):
        dealt = await services.rounds.play(chat, player, kind)
        round_ = dealt.round
        answer = solve(round_.hand)[0] if kind == "24" else str(round_.target)
        assert isinstance(await services.rounds.answer(chat, player, answer, True), Closed)
    top = services.community.standings.top
    top_here = await top(OTHER, BEN, everywhere=False)
    assert "Ben" in top_here and "Ann" not in top_here
    assert "Ann" in await top(OTHER, BEN, everywhere=True)
    assert "Ann" not in await top(OTHER, BEN, everywhere=True, game="yahtzee")
    stats = await services.community.standings.stats(OTHER, BEN)
    assert "24:" in stats and "Yahtzee:" in stats and "All games:" in stats


async def test_chat_migration_moves_the_open_round(services: Services):
    dealt = await services.rounds.play(GROUP, ANN, "24")
    assert isinstance(dealt, Dealt)
    await services.outbox.deal_sent(dealt.round.id, 501)  # sent
    await services.places.migrate(GROUP.id, -100777)
    again = services.outbox.publisher.shown[-1][0]  # type: ignore[attr-defined]
    assert isinstance(again, Dealt) and again.round.message_id is None  # shown again there
    moved = again.round
    assert moved.id == dealt.round.id and moved.chat_id == -100777
    assert services.rounds.open_round(GROUP.id) is None
    won = await services.rounds.answer(Chat(-100777, "supergroup"), ANN, solve(moved.hand)[0],
                                        True)
    assert isinstance(won, Closed)


async def test_solving_service(pool: SolverPool):
    from bot.text.i18n import Texts

    solving = Solving(pool, timeout=30)
    texts = Texts("en")
    assert "8÷(3−8÷3)" in await solving.solve(SolveRequest((3, 8, 3, 8), 24), texts)
    assert "No solution" in await solving.solve(SolveRequest((1, 1, 1, 1), 24), texts)
    closest = await solving.solve(SolveRequest((1, 3, 7, 10, 25, 50), 831, True), texts)
    assert "<b>830</b>" in closest
    found = await solving.inline(SolveRequest((1, 2, 3, 4), 24), texts)
    assert len(found.answers) == 3 and len({a.id for a in found.answers}) == 3
    assert not found.cacheable  # a hand a round may deal: Telegram must not keep it
    assert (await solving.inline(SolveRequest((45, 1, 2, 8), 24), texts)).cacheable  # 45
    assert (await solving.inline(None, texts)).answers[0].id == "usage"


async def test_slow_solve_is_stopped_and_the_pool_recovers():
    from bot.text.i18n import Texts

    own = SolverPool(1)
    try:
        slow = Solving(own, timeout=0.05)
        text = await slow.solve(SolveRequest((1, 2, 3, 4, 5, 6), 24), Texts("en"))
        assert "took more than" in text
        quick = Solving(own, timeout=30)
        assert "8÷(3−8÷3)" in await quick.solve(SolveRequest((3, 8, 3, 8), 24), Texts("en"))
    finally:
        own.shutdown()


@pytest.mark.parametrize("workers", [1, 2])
async def test_a_timeout_does_not_take_down_other_work(workers):
    """A stopped /solve restarts the pool; work queued or running beside it runs again."""
    import asyncio

    from bot.play.games.twentyfour.rules import solutions
    from bot.runtime.pool import SolverTimeout

    own = SolverPool(workers)
    try:
        await own.warm_up()
        # seven numbers take the core a third of a second or more: never done in 0.05 s
        slow = asyncio.create_task(own.run_heavy(solutions, (1, 2, 3, 4, 5, 6, 7), 24,
                                                 timeout=0.05))
        other = asyncio.create_task(own.run_heavy(solutions, (1, 2, 3, 4, 5, 6), 24))
        with pytest.raises(SolverTimeout):
            await slow
        assert await other == solve([1, 2, 3, 4, 5, 6])
    finally:
        own.shutdown()


async def test_a_round_whose_alarm_never_rang_is_ended_by_the_sweep(
        services: Services, scheduler: FakeScheduler, clock: Clock):
    """A stall past a round's end (a paused process, a lost job): the sweep ends it, once."""
    dealt = await services.rounds.play(GROUP, ANN, "24")
    assert isinstance(dealt, Dealt)
    scheduler.alarms.clear()  # the alarm never rings
    clock.now += 60.5  # the deadline, within the alarm's grace: not yet the sweep's
    assert await services.rounds.overdue() == []
    clock.now += 1
    [ended] = await services.rounds.overdue()
    assert ended.round.id == dealt.round.id and "Time is up" in ended.text
    assert await services.rounds.overdue() == [] and services.rounds.open_round(GROUP.id) is None


async def test_one_rare_deal_in_the_making_per_person(services: Services):
    """A rare kind's first hand is made in its asker's turn; a second rare /play of theirs
    meanwhile (in another chat) is told it is still being made, not queued as well."""
    rare = PlayOptions(count=6, target=997)
    both = await asyncio.gather(services.rounds.play(GROUP, ANN, "24", rare),
                                services.rounds.play(OTHER, ANN, "24", rare))
    # whichever reached the dealer first (each reads its chat's words on the way) makes it
    [first] = [outcome for outcome in both if isinstance(outcome, Dealt)]
    [second] = [outcome for outcome in both if isinstance(outcome, Said)]
    assert first.round.target == 997 and "still being made" in second.text
    other = OTHER if first.round.chat_id == GROUP.id else GROUP
    again = await services.rounds.play(other, ANN, "24", rare)  # once it is made: dealt
    assert isinstance(again, Dealt)
