"""Achievements earned from scripted histories through the real services (on SQLite and on
PostgreSQL): each one by its own history and nothing else it should not, announced inside the
round's result; nothing for a farmer of private rounds or of rounds played alone; each awarded
and announced once, whatever closes twice, at once, or after a /forget."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.play.achievements.rules import CODES
from bot.play.chats.people import Chat, Player
from bot.play.daily.puzzle import day_start
from bot.play.outcomes import Closed
from bot.play.round.events import RoundClosed
from bot.play.services import Services
from bot.store.records import Round
from bot.store.stores import Stores
from bot.text.i18n import texts_for
from solver import solve
from tests.bot.conftest import ON_BOTH_BACKENDS, Clock, Harness, opened_outside

GROUP = Chat(-42, "group", "G")
OTHER = Chat(-43, "group", "H")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
CROWD = [Player(n, f"P{n}", language_code="en") for n in range(3, 7)]
NOON = day_start("2026-03-02") + 12 * 3600.0

Play = tuple[Services, Stores, Clock]


async def deal(play: Play, chat: Chat, game: str, hand: tuple, target: int,
               level: str = "medium") -> Round:
    """A round of a hand the test chose, dealt in the chat as /play would put it there."""
    services, stores, clock = play
    await services.people.remember(chat, ANN)
    record = await stores.rounds.open_round(chat.id, game, hand, target, level, 10, "en",
                                            clock(), clock() + 60, started_by=ANN.id)
    assert record is not None
    await opened_outside(services, record)
    return record


async def won(play: Play, chat: Chat, winner: Player, answer: str, losers: list[Player],
              after: float = 10.0) -> str:
    """The losers answer wrong, then the winner right `after` seconds in: the result's text."""
    services, _stores, clock = play
    for loser in losers:
        clock.now += 0.1
        await services.rounds.answer(chat, loser, "1+2", explicit=True)
    clock.now += after
    closed = await services.rounds.answer(chat, winner, answer, explicit=True)
    assert isinstance(closed, Closed), closed
    clock.now += 100
    return closed.text


async def round_of_24(play: Play, chat: Chat = GROUP, winner: Player = ANN,
                      losers: tuple[Player, ...] = (BEN,), hand: tuple = (3, 3, 8, 8),
                      level: str = "medium", after: float = 10.0) -> str:
    await deal(play, chat, "24", hand, 24, level)
    return await won(play, chat, winner, solve(hand)[0], list(losers), after)


async def solved_daily(play: Play, player: Player, at: float) -> str:
    services, _stores, clock = play
    clock.now = at
    daily = services.community.daily
    reply = await daily.answer(Chat(player.id, "private", None), player,
                               solve(daily.hand_now())[0])
    return reply.text


async def first_win(play: Play) -> None:
    text = await round_of_24(play)
    assert "🏅 Ann earned: First win" in text


async def quick_win(play: Play) -> None:
    await round_of_24(play, after=3.0)


async def hard_hand(play: Play) -> None:
    await round_of_24(play, level="hard")


async def five_numbers(play: Play) -> None:
    await round_of_24(play, hand=(1, 1, 1, 3, 8))


async def countdown_exact(play: Play) -> None:
    await deal(play, GROUP, "countdown", (100, 4, 3, 2, 1, 1), 400)
    await won(play, GROUP, ANN, "100*4", [BEN])


async def yahtzee_optimum(play: Play) -> None:
    services = play[0]
    dealt = (await services.rounds.play(GROUP, ANN, "yahtzee")).round
    assert dealt is not None
    await won(play, GROUP, ANN, str(dealt.target), [BEN])


async def crowd_win(play: Play) -> None:
    await round_of_24(play, losers=(BEN, *CROWD))


async def ten_wins(play: Play) -> None:
    for _ in range(5):  # lost between them: wins need not be in a row
        await round_of_24(play)
        await round_of_24(play, winner=BEN, losers=(ANN,))
    await round_of_24(play, chat=OTHER)  # another group's win is not this one's
    for _ in range(5):
        await round_of_24(play)


async def three_in_a_row(play: Play) -> None:
    await round_of_24(play)
    await round_of_24(play)
    await round_of_24(play, winner=BEN, losers=(ANN,))
    await round_of_24(play)
    await round_of_24(play, chat=OTHER)  # another group's win is no part of the run
    await round_of_24(play)
    await round_of_24(play)


async def fifty_rounds(play: Play) -> None:
    for number in range(50):  # played, never won, in two groups
        await round_of_24(play, chat=GROUP if number % 2 else OTHER, winner=BEN,
                          losers=(ANN,))


