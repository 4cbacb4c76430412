"""Game rules without Telegram: deal, answers, winner, hint penalty, timer, resume, /solve."""

from __future__ import annotations

import random

import pytest

from bot.game import Game, Player, Throttle, hint_points, parse_solve
from bot.storage import Storage
from bot.work import LEVELS, check_answer, deal, level_of

CHAT = -42
ANN = Player(1, "Ann")
BEN = Player(2, "Ben")


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def game(tmp_path, pool):
    storage = await Storage.open(tmp_path / "g.sqlite3")
    clock = Clock()
    yield Game(storage, pool, round_seconds=60, clock=clock, rng=random.Random(1))
    await storage.close()


def test_deal_draws_solvable_hands_of_every_level():
    seen = set()
    for seed in range(40):
        dealt = deal(seed)
        assert len(dealt.hand) == 4 and all(1 <= n <= 13 for n in dealt.hand)
        assert level_of(tuple(sorted(dealt.hand)))[0] == dealt.level
        assert dealt.points == LEVELS[dealt.level]
        seen.add(dealt.level)
    assert seen == {"easy", "medium", "hard"}
    assert level_of((3, 3, 8, 8)) == ("hard", 1)
    assert level_of((1, 1, 1, 1)) == ("none", 0)


@pytest.mark.parametrize(("text", "kind"), [
    ("8/(3-8/3)", "right"), ("8÷(3−8÷3) = 24", "right"), ("8*3", "wrong_numbers"),
    ("3*8+3-8", "wrong_value"), ("8/(3-3)*8", "division_by_zero"), ("8/(3-8/3", "unreadable")])
def test_check_answer(text, kind):
    assert check_answer(text, (3, 3, 8, 8), 24, explicit=True).kind == kind


def test_plain_messages_are_ignored_unless_they_try_the_hand():
    assert check_answer("hello there", (3, 3, 8, 8), 24, explicit=False).kind == "ignore"
    assert check_answer("1+1", (3, 3, 8, 8), 24, explicit=False).kind == "ignore"
    assert check_answer("(3+3", (3, 3, 8, 8), 24, explicit=False).kind == "ignore"
    assert check_answer("3*8", (3, 3, 8, 8), 24, explicit=False).kind == "wrong_numbers"


def test_hint_penalty_and_throttle():
    assert [hint_points(p) for p in (10, 20, 30)] == [5, 10, 15]
    clock = Clock(0.0)
    throttle = Throttle(2.0, clock)
    assert throttle.allow(1, 1) and not throttle.allow(1, 1) and throttle.allow(1, 2)
    clock.now = 0.6
    assert throttle.allow(1, 1)


def test_parse_solve():
    assert parse_solve("3 8 3 8") == ([3, 8, 3, 8], 24)
    assert parse_solve("1 2 3 4 5 = 100") == ([1, 2, 3, 4, 5], 100)
    assert parse_solve("1,2,3,4=-5") == ([1, 2, 3, 4], -5)
    for bad in ("", "a b", "1 2 3 4 5 6 7", "1 1000001", "1 2 =", "= 5"):
        assert parse_solve(bad) is None


async def test_round_win_and_streak(game: Game):
    started = await game.play(CHAT, "group", "G", ANN)
    assert started.round is not None
    hand = started.round.hand
    again = await game.play(CHAT, "group", "G", BEN)
    assert again.round is None and "A round is on" in again.text
    from solver import solve

    game.clock.now += 12.5
    reply = await game.answer(CHAT, "group", "G", BEN, solve(hand)[0], explicit=True)
    assert reply is not None and "Ben" in reply and "12.5 s" in reply
    assert await game.answer(CHAT, "group", "G", ANN, "1+1", explicit=True) is not None
    stats = await game.stats(CHAT, BEN)
    assert "1 wins in 1 rounds" in stats and "Streak: 1" in stats


async def test_hint_then_win_gives_fewer_points(game: Game):
    started = await game.play(CHAT, "group", "G", ANN)
    points = started.round.points
    hint = await game.hint(CHAT)
    assert f"Points now {hint_points(points)}" in hint
    await game.hint(CHAT)  # a second hint costs nothing more
    from solver import solve

    reply = await game.answer(CHAT, "group", "G", ANN, solve(started.round.hand)[0], True)
    assert f"+{hint_points(points)} points" in reply


async def test_timer_expiry_reveals_once(game: Game):
    started = await game.play(CHAT, "group", "G", ANN)
    closed = await game.expire(started.round.id)
    assert closed is not None and closed[0] == CHAT and "Time is up" in closed[1]
    assert "distinct solution" in closed[1]
    assert await game.expire(started.round.id) is None


async def test_resume_after_restart(game: Game):
    started = await game.play(CHAT, "group", "G", ANN)
    await game.play(CHAT - 1, "group", "H", ANN)
    game.clock.now += 30
    running, expired = await game.resume()
    assert {r.chat_id for r in running} == {CHAT, CHAT - 1} and not expired
    game.clock.now += 31
    running, expired = await game.resume()
    assert not running and {chat for chat, _ in expired} == {CHAT, CHAT - 1}
    assert await game.open_round(CHAT) is None
    assert started.round is not None


async def test_solve_command(game: Game):
    assert "8÷(3−8÷3)" in await game.solve("3 8 3 8")
    assert "Usage" in await game.solve("3 8 x")
    assert "No solution" in await game.solve("1 1 1 1")


async def test_slow_solve_is_stopped_and_the_pool_recovers(tmp_path):
    from bot.pool import SolverPool

    storage = await Storage.open(tmp_path / "t.sqlite3")
    own = SolverPool(1)
    try:
        slow = Game(storage, own, round_seconds=60, solve_timeout=0.05)
        assert "took more than" in await slow.solve("1 2 3 4 5 6")
        quick = Game(storage, own, round_seconds=60, solve_timeout=30)
        assert "8÷(3−8÷3)" in await quick.solve("3 8 3 8")
    finally:
        own.shutdown()
        await storage.close()
