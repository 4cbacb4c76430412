"""No chat can freeze the others: answers are judged in the event loop, deals have a time
budget, and heavy work a budget of solver seconds per user and per chat. Every test here
asserts what happens and in which order, never how long it took."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.games import GAMES
from bot.play.games.twentyfour.rules import deal
from bot.play.guards.throttle import Allowance, WorkBudget
from bot.play.outcomes import Dealt
from bot.play.rules import PlayOptions
from bot.runtime.config import Config
from bot.runtime.pool import SolverPool, SolverTimeout
from bot.store.stores import Stores
from solver import is_solvable
from solver.rating import level as rated_level
from tests.bot.conftest import Clock, Harness, new_services
from tests.waiting import until

CHAT_A, CHAT_B, CHAT_C = -1201, -1202, -1203
ANN = {"id": 41, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 42, "is_bot": False, "first_name": "Ben"}
CAT = {"id": 43, "is_bot": False, "first_name": "Cat"}


def wait_for_file(path: str, limit: float = 600.0, started: str | None = None) -> bool:
    """Stands for a long /solve: holds a worker until the file exists (at most `limit` s);
    `started`, a file it makes first, says a worker has taken it."""
    if started is not None:
        Path(started).touch()
    ends = time.monotonic() + limit
    while not Path(path).exists() and time.monotonic() < ends:
        time.sleep(0.01)
    return True


@asynccontextmanager
async def heavy_lane_held(pool: SolverPool, folder: Path) -> AsyncIterator[None]:
    """Every heavy worker busy until the block ends (then they are let go, whatever happened)."""
    release = folder / "release"
    started = [folder / f"holding-{n}" for n in range(pool.heavy.workers)]
    holders = [asyncio.ensure_future(pool.run_heavy(wait_for_file, str(release), 600.0,
                                                    str(mark)))
               for mark in started]
    try:
        await until(lambda: all(mark.exists() for mark in started), "every worker held")
        yield
    finally:
        release.touch()
        await asyncio.gather(*holders)
        for mark in (release, *started):  # the lane may be held again later
            mark.unlink()


def replies_in(h: Harness, chat: int) -> list[str]:
    return [s.text for s in h.telegram.sent if s.chat_id == chat]


async def test_rounds_are_not_queued_behind_heavy_work(harness: Harness, pool: SolverPool,
                                                       tmp_path: Path):
    """With the stock of deals filled, a round is dealt, judged and revealed while every heavy
    worker is busy: a deal is a lookup, its solutions were worked out with it."""
    harness.services.solving.timeout = 600.0  # however slow the machine, it waits
    dealer = harness.services.rounds.dealer
    assert await dealer.stock.fill(GAMES["24"].rules, PlayOptions(), dealer.deal_seconds) > 0
    async with heavy_lane_held(pool, tmp_path):
        solving = asyncio.ensure_future(harness.send(CHAT_A, ANN, "/solve 1 2 3 4 5 = 101"))
        await harness.send(CHAT_B, BEN, "/play")
        deal_text = (await harness.telegram.reply(CHAT_B)).text
        current = harness.services.rounds.open_round(CHAT_B)
        a, b, c, d = current.hand
        await harness.send(CHAT_B, BEN, f"/a {a}+{b}+{c}+{d}+{a}")  # judged in the loop
        assert "👎 Ben: " in harness.telegram.edits[-1].text  # the deal's status
        assert "Make 24" in deal_text
        await harness.send(CHAT_B, BEN, "/reveal")
        assert "distinct solution" in (await harness.telegram.reply(CHAT_B)).text
        assert replies_in(harness, CHAT_A) == []  # the /solve still waits for a heavy worker
        assert not solving.done()
    await solving
    assert "101" in (await harness.telegram.reply(CHAT_A)).text


async def test_a_heavy_timeout_restarts_the_lane():
    """A stopped job replaces the lane's processes (a running task can't be cancelled)."""
    own = SolverPool(1)
    try:
        before = await own.run_heavy(os.getpid)
        with pytest.raises(SolverTimeout):
            await own.run_heavy(wait_for_file, "/nonexistent/never", 30.0, timeout=0.2)
        assert await own.run_heavy(os.getpid) != before  # a fresh process
        assert await own.run_heavy(is_solvable, (3, 3, 8, 8), 24)
    finally:
        own.shutdown()


def test_solver_workers_means_the_processes_of_the_one_lane():
    own = SolverPool(0)  # the least is one
    try:
        assert (own.workers, own.heavy.workers) == (1, 1)
    finally:
        own.shutdown()
    assert not hasattr(own, "rounds")  # no process is kept apart for judging
    assert Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "DEAL_SECONDS": "0.5"},
                           env_file=None).deal_seconds == 0.5


# --- the deal's time budget -------------------------------------------------------------------

def first_hand(seed: int, count: int) -> list[int]:
    """The first hand `deal` draws for a given level (none drawn from the mix)."""
    rng = random.Random(seed)
    return [rng.randint(1, 13) for _ in range(count)]


def test_a_spent_budget_stops_the_deal_after_the_hand_in_hand():
    for seed in range(6):
        hand = first_hand(seed, 6)
        dealt = deal(seed, "easy", 6, 997, budget=0.0)
        if is_solvable(hand, 997):
            assert dealt is not None and dealt.hand == tuple(hand)
            assert dealt.level == rated_level(hand, 997)
        else:
            assert dealt is None


def test_every_target_of_four_numbers_is_dealt():
    for seed, target in enumerate((743, 751, 953, 986)):  # the rarest: a hand in 5,000 draws
        dealt = deal(seed, None, 4, target, budget=60.0)
        assert dealt is not None and is_solvable(dealt.hand, target) and len(dealt.hand) == 4


def seed_for(wanted_none: bool, level: str | None, count: int, target: int) -> int:
    """A seed of the game's rng whose deal, with no time, is refused (or is not)."""
    for seed in range(200):
        drawn = deal(random.Random(seed).getrandbits(64), level, count, target, budget=0.0)
        if (drawn is None) == wanted_none and (drawn is None or drawn.level != level):
            return seed
    raise AssertionError("no such seed")


