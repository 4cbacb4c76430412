"""The round service without Telegram: rounds of each game, winners, hints, timers, restarts."""

from __future__ import annotations

import random

import pytest

from bot.play.games import PlayOptions
from bot.play.requests import SolveRequest
from bot.play.rounds import Chat, Game, Player, hint_points
from bot.play.solving import Solving
from bot.runtime.pool import SolverPool
from solver import solve
from solver.countdown import solve_countdown
from solver.yahtzee import best_assignment

GROUP = Chat(-42, "group", "G")
OTHER = Chat(-43, "group", "H")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
LI = Player(3, "李", language_code="zh-hans")


async def admin() -> bool:
    """The speaker is a chat admin (what the handlers ask Telegram)."""
    return True


async def restart(game: Game) -> Game:
    """A new service over the same database, as after a restart of the bot."""
    again = Game(game.storage, game.pool, game.seconds, clock=game.clock, rng=random.Random(2))
    await again.load()
    return again


async def test_round_win_and_streak(game: Game):
    dealt = await game.play(GROUP, ANN, "24")
    assert dealt.dealt is not None
    hand = dealt.dealt.hand
    again = await game.play(GROUP, BEN, "24")
    assert again.dealt is None and "A round of 24 is on" in again.text
    game.clock.now += 12.5
    won = await game.answer(GROUP, BEN, solve(hand)[0], explicit=True)
    assert won is not None and won.closed and "Ben" in won.text and "12.5 s" in won.text
    late = await game.answer(GROUP, ANN, "1+1", explicit=True)
    assert late is not None and "over already" in late.text
    stats = await game.stats(GROUP, BEN)
    assert "1 win in 1 round" in stats and "Streak: 1" in stats


async def test_answer_is_judged_with_the_reason(game: Game):
    dealt = await game.play(GROUP, ANN, "24")
    a, b, *_ = dealt.dealt.hand
    wrong = await game.answer(GROUP, BEN, f"{a}+{b}", explicit=True)
    assert wrong is not None and not wrong.closed and "leaves out" in wrong.text
    zh = await game.answer(GROUP, LI, f"{a}+{b}", explicit=True)
    assert zh is not None and "漏掉了" in zh.text  # the speaker's language
    assert await game.answer(GROUP, BEN, "nice weather", explicit=False) is None


async def test_hint_then_win_gives_fewer_points(game: Game):
    dealt = await game.play(GROUP, ANN, "24", PlayOptions(level="hard"))
    points = dealt.dealt.points
    assert points == 30
    hint = await game.hint(GROUP, ANN)
    assert f"Points now {hint_points(points)}" in hint
    await game.hint(GROUP, ANN)  # a second hint costs nothing more
    won = await game.answer(GROUP, ANN, solve(dealt.dealt.hand)[0], True)
    assert won is not None and f"+{hint_points(points)} points" in won.text


async def test_timer_expiry_reveals_once(game: Game):
    dealt = await game.play(GROUP, ANN, "24")
    closed = await game.expire(dealt.dealt.id)
    assert closed is not None and closed[0] == GROUP.id and "Time is up" in closed[1]
    assert f"{len(solve(dealt.dealt.hand))} distinct solution" in closed[1]
    assert await game.expire(dealt.dealt.id) is None
    assert game.open_round(GROUP.id) is None


async def test_resume_after_restart(game: Game):
    await game.play(GROUP, ANN, "24")
    await game.play(OTHER, ANN, "countdown")
    game.clock.now += 30
    again = await restart(game)
    running, expired = await again.resume()
    assert {r.chat_id for r in running} == {GROUP.id, OTHER.id} and not expired
    game.clock.now += 31
    again = await restart(game)
    running, expired = await again.resume()
    assert not running and {e.chat_id for e in expired} == {GROUP.id, OTHER.id}
    assert again.open_round(GROUP.id) is None
    assert (await again.storage.open_rounds()) == []


async def test_other_targets_and_more_numbers(game: Game):
    dealt = await game.play(GROUP, ANN, "24", PlayOptions(count=5, target=36))
    assert dealt.dealt is not None and len(dealt.dealt.hand) == 5 and dealt.dealt.target == 36
    assert "Make <b>36</b>" in dealt.text
    won = await game.answer(GROUP, ANN, solve(dealt.dealt.hand, 36)[0], True)
    assert won is not None and won.closed


async def dealt_by_hand(game: Game, chat: Chat, kind: str, hand: tuple, target: int):
    """A round with a known puzzle, stored as a deal would store it, then loaded."""
    await game.storage.remember_chat(chat.id, chat.type, chat.title)
    now = game.clock()
    made = await game.storage.open_round(chat.id, kind, hand, target, "", 10, "en", now,
                                         now + 60)
    await game.load()
    return made


async def test_countdown_closest_answer_wins_at_the_end(game: Game):
    round_ = await dealt_by_hand(game, GROUP, "countdown", (1, 3, 7, 10, 25, 50), 831)
    ann = await game.answer(GROUP, ANN, "10*(3*25+1+7)", explicit=True)
    assert ann is not None and not ann.closed and "1 away" in ann.text
    game.clock.now += 5
    ben = await game.answer(GROUP, BEN, "(1+7+3*25)*10", explicit=True)  # as close, but later
    assert ben is not None and not ben.closed
    far = await game.answer(GROUP, LI, "50*10", explicit=True)
    assert far is not None and "331" in far.text
    closed = await game.expire(round_.id)
    assert closed is not None and "Ann" in closed[1] and "+7 points" in closed[1]
    assert "the closest is <b>830</b>" in closed[1]
    assert "7 points, 1 win in 1 round" in await game.stats(GROUP, ANN)
    assert "0 points, 0 wins in 1 round" in await game.stats(GROUP, BEN)


