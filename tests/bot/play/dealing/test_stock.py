"""The stock of deals: a deal from a filled shelf is a lookup, an empty shelf's deal is made in
the heavy lane, the shelf follows demand, a seeded deal is the one the
game's own function deals, and a round's hints and end read the analysis made with it."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.dealing.analyses import ENTRY_BYTES, Analyses
from bot.play.dealing.stock import COSTLY_MOST, FIRST_SIZE, Stock
from bot.play.games import GAMES
from bot.play.games.twentyfour.rules import ready, solutions
from bot.play.outcomes import Closed, Edited
from bot.play.rules import Analysis, PlayOptions
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from tests.bot.conftest import Clock, new_services

GROUP = Chat(-4401, "group")
ANN, BEN = Player(51, "Ann"), Player(52, "Ben")


class Lanes:
    """The pool, with a record of which lane each piece of work went to and what it returned;
    `closed` makes every call fail (to prove that none is made)."""

    def __init__(self, pool: SolverPool) -> None:
        self.pool, self.calls, self.closed = pool, [], False
        self.returned: list[Any] = []

    async def run_heavy(self, fn, *args, **kwargs) -> Any:
        self.calls.append(("heavy", fn.__name__))
        assert not self.closed, "no solver work expected"
        self.returned.append(await self.pool.run_heavy(fn, *args, **kwargs))
        return self.returned[-1]


def seeded(seed: int):
    rng = random.Random(seed)
    return lambda: rng.getrandbits(64)


async def test_a_filled_shelf_deals_without_the_pool(pool: SolverPool):
    lanes = Lanes(pool)
    stock = Stock(lanes, seeded(1))  # type: ignore[arg-type]
    rules, options = GAMES["24"].rules, PlayOptions()
    assert await stock.fill(rules, options) == FIRST_SIZE
    assert {lane for lane, _ in lanes.calls} == {"heavy"}
    lanes.closed, made = True, len(lanes.calls)
    dealt, cost = await stock.take(rules, options)
    assert (dealt, cost) == lanes.returned[0][0]  # the first hand made, at the CPU time the
    assert dealt is not None and dealt.analysis is not None  # worker measured for it
    assert list(dealt.analysis.solutions) == solutions(dealt.hand, 24)
    assert stock.ready(rules, options) == FIRST_SIZE - 1
    assert len(lanes.calls) <= made + 1  # at most the refill asked (and was refused)


@pytest.mark.slow
async def test_an_empty_shelf_deals_in_the_heavy_lane_and_grows(pool: SolverPool):
    lanes = Lanes(pool)
    stock = Stock(lanes, seeded(2))  # type: ignore[arg-type]
    rules, rare = GAMES["24"].rules, PlayOptions(count=6, target=997)
    dealt, _ = await stock.take(rules, rare)
    assert dealt is not None and len(dealt.hand) == 6 and dealt.target == 997
    await stock.fill(rules, rare)
    assert lanes.calls and all(lane == "heavy" for lane, _ in lanes.calls)
    assert stock.ready(rules, rare) == 2 < COSTLY_MOST  # a costly kind asked once keeps two
    plain = PlayOptions()
    await stock.take(rules, plain)  # found empty: the shelf doubles
    assert await stock.fill(rules, plain) == 2 * FIRST_SIZE


async def test_the_first_deal_of_a_seed_is_the_games_own(pool: SolverPool):
    for seed in range(3):
        stock = Stock(pool, seeded(seed))
        dealt, _ = await stock.take(GAMES["24"].rules, PlayOptions(level="hard", count=5))
        expected = ready(random.Random(seed).getrandbits(64), "hard", 5, 24, 1.0)
        assert dealt == expected and dealt is not None
        assert dealt.analysis == expected.analysis


async def test_a_kind_with_no_hand_is_not_refilled(pool: SolverPool):
    lanes = Lanes(pool)
    stock = Stock(lanes, seeded(3))  # type: ignore[arg-type]
    none = PlayOptions(count=4, target=997)  # nothing found in no time: refused
    dealt, _ = await stock.take(GAMES["24"].rules, none, budget=0.0)
    # no time: one hand drawn and one of every four tried, the same ones for the same seed
    assert dealt is None, "this seed's two hands make 997 now: choose a seed whose do not"
    calls = len(lanes.calls)
    assert await stock.fill(GAMES["24"].rules, none, budget=0.0) == 0
    assert len(lanes.calls) == calls  # barren: made again only when asked


async def test_hints_and_the_end_read_the_deals_analysis(stores: Stores, pool: SolverPool,
                                                         clock: Clock):
    lanes = Lanes(pool)
    services, _ = new_services(stores, lanes, clock, seed=11)  # type: ignore[arg-type]
    dealt = await services.rounds.play(GROUP, ANN, "24")
    current = dealt.round
    assert current is not None
    assert services.rounds.analyses.known("24", current.hand, current.target) is not None
    lanes.closed = True  # from here, any solver work fails the test
    hint = await services.rounds.hint(GROUP, ANN)
    assert hint.reaction == "👌" and isinstance(hint, Edited)
    revealed = await services.rounds.reveal(GROUP, ANN)
    assert isinstance(revealed, Closed) and "= 24" in revealed.text


async def test_a_round_without_its_analysis_gets_one_in_the_heavy_lane(
        stores: Stores, pool: SolverPool, clock: Clock):
    lanes = Lanes(pool)
    services, _ = new_services(stores, lanes, clock, seed=12)  # type: ignore[arg-type]
    for game in ("24", "countdown", "yahtzee"):
        current = (await services.rounds.play(GROUP, BEN, game)).round
        assert current is not None
        services.rounds.analyses.forget((game, current.hand, current.target))  # a restart
        lanes.calls.clear()
        assert isinstance(await services.rounds.reveal(GROUP, BEN), Closed)
        assert ("heavy", "analyse") in lanes.calls


def weight(analysis: Analysis) -> int:
    """What an analysis weighs in the memo: its record pickled, its key and slot."""
    return ENTRY_BYTES + len(pickle.dumps(analysis, protocol=pickle.HIGHEST_PROTOCOL))


def test_the_memo_of_analyses_is_bounded_by_what_it_holds(pool: SolverPool):
    six, one = Analysis(solutions=("a",) * 6), Analysis(solutions=("b",))
    three = Analysis(solutions=("c",) * 3)
    memo = Analyses(pool, kept=weight(six) + weight(one) + weight(three) - 1)
    memo.keep("24", (1, 2, 3, 4), 24, six)
    memo.keep("24", (3, 3, 8, 8), 24, one)
    assert memo.held == weight(six) + weight(one)
    assert memo.known("24", (1, 2, 3, 4), 24) == six  # as kept
    memo.keep("24", (1, 1, 4, 6), 24, three)  # over: the oldest goes
    assert memo.known("24", (1, 2, 3, 4), 24) is None
    assert memo.held == weight(one) + weight(three)
    memo.keep("24", (3, 3, 8, 8), 24, one)  # kept again: counted once
    assert memo.held == weight(one) + weight(three)