async def test_a_deal_that_finds_nothing_quickly_is_refused(harness: Harness):
    harness.services.rounds.dealer.deal_seconds = 0.0
    seed = seed_for(True, None, 6, 997)
    harness.services.rounds.dealer.stock.seed = partial(random.Random(seed).getrandbits, 64)
    await harness.send(CHAT_C, ANN, "/play 6 = 997")
    refused = await harness.telegram.reply(CHAT_C)
    assert "I found no hand of 6 numbers (1 to 13) that makes 997 quickly enough" in refused.text
    assert harness.services.rounds.open_round(CHAT_C) is None


async def test_a_deal_that_finds_another_level_says_so(harness: Harness):
    harness.services.rounds.dealer.deal_seconds = 0.0
    seed = seed_for(False, "easy", 6, 997)
    harness.services.rounds.dealer.stock.seed = partial(random.Random(seed).getrandbits, 64)
    await harness.send(CHAT_C, ANN, "/play easy 6 = 997")
    dealt = await harness.telegram.reply(CHAT_C)
    current = harness.services.rounds.open_round(CHAT_C)
    assert current is not None and current.level != "easy"
    assert f"No easy hand for 997 turned up quickly, so this one is {current.level}" in dealt.text


async def test_one_deal_at_a_time_per_chat(stores: Stores, pool: SolverPool, clock: Clock):
    services, _ = new_services(stores, pool, clock, seed=7)
    stock, taken = services.rounds.dealer.stock, []
    take = stock.take

    async def counted(*args, **kwargs):
        taken.append(args)
        return await take(*args, **kwargs)

    stock.take = counted  # type: ignore[method-assign]
    chat = Chat(CHAT_C)
    replies = await asyncio.gather(*(services.rounds.play(chat, Player(i, f"P{i}"), "24", None)
                                     for i in range(1, 6)))
    assert sum(isinstance(r, Dealt) for r in replies) == 1 and len(taken) == 1
    assert all("A round of 24 is on" in r.text for r in replies if not isinstance(r, Dealt))


# --- the budget of solver seconds -------------------------------------------------------------

class Frozen:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_work_budget_reserves_refunds_and_refills():
    clock = Frozen()
    budget = WorkBudget(Allowance(20.0, 1 / 6), Allowance(40.0, 1 / 3), min_charge=0.1,
                        clock=clock)
    first, second = budget.take(1, -5, 10.0), budget.take(1, -5, 10.0)
    assert not isinstance(first, int) and not isinstance(second, int)
    assert budget.take(1, -5, 10.0) == 10  # two running: the sooner one ends within 10 s
    assert not isinstance(budget.take(2, -5, 10.0), int)  # someone else in the chat
    budget.settle(first, 0.02)  # quick: costs 0.1 s
    budget.settle(second, 10.0)  # stopped at its limit: costs all 10 s
    assert budget.take(1, -5, 10.0) == 1  # 9.9 s left: 0.1 s comes back in 0.6 s
    clock.now += 1
    third = budget.take(1, -5, 10.0)
    assert not isinstance(third, int)
    budget.settle(third, 10.0)
    wait = budget.take(1, -5, 10.0)  # 0.07 s left: 10 s take about a minute
    assert isinstance(wait, int) and 59 <= wait <= 61
    assert isinstance(budget.take(1, None, 10.0), int)  # inline: the user's own bucket
    clock.now += wait
    assert not isinstance(budget.take(1, -5, 10.0), int)