async def daily_first(play: Play) -> None:
    text = await solved_daily(play, ANN, NOON)
    assert "🏅 New achievement: Daily solver" in text


async def daily_early(play: Play) -> None:
    await solved_daily(play, ANN, day_start("2026-03-02") + 1800)


async def daily_week(play: Play) -> None:
    await solved_daily(play, ANN, NOON - 86400 * 2)  # a day missed: the week starts after
    for day in range(7):
        await solved_daily(play, ANN, NOON + 86400 * day)


# each achievement's history, and every code Ann earns by it (no more: each rule holds only
# where it says)
HISTORIES: dict[str, tuple[Callable[[Play], Awaitable[None]], set[str]]] = {
    "first_win": (first_win, {"first_win"}),
    "quick_win": (quick_win, {"first_win", "quick_win"}),
    "hard_hand": (hard_hand, {"first_win", "hard_hand"}),
    "five_numbers": (five_numbers, {"first_win", "five_numbers"}),
    "countdown_exact": (countdown_exact, {"first_win", "countdown_exact"}),
    "yahtzee_optimum": (yahtzee_optimum, {"first_win", "yahtzee_optimum"}),
    "crowd_win": (crowd_win, {"first_win", "crowd_win"}),
    "ten_wins": (ten_wins, {"first_win", "ten_wins", "three_in_a_row"}),
    "three_in_a_row": (three_in_a_row, {"first_win", "three_in_a_row"}),
    "fifty_rounds": (fifty_rounds, {"fifty_rounds"}),
    "daily_first": (daily_first, {"daily_first"}),
    "daily_early": (daily_early, {"daily_first", "daily_early"}),
    "daily_week": (daily_week, {"daily_first", "daily_week"}),
}


def test_every_achievement_has_its_history():
    assert len(CODES) >= 12
    assert set(HISTORIES) == set(CODES)


@pytest.mark.parametrize("code", sorted(HISTORIES))
async def test_a_history_earns_its_achievement(code: str, services: Services, stores: Stores,
                                               clock: Clock):
    clock.now = NOON
    history, earned = HISTORIES[code]
    await history((services, stores, clock))
    assert {row.code for row in await stores.achievements.earned(ANN.id)} == earned


async def test_ten_wins_needs_the_tenth(services: Services, stores: Stores, clock: Clock):
    for _ in range(9):
        await round_of_24((services, stores, clock))
        await round_of_24((services, stores, clock), winner=BEN, losers=(ANN,))
    codes = {row.code for row in await stores.achievements.earned(ANN.id)}
    assert "ten_wins" not in codes and "three_in_a_row" not in codes
    text = await round_of_24((services, stores, clock))
    assert "🏅 Ann earned: Local hero" in text
    assert sum("🏅" in line for line in text.splitlines()) == 1  # the one new, said once
    where = {row.code: row for row in await stores.achievements.earned(ANN.id)}["ten_wins"]
    assert where.chat_id == GROUP.id and where.round_id is not None
    [shown] = await stores.achievements.earned_in_chat(GROUP.id, limit=1)
    assert (shown.user_id, shown.name, shown.code) == (ANN.id, "Ann", "ten_wins")


async def test_a_farmer_of_private_rounds_earns_nothing(services: Services, stores: Stores,
                                                        clock: Clock):
    """100 private rounds against the solver, won fast on hard hands of five numbers, and 20
    group rounds nobody else answered: nothing counts."""
    play = (services, stores, clock)
    mine = Chat(ANN.id, "private", None)
    for number in range(100):
        await deal(play, mine, "24", (1, 1, 1, 3, 8), 24, "hard")
        await won(play, mine, ANN, "1*1*1*3*8", [], after=1.0 + number % 2)
    for _ in range(20):
        text = await round_of_24(play, losers=(), level="hard", after=1.0)
        assert "🏅" not in text
    assert await stores.achievements.earned(ANN.id) == []
    assert await stores.achievements.earned_in_chat(GROUP.id) == []


async def test_a_close_followed_twice_awards_and_says_once(services: Services, stores: Stores,
                                                          clock: Clock):
    play = (services, stores, clock)
    record = await deal(play, GROUP, "24", (3, 3, 8, 8), 24)
    text = await won(play, GROUP, ANN, "8/(3-8/3)", [BEN])
    assert "First win" in text
    # a retried close
    again = await services.achievements.after_round(RoundClosed(record), texts_for("en"))
    assert again.lines is None
    assert [row.code for row in await stores.achievements.earned(ANN.id)] == ["first_win"]


