"""Yahtzee people can play: the deal shows what each roll scores, three sealed guesses a player
(each marked the same, whatever its distance), the closest guess wins at the end; nobody wins by
typing 101, 102, 103 ..., and numbers outside the range the best total lies in are chat."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.games.yahtzee import rules as yahtzee
from bot.play.games.yahtzee import words as yahtzee_words
from bot.play.guards.throttle import Throttle
from bot.play.outcomes import Closed, Dealt
from bot.play.rules.records import IGNORED, Near, Right
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.records import Round
from bot.store.stores import Stores
from bot.text.html_text import visible_text
from bot.text.i18n import Texts, texts_for
from solver.yahtzee import CATEGORIES, best_assignment, category_score
from tests.bot.conftest import Clock, Harness, new_services

GROUP = Chat(-42, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
CY = Player(3, "Cy", language_code="en")


def new_game(stores: Stores, pool: SolverPool, clock: Clock) -> Services:
    # replies to wrong guesses follow the test's clock
    services, _ = new_services(stores, pool, clock, seed=5, seconds={"yahtzee": 60},
                               throttle=Throttle(clock=clock))
    return services


@pytest.fixture
def services(stores: Stores, pool: SolverPool, clock: Clock) -> Services:
    """The game services of these tests (their own deals, and a throttle on the test's clock)."""
    return new_game(stores, pool, clock)


async def deal(services: Services) -> Round:
    dealt = await services.rounds.play(GROUP, ANN, "yahtzee")
    assert isinstance(dealt, Dealt)
    return dealt.round


async def guess(services: Services, player: Player, total: int) -> str:
    services.rounds.clock.now += 2  # type: ignore[attr-defined]  # past the reply throttle
    reply = await services.rounds.answer(GROUP, player, str(total), explicit=False)
    assert reply is not None
    return reply.text


async def noted(services: Services, player: Player, total: int) -> str:
    """A guess that counted: marked ✍, its words (said only where reactions are off)."""
    services.rounds.clock.now += 2  # type: ignore[attr-defined]
    reply = await services.rounds.answer(GROUP, player, str(total), explicit=False)
    assert reply is not None and reply.reaction == yahtzee_words.GUESS_REACTION, reply
    return reply.text


# --- the rules, plain ------------------------------------------------------------------------

def test_the_deal_table_shows_each_rolls_scores():
    rolls = ((4, 4, 3, 4, 4), (1, 2, 3, 4, 6), (6, 6, 6, 6, 6), (6, 2, 3, 4, 5), (3, 2, 3, 2, 3),
             (1, 1, 2, 5, 6)) + ((1, 2, 3, 4, 5),) * 7
    lines = yahtzee_words.score_table(rolls)
    assert lines[0].split() == ["#", "Σ", "3K", "4K", "5K", "SS", "LS", "FH"]
    assert lines[1].split() == ["1", "34444", "19", "19", "19", "·", "·", "·", "·"]
    assert lines[2].split() == ["2", "12346", "16", "·", "·", "·", "25", "·", "·"]
    assert lines[3].split() == ["3", "66666", "30", "30", "30", "50", "·", "·", "40"]
    assert lines[4].split() == ["4", "23456", "20", "·", "·", "·", "25", "35", "·"]
    assert lines[5].split() == ["5", "22333", "13", "13", "·", "·", "·", "·", "40"]
    assert lines[6].split() == ["6", "11256", "15", "·", "·", "·", "·", "·", "·"]
    assert len(lines) == 14 and max(len(line) for line in lines) <= 30  # a phone's width
    for line, roll in zip(lines[1:], rolls, strict=True):  # the solver's values, column by column
        shown = [0 if cell == "·" else int(cell) for cell in line.split()[2:]]
        assert shown == [category_score(roll, CATEGORIES.index(name)) for name in (
            "chance", "three of a kind", "four of a kind", "five of a kind", "short straight",
            "long straight", "full house")]


def test_guesses_are_judged_by_distance_and_scored_in_tiers():
    bounds = (40, 380)
    assert yahtzee.judge("150", 150, bounds, explicit=False) == Right(value="150")
    assert yahtzee.judge("141", 150, bounds, explicit=False) == Near("", "141", 9)
    assert yahtzee.judge("hello", 150, bounds, explicit=False) == IGNORED
    assert [yahtzee.points_for(d) for d in (0, 1, 5, 6, 10, 11, 80)] == [20, 10, 10, 5, 5, 0, 0]


def test_a_guess_is_answered_alike_whatever_its_distance():
    rules = yahtzee_words.YahtzeeWords()
    round_ = Round(1, GROUP.id, "yahtzee", ((1, 2, 3, 4, 5),) * 13, 150, "", 20, "en", None,
                   0.0, 60.0, "open", False)
    texts = Texts("en")
    bounds = yahtzee.total_bounds(round_.hand)
    below = yahtzee.judge("140", 150, bounds, explicit=True)
    above = yahtzee.judge("160", 150, bounds, explicit=True)
    assert isinstance(below, Near) and isinstance(above, Near)
    said = [rules.verdict_text(v, round_, texts, 2).replace(v.value, "N") for v in (below, above)]
    assert said[0] == said[1]  # nothing tells which side of the answer a guess is on


def test_the_range_of_guesses_comes_from_the_table_alone():
    for seed in range(30):
        rolls = yahtzee.roll_all(seed).hand
        low, high = yahtzee.total_bounds(rolls)
        in_order = sum(category_score(roll, c) for c, roll in enumerate(rolls))
        assert low == in_order + (35 if sum(category_score(roll, c) for c, roll in
                                            enumerate(rolls[:6])) >= 63 else 0)
        assert low <= best_assignment(rolls).total <= high == 380
    every = [(d,) * 5 for d in range(1, 7)]  # the most any rolls score, worked out by hand:
    assert yahtzee.most_any_rolls() == 5 + 10 + 15 + 20 + 25 + 30 + 35 + 30 + 30 + 30 + 50 + \
        25 + 35 + 40 == 380 and max(category_score(r, 9) for r in every) == 50


def test_the_reveal_numbers_each_roll_as_the_deal_does():
    rolls = yahtzee.roll_all(11).hand
    result = best_assignment(rolls)
    numbers = yahtzee_words.roll_numbers(result.rolls, rolls)
    assert sorted(numbers) == list(range(1, 14))
    assert all(rolls[n - 1] == roll for n, roll in zip(numbers, result.rolls, strict=True))
    assert yahtzee_words.roll_numbers([(1, 1, 1, 1, 1)] * 2, [(1, 1, 1, 1, 1)] * 2) == [1, 2]


# --- rounds ----------------------------------------------------------------------------------

async def test_three_sealed_guesses_each_then_a_polite_no(services: Services, stores: Stores):
    round_ = await deal(services)
    best = round_.target
    assert "2 left" in await noted(services, BEN, best - 9)
    assert "1 left" in await noted(services, BEN, best + 7)
    assert "0 left" in await noted(services, BEN, best - 3)
    refused = await guess(services, BEN, best)  # even the right total: no guesses left
    assert "had your 3 guesses" in refused
    assert services.rounds.open_round(GROUP.id) is not None
    assert await stores.rounds.guesses_made(round_.id, BEN.id) == 3
    won = await services.rounds.answer(GROUP, CY, str(best), explicit=True)  # Cy has all three
    assert isinstance(won, Closed) and "Cy" in won.text and "+20 points" in won.text


async def test_numbers_outside_the_range_are_chat(services: Services, stores: Stores):
    round_ = await deal(services)
    low, high = yahtzee.total_bounds(round_.hand)
    for chatter in ("3", str(low - 1), str(high + 1), "13"):
        assert await services.rounds.answer(GROUP, BEN, chatter, explicit=False) is None
    asked = await services.rounds.answer(GROUP, BEN, str(high + 1), explicit=True)
    assert asked is not None and f"from {low} to {high}" in asked.text
    assert await stores.rounds.guesses_made(round_.id, BEN.id) == 0


async def test_typing_a_run_of_numbers_wins_nothing(services: Services, stores: Stores):
    round_ = await deal(services)
    start = max(1, round_.target - 50)
    for total in range(start, start + 100):
        await services.rounds.answer(GROUP, BEN, str(total), explicit=False)
    assert await stores.rounds.guesses_made(round_.id, BEN.id) == 3
    # the run passed the target; it did not count
    assert services.rounds.open_round(GROUP.id) is not None


async def test_guesses_at_once_cannot_exceed_the_limit(services: Services, stores: Stores):
    round_ = await deal(services)
    await asyncio.gather(*(services.rounds.answer(GROUP, BEN, str(round_.target + 20 + i),
                                                   explicit=True) for i in range(8)))
    assert await stores.rounds.guesses_made(round_.id, BEN.id) == 3


async def test_an_unreadable_answer_costs_no_guess(services: Services, stores: Stores):
    round_ = await deal(services)
    reply = await services.rounds.answer(GROUP, BEN, "about 150", explicit=True)
    assert reply is not None and "whole number" in reply.text
    assert await stores.rounds.guesses_made(round_.id, BEN.id) == 0


async def test_the_count_survives_a_restart(services: Services, stores: Stores, pool: SolverPool,
                                            clock: Clock):
    round_ = await deal(services)
    for offset in (30, 20):
        await guess(services, BEN, round_.target + offset)
    again = new_game(stores, pool, clock)  # a restart: the open round is read back
    again.table.load(await stores.rounds.open_rounds())
    await again.people.load()
    assert "0 left" in await noted(again, BEN, round_.target + 12)
    assert "had your 3 guesses" in await guess(again, BEN, round_.target)


async def test_the_closest_guess_wins_when_time_is_up_ties_to_the_earlier(services: Services):
    round_ = await deal(services)
    await guess(services, BEN, round_.target + 4)
    await guess(services, CY, round_.target - 4)  # as close, later
    await guess(services, ANN, round_.target + 9)
    closed = await services.rounds.expire(round_.id)
    assert closed is not None
    text = closed.text
    assert "Ben</b> was closest" in text and "4 away" in text and "+10 points" in text
    assert f"The best total is <b>{round_.target}</b>" in text
    stats = await services.community.standings.stats(GROUP, BEN)
    assert "10 points, 1 win in 1 round" in stats


async def test_nobody_within_ten_wins_nothing(services: Services):
    round_ = await deal(services)
    await guess(services, BEN, round_.target + 11)
    closed = await services.rounds.expire(round_.id)
    assert closed is not None and "Nobody came within 10" in closed.text


async def test_once_others_guessed_the_starter_cannot_end_the_round(services: Services):
    """Ending a round early must not change who scores: once Ben has guessed, Ann (who dealt
    it) may not end it; her own guess alone could not win a round she ended."""
    round_ = await deal(services)
    await noted(services, ANN, round_.target + 1)
    await noted(services, BEN, round_.target + 2)
    refused = await services.rounds.reveal(GROUP, ANN)
    assert not isinstance(refused, Closed) and "or when a chat admin ends it" in refused.text
    assert services.rounds.open_round(GROUP.id) is not None


# --- through the real Application ------------------------------------------------------------

ALICE = {"id": 11, "is_bot": False, "first_name": "Alice", "language_code": "en"}
BOB = {"id": 12, "is_bot": False, "first_name": "Bob", "language_code": "en"}
CHAT = -5150


async def test_guessing_through_the_application(harness: Harness):
    harness.services.rounds.throttle.burst = 10  # every guess of this test gets its reply
    await harness.send(CHAT, ALICE, "/yahtzee")
    deal_message = await harness.telegram.reply(CHAT)
    assert "<pre>" in deal_message.html and "3K" in deal_message.text
    low, high = yahtzee.total_bounds(harness.services.rounds.open_round(CHAT).hand)
    assert f"Guess a number from {low} to {high}: 3 guesses each, sealed" in deal_message.text
    best = harness.services.rounds.open_round(CHAT).target
    sent = len(harness.telegram.sent)
    for total in (best + 9, best - 9, best - 1):
        await harness.send(CHAT, BOB, str(total))
    assert len(harness.telegram.sent) == sent  # not a word: each guess is marked, no more
    assert [r.emoji for r in harness.telegram.reactions] == ["✍"] * 3
    await harness.send(CHAT, BOB, str(best))
    assert "had your 3 guesses" in (await harness.telegram.reply(CHAT)).text
    await harness.send(CHAT, ALICE, f"/a {best}")
    won = await harness.telegram.reply(CHAT)
    assert "Alice wins" in won.text and f"The best total is {best}" in won.text


def test_the_best_scoring_table_is_in_the_languages_digits():
    """Issue 73: the Persian table mixed ASCII dice and scores with a Persian bonus line; every
    figure of it is now in the language's digits, its columns as aligned as in English."""
    rolls = tuple(tuple(roll) for roll in random.Random(7).choices(
        [(1, 1, 4, 5, 6), (2, 2, 3, 4, 5), (6, 6, 6, 6, 6), (1, 2, 3, 4, 5)], k=13))
    best = best_assignment(rolls)
    english = visible_text(yahtzee_words.table_text(texts_for("en"), best, rolls))
    persian = visible_text(yahtzee_words.table_text(texts_for("fa"), best, rolls))
    table = persian.split("\n", 1)[1]
    assert not re.search("[0-9]", table) and re.search("[۰-۹]", table)
    widths = [len(line.split("  ")[0]) for line in english.split("\n", 1)[1].splitlines()]
    assert [len(line.split("  ")[0]) for line in table.splitlines()] == widths