async def test_countdown_nobody_close(game: Game):
    round_ = await dealt_by_hand(game, GROUP, "countdown", (1, 3, 7, 10, 25, 50), 831)
    await game.answer(GROUP, ANN, "50*10", explicit=True)
    game.clock.now += 61  # time is up, the timer has not fired yet
    closed = await game.reveal(GROUP, BEN, admin)
    assert closed.closed and "Nobody came within 10" in closed.text
    assert (await game.storage.get_round(round_.id)).status == "revealed"
    assert "0 wins in 1 round" in await game.stats(GROUP, ANN)


async def test_countdown_exact_answer_ends_the_round(game: Game):
    for seed in range(50):
        game.rng = random.Random(seed)
        dealt = await game.play(GROUP, ANN, "countdown")
        round_ = dealt.dealt
        assert round_ is not None
        best = solve_countdown(round_.hand, round_.target)
        if best.exact:
            break
        await game.reveal(GROUP, ANN)
    else:
        pytest.fail("no exact Countdown hand in 50 deals")
    won = await game.answer(GROUP, BEN, best.expression or "", explicit=True)
    assert won is not None and won.closed and "+10 points" in won.text
    assert game.open_round(GROUP.id) is None


async def test_yahtzee_round(game: Game):
    dealt = await game.play(GROUP, ANN, "yahtzee")
    round_ = dealt.dealt
    assert round_ is not None and len(round_.hand) == 13 and "⚀" in dealt.text + "⚀"
    total = best_assignment(round_.hand).total
    wrong = await game.answer(GROUP, BEN, str(total - 1), explicit=False)
    assert wrong is not None and f"more than {total - 1}" in wrong.text
    assert await game.hint(GROUP, BEN) == "No hints in this game."
    won = await game.answer(GROUP, ANN, str(total), explicit=True)
    assert won is not None and won.closed and f"The best total is <b>{total}</b>" in won.text
    assert "<pre>" in won.text and "full house" in won.text


async def test_languages(game: Game):
    assert "Usage: /lang" in await game.set_language(GROUP, ANN, "fr")
    assert "中文" in await game.set_language(GROUP, ANN, "zh", admin)
    dealt = await game.play(GROUP, ANN, "24")  # Ann speaks English, the chat chose Chinese
    assert "算出" in dealt.text
    closed = await game.expire(dealt.dealt.id)
    assert closed is not None and "时间到" in closed[1]
    again = await restart(game)  # the choice is stored
    assert "还没有" in await again.stats(GROUP, ANN)


async def test_leaderboards_per_game(game: Game):
    for chat, player, kind in ((GROUP, ANN, "24"), (OTHER, BEN, "24"), (OTHER, BEN, "yahtzee")):
        dealt = await game.play(chat, player, kind)
        round_ = dealt.dealt
        answer = solve(round_.hand)[0] if kind == "24" else str(round_.target)
        assert (await game.answer(chat, player, answer, True)).closed
    top_here = await game.top(OTHER, BEN, everywhere=False)
    assert "Ben" in top_here and "Ann" not in top_here
    assert "Ann" in await game.top(OTHER, BEN, everywhere=True)
    assert "Ann" not in await game.top(OTHER, BEN, everywhere=True, game="yahtzee")
    stats = await game.stats(OTHER, BEN)
    assert "24:" in stats and "Yahtzee:" in stats and "All games:" in stats


async def test_chat_migration_moves_the_open_round(game: Game):
    dealt = await game.play(GROUP, ANN, "24")
    moved = await game.migrate_chat(GROUP.id, -100777)
    assert moved is not None and moved.id == dealt.dealt.id and moved.chat_id == -100777
    assert game.open_round(GROUP.id) is None
    won = await game.answer(Chat(-100777, "supergroup"), ANN, solve(moved.hand)[0], True)
    assert won is not None and won.closed


async def test_solving_service(pool: SolverPool):
    from bot.text.i18n import Texts

    solving = Solving(pool, timeout=30)
    texts = Texts("en")
    assert "8÷(3−8÷3)" in await solving.solve(SolveRequest((3, 8, 3, 8), 24), texts)
    assert "No solution" in await solving.solve(SolveRequest((1, 1, 1, 1), 24), texts)
    closest = await solving.solve(SolveRequest((1, 3, 7, 10, 25, 50), 831, True), texts)
    assert "<b>830</b>" in closest
    answers = await solving.inline(SolveRequest((1, 2, 3, 4), 24), texts)
    assert len(answers) == 3 and len({a.id for a in answers}) == 3
    assert (await solving.inline(None, texts))[0].id == "usage"


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

    from bot.play.games.twentyfour import solutions
    from bot.runtime.pool import SolverTimeout

    own = SolverPool(workers)
    try:
        await own.warm_up()
        slow = asyncio.create_task(own.run(solutions, (1, 2, 3, 4, 5, 7), 24, timeout=0.05))
        other = asyncio.create_task(own.run(solutions, (1, 2, 3, 4, 5, 6), 24))
        with pytest.raises(SolverTimeout):
            await slow
        assert await other == solve([1, 2, 3, 4, 5, 6])
    finally:
        own.shutdown()