async def test_two_closes_at_once_award_once(services: Services, stores: Stores, clock: Clock):
    """One player wins in two groups at once: one of the two results says it."""
    play = (services, stores, clock)
    await deal(play, GROUP, "24", (3, 3, 8, 8), 24)
    await deal(play, OTHER, "24", (3, 3, 8, 8), 24)
    for chat in (GROUP, OTHER):
        await services.rounds.answer(chat, BEN, "1+2", explicit=True)
    clock.now += 10
    both = await asyncio.gather(*(services.rounds.answer(chat, ANN, "8/(3-8/3)", explicit=True)
                                  for chat in (GROUP, OTHER)))
    said = [closed.text.count("First win") for closed in both if isinstance(closed, Closed)]
    assert sorted(said) == [0, 1]
    assert [row.code for row in await stores.achievements.earned(ANN.id)] == ["first_win"]


async def test_a_forget_between_close_and_award_brings_no_one_back(
        services: Services, stores: Stores, clock: Clock):
    play = (services, stores, clock)
    record = await deal(play, GROUP, "24", (3, 3, 8, 8), 24)
    await won(play, GROUP, ANN, "8/(3-8/3)", [BEN])
    assert await stores.achievements.earned(ANN.id) != []
    await services.community.privacy.forget(ANN.id)
    await services.community.privacy.erased()
    assert await stores.achievements.earned(ANN.id) == []
    # the close followed again (a retry after the forget): Ann is no longer stored
    again = await services.achievements.after_round(RoundClosed(record), texts_for("en"))
    assert again.lines is None
    assert await stores.achievements.earned(ANN.id) == []
    assert await stores.achievements.earned_in_chat(GROUP.id) == []


ZOE = {"id": 71, "is_bot": False, "first_name": "Zoe", "language_code": "de"}
MAX = {"id": 72, "is_bot": False, "first_name": "Max", "language_code": "de"}


@ON_BOTH_BACKENDS
async def test_the_result_telegram_gets_says_it(harness: Harness):
    """Through the real Application: the result message itself carries the line, in the
    group's language; no message of its own. The same win in private says nothing."""
    group = -4747
    await harness.send(group, ZOE, "/lang de")
    await harness.telegram.reply(group)
    await harness.send(group, ZOE, "/play")
    await harness.telegram.reply(group)
    current = harness.services.rounds.open_round(group)
    assert current is not None
    await harness.send(group, MAX, "/a 1+2")
    await harness.send(group, ZOE, f"/a {solve(current.hand)[0]}")
    sent = [m for m in harness.telegram.sent if m.chat_id == group and "🏅" in m.text]
    assert len(sent) == 1 and "🏅 Zoe erreicht: Erster Sieg" in sent[0].text
    assert "Zoe" in sent[0].text.split("🏅")[0]  # the result's head, the line under it
    await harness.send(ZOE["id"], ZOE, "/play", kind="private")
    await harness.telegram.reply(ZOE["id"])
    alone = harness.services.rounds.open_round(ZOE["id"])
    assert alone is not None
    await harness.send(ZOE["id"], ZOE, f"/a {solve(alone.hand)[0]}", kind="private")
    assert not [m for m in harness.telegram.sent if m.chat_id == ZOE["id"] and "🏅" in m.text]


async def test_a_counted_award_writes_only_once_its_count_reaches_the_rule(
        services: Services, stores: Stores, clock: Clock):
    """The count a rule asks for rides in its award's own statement (one trip for both): the
    award writes only when the count, stopped at the rule's reach, reaches it — one short
    writes nothing, and a win elsewhere or a loss in the run does not count."""
    play = (services, stores, clock)
    await round_of_24(play)
    await round_of_24(play)
    await round_of_24(play, chat=OTHER)  # a win, elsewhere
    latest = await round_of_24(play, winner=BEN, losers=(ANN,))  # lost: ends Ann's run
    await round_of_24(play)
    [*_, last] = await stores.achievements.earned(ANN.id)
    store, at, chat = stores.achievements, clock(), GROUP.id
    round_id = last.round_id
    assert round_id is not None and "Ben" in latest

    async def award(how, code: str, reach: int) -> bool:
        return await how(ANN.id, code, at, chat, round_id, reach)

    assert not await award(store.award_if_wins_here, "t_wins", 4)  # three here, not four
    assert not await award(store.award_if_run_here, "t_run", 2)  # one since the loss
    assert not await award(store.award_if_played, "t_played", 6)  # five rounds in all
    assert await award(store.award_if_wins_here, "t_wins", 3)
    assert await award(store.award_if_run_here, "t_run", 1)
    assert await award(store.award_if_played, "t_played", 5)
    assert not await award(store.award_if_played, "t_played", 5)  # once a person and code
    codes = {row.code for row in await stores.achievements.earned(ANN.id)}
    assert {"t_wins", "t_run", "t_played"} <= codes
