"""A costly deal's search runs in slices (issue 24 item 4): each slice is a trip of its own to the
heavy lane, so another person's question gets in between, and the slices together deal what one
search deals: the same draws, the same budget in all. Nothing here asserts how long anything
took; where time matters the clock is a fake one."""

from __future__ import annotations

import asyncio
import pickle
import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.play.dealing.stock import Stock
from bot.play.games import GAMES
from bot.play.games.twentyfour import rules as twentyfour
from bot.play.games.twentyfour.rules import Search, deal, ready, solutions
from bot.play.rules import PlayOptions, batches
from bot.play.rules.batches import Unfinished, deal_many, deal_slice
from bot.runtime.pool import SPARES, SolverPool, SolverTimeout
from tests.waiting import BOUND

TROLL, BYSTANDER = 92_401, 92_402
# A rare deal's budget in the pool tests, never reached: five numbers for 501 have no easy hand,
# so the search ends after its DEAL_TRIES draws (about 0.8 s of CPU, several slices of
# SLICE_SECONDS), on any machine. A budget that binds is read from the wall clock, and the
# pool's worker runs niced: on a loaded machine one slice could spend all of it.
BUDGET = 30.0


def to_the_end(seed: int, *args: Any, slice_seconds: float = 0.0) -> tuple[Any, int]:
    """deal() in slices until it ends, each Search pickled and unpickled on the way (as when
    the next slice runs in another worker): the deal and how many slices it took."""
    made: Any = deal(seed, *args, slice_seconds=slice_seconds)
    slices = 1
    while isinstance(made, Search):
        made = deal(pickle.loads(pickle.dumps(made)), *args, slice_seconds=slice_seconds)
        slices += 1
    return made, slices


@pytest.mark.parametrize(("level", "count", "target"), [
    (None, 4, 24), ("hard", 4, 24), (None, 4, 997), ("hard", 5, 24), (None, 5, 501),
    ("easy", 5, 501)])
def test_slices_deal_what_one_search_deals(level, count, target):
    """With a budget that never binds, the deal depends only on the seed's draws: a search that
    pauses after every hand deals the same hand at the same level."""
    for seed in range(4):
        whole = deal(seed, level, count, target, 60.0)
        sliced, _ = to_the_end(seed, level, count, target, 60.0)
        assert sliced == whole and not isinstance(whole, Unfinished)


def test_a_long_search_really_pauses():
    """Five numbers for 501 are always hard: an easy one is searched for all DEAL_TRIES draws,
    one slice a hand, then the first solvable hand is dealt with its own level."""
    sliced, slices = to_the_end(3, "easy", 5, 501, 60.0)
    assert slices == twentyfour.DEAL_TRIES
    assert sliced == deal(3, "easy", 5, 501, 60.0)
    assert sliced is not None and sliced.level == "hard"


class FakeCost:
    """A clock that only moves when a hand is rated, by `each` seconds."""

    def __init__(self, each: float) -> None:
        self.now, self.each, self.rated = 100.0, each, 0

    def monotonic(self) -> float:
        return self.now

    def rated_level(self, hand: Any, target: int) -> str:
        self.now += self.each
        self.rated += 1
        return "hard"


def test_the_slices_share_one_budget(monkeypatch):
    """Rating a hand costs 1/8 s here and an easy hand never comes: one search rates 8 hands in
    its 1 s; in slices of 1/4 s, four slices rate 2 hands each, 8 in all, and deal the same."""
    cost = FakeCost(0.125)
    monkeypatch.setattr(twentyfour, "time", SimpleNamespace(monotonic=cost.monotonic))
    monkeypatch.setattr(twentyfour, "rated_level", cost.rated_level)
    whole = deal(5, "easy", 6, 501, 1.0)
    assert cost.rated == 8
    cost.rated = 0
    made = deal(5, "easy", 6, 501, 1.0, slice_seconds=0.25)
    per_slice = [cost.rated]
    while isinstance(made, Search):
        made = deal(made, "easy", 6, 501, 1.0, slice_seconds=0.25)
        per_slice.append(cost.rated - sum(per_slice))
    assert per_slice == [2, 2, 2, 2] and made == whole


class FakeCPU:
    """A CPU clock (batches' time.process_time) that only moves when a hand is made."""

    def __init__(self, each: float) -> None:
        self.now, self.each = 50.0, each

    def process_time(self) -> float:
        return self.now

    def making(self, make: Any) -> Any:
        """`make`, costing `each` CPU seconds a call."""
        def costly(*args: Any, **kwargs: Any) -> Any:
            self.now += self.each
            return make(*args, **kwargs)
        return costly


def test_a_slice_and_a_batch_say_the_cpu_seconds_each_deal_took(monkeypatch):
    """What the stock charges a deal is the CPU time its making took, read around it."""
    cpu = FakeCPU(0.25)
    monkeypatch.setattr(batches, "time", SimpleNamespace(process_time=cpu.process_time))
    made, spent = deal_slice(cpu.making(ready), 3, 0.0, "easy", 5, 501, 60.0)
    assert isinstance(made, Search) and spent == 0.25
    made = [cost for _, cost in deal_many(cpu.making(ready), [3, 4], None, 4, 24, 60.0)]
    assert made == [0.25, 0.25]