async def test_heavy_commands_are_throttled_per_user_and_per_chat(harness: Harness):
    budget = WorkBudget(Allowance(11.0, 0.1), Allowance(12.0, 0.5), min_charge=1.0,
                        clock=Frozen())  # every request costs at least 1 s of 10 reserved
    harness.services.solving.budget = budget
    for numbers in ("3 8 3 8", "1 2 3 4"):
        await harness.send(CHAT_A, ANN, f"/solve {numbers}")
        assert "distinct solution" in (await harness.telegram.reply(CHAT_A)).text
    await harness.send(CHAT_A, ANN, "/countdown 1 3 7 10 25 50 = 765")
    busy = (await harness.telegram.reply(CHAT_A)).text
    assert "Busy" in busy and "Try again in 10 s" in busy  # 1 s short, back at 0.1 s a second
    await harness.send(CHAT_A, BEN, "/yahtzee " + " ".join(["12345"] * 13))
    assert "total" in (await harness.telegram.reply(CHAT_A)).text  # Ben has his own
    await harness.send(CHAT_A, CAT, "/solve 2 2 6 6")  # but the chat's 12 s are spent
    assert "Try again in 2 s" in (await harness.telegram.reply(CHAT_A)).text
    await harness.send(CHAT_B, CAT, "/solve 2 2 6 6")  # in another chat, Cat is served
    assert "distinct solution" in (await harness.telegram.reply(CHAT_B)).text


async def test_costly_deals_and_inline_queries_count_too(harness: Harness):
    budget = WorkBudget(Allowance(2.5, 0.1), Allowance(40.0, 1.0), min_charge=1.0,
                        clock=Frozen())  # a costly deal reserves 2 s and costs at least 1
    harness.services.solving.budget = budget
    harness.services.rounds.dealer.budget = budget
    await harness.send(CHAT_B, CAT, "/play 5")
    assert "Make 24" in (await harness.telegram.reply(CHAT_B)).text
    await harness.send(CHAT_B, CAT, "/reveal")
    await harness.telegram.reply(CHAT_B)
    await harness.send(CHAT_B, CAT, "/play 5")
    assert "Try again in" in (await harness.telegram.reply(CHAT_B)).text
    answers = await harness.inline(CAT, "2 3 4 5")
    assert [r["id"] for r in answers.results] == ["busy"]
    assert "try again in" in answers.results[0]["title"]
    await harness.send(CHAT_B, CAT, "/play")  # the everyday deal never counts
    assert "Make 24" in (await harness.telegram.reply(CHAT_B)).text


async def test_one_person_cannot_start_many_long_jobs(harness: Harness, pool: SolverPool,
                                                      tmp_path: Path):
    async with heavy_lane_held(pool, tmp_path):
        queued = [asyncio.ensure_future(harness.send(CHAT_A, ANN, f"/solve 1 2 3 4 5 = {t}"))
                  for t in (201, 202)]
        await until(lambda: pool.heavy.slots.waiting() == 2, "both queued behind the holders")
        await harness.send(CHAT_A, ANN, "/solve 1 2 3 4 5 = 203")  # 2 x 10 s reserved
        busy = await harness.telegram.reply(CHAT_A)
        assert "Busy" in busy.text and "203" not in busy.text
    await asyncio.gather(*queued)
    texts = [s.text for s in await harness.telegram.replies(CHAT_A, 2)]
    assert all("Busy" not in text for text in texts)


async def test_the_same_question_at_once_is_worked_out_once(harness: Harness, pool: SolverPool,
                                                            tmp_path: Path):
    async with heavy_lane_held(pool, tmp_path):
        asked = [asyncio.ensure_future(harness.send(CHAT_A, ANN, "/solve 1 2 3 4 5 = 301"))
                 for _ in range(5)]  # more than Ann's budget would let run side by side
        await asyncio.sleep(0.1)
        assert replies_in(harness, CHAT_A) == []
    await asyncio.gather(*asked)
    texts = [s.text for s in await harness.telegram.replies(CHAT_A, 5)]
    assert len(set(texts)) == 1 and "301" in texts[0] and "Busy" not in texts[0]