def test_a_slice_in_a_worker_returns_the_search_or_the_deal():
    made, _ = deal_slice(ready, 3, 0.0, "easy", 5, 501, 60.0)
    assert isinstance(made, Search) and made.tries == 1
    while isinstance(made, Search):
        made, _ = deal_slice(ready, made, 60.0, "easy", 5, 501, 60.0)
    assert made is not None and made.analysis is not None
    assert made == ready(3, "easy", 5, 501, 60.0)
    assert [dealt for dealt, _ in deal_many(ready, [3], "easy", 5, 501, 60.0)] == [made]


class Lanes:
    """The pool, with a record of the heavy lane's work in order of asking."""

    def __init__(self, pool: SolverPool) -> None:
        self.pool, self.asked = pool, []

    async def run_heavy(self, fn, *args, **kwargs) -> Any:
        self.asked.append((getattr(fn, "__name__", fn), kwargs.get("who")))
        return await self.pool.run_heavy(fn, *args, **kwargs)


@pytest.mark.slow
async def test_another_persons_question_gets_in_between_a_rare_deals_slices(
        pool: SolverPool):
    """A troll's rare deal (five numbers for 501, an easy one asked: every draw of its search)
    holds the one heavy worker for a slice at a time: a bystander's /solve asked while it is
    being made is answered before it is done; then the troll gets the deal one search makes,
    and the kind's spare is made in slices too, as nobody's work."""
    lanes = Lanes(pool)
    seeds = random.Random(8)
    stock = Stock(lanes, lambda: seeds.getrandbits(64))  # type: ignore[arg-type]
    first_seed = random.Random(8).getrandbits(64)
    rare = PlayOptions(level="easy", count=5, target=501)
    taking = asyncio.create_task(stock.take(GAMES["24"].rules, rare, BUDGET, who=TROLL))
    while ("deal_slice", TROLL) not in lanes.asked:
        await asyncio.sleep(0.01)
    answer = await lanes.run_heavy(solutions, (1, 5, 7, 9, 12), 61, who=BYSTANDER)
    assert answer == solutions((1, 5, 7, 9, 12), 61)
    assert not taking.done()  # the bystander did not wait for the whole search
    dealt, cost = await taking
    assert lanes.asked.count(("deal_slice", TROLL)) > 1 and cost > 0
    assert dealt is not None and dealt == ready(first_seed, "easy", 5, 501, BUDGET)
    assert dealt.level == "hard"  # no easy hand for 501: the first solvable one
    lanes.asked.clear()
    assert await stock.fill(GAMES["24"].rules, rare, BUDGET) == 2
    # the spares in slices, as nobody's work (how many a search takes depends on the machine's
    # speed and on what the troll's search left: a quick one finds both hands in one each, or
    # less)
    assert set(lanes.asked) == {("deal_slice", None)}


@pytest.mark.slow
async def test_a_rare_deal_nobody_waits_for_any_more_goes_on_as_a_spare(pool: SolverPool):
    """The troll stops waiting after the first slice: the rest of the search is nobody's work
    (the lowest rank, in no one's turn), and the hand lands on the shelf for the next ask."""
    lanes = Lanes(pool)
    seeds = random.Random(9)
    stock = Stock(lanes, lambda: seeds.getrandbits(64))  # type: ignore[arg-type]
    first_seed = random.Random(9).getrandbits(64)
    rare = PlayOptions(level="easy", count=5, target=502)
    taking = asyncio.create_task(stock.take(GAMES["24"].rules, rare, BUDGET, who=TROLL))
    while ("deal_slice", TROLL) not in lanes.asked:
        await asyncio.sleep(0.01)
    taking.cancel()
    asked_before = len(lanes.asked)
    assert await stock.fill(GAMES["24"].rules, rare, BUDGET) == 2
    later = lanes.asked[asked_before:]
    assert later and all(who is None for _, who in later)
    dealt, _ = await stock.take(GAMES["24"].rules, rare, BUDGET, who=TROLL)
    assert dealt is not None and dealt == ready(first_seed, "easy", 5, 502, BUDGET)


def wait_for_file(path: str, limit: float = 60.0) -> bool:
    """Holds a worker until the file exists (at most `limit` s)."""
    ends = time.monotonic() + limit
    while not Path(path).exists() and time.monotonic() < ends:
        time.sleep(0.01)
    return True


async def test_a_spare_waits_behind_others_work_with_its_limit_not_running(
        pool: SolverPool, tmp_path: Path):
    """A spare's slice (nobody waits for it) may wait behind everyone's work longer than its
    time limit: the limit counts from when a worker takes it. Work someone waits for is
    still stopped when its wait runs past the limit, and a spare that runs past it too."""
    release = tmp_path / "release"
    holder = asyncio.ensure_future(pool.run_heavy(wait_for_file, str(release)))
    spare = asyncio.ensure_future(pool.run_heavy(sum, (1, 2), timeout=1.0, rank=SPARES,
                                                 waiting_counts=False))
    asked = asyncio.ensure_future(pool.run_heavy(sum, (3, 4), timeout=1.0, rank=SPARES))
    with pytest.raises(SolverTimeout):  # its wait ran past its limit: stopped
        await asyncio.wait_for(asked, BOUND)
    assert not spare.done()  # asked for before it, the spare waits on, its limit not running
    release.touch()
    assert await holder and await spare == 3
    with pytest.raises(SolverTimeout):  # nothing ahead of it: stopped 1 s after it starts
        await pool.run_heavy(wait_for_file, str(tmp_path / "never"), 30.0, timeout=1.0,
                             rank=SPARES, waiting_counts=False)
