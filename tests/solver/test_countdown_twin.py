"""Countdown's compiled search (solver/native/countdown.c) against its pure twin: the same answers.

The pure search (solver.countdown_search) is the reference. TV deals (six tiles of two each of
1..10 and 25 50 75 100, targets 100..999), their near misses, bigger and repeated numbers, both
rule sets and 1 to 8 numbers: the same best and nearest values and the same expressions; the
single questions (reaches, window, the largest value) on random sub-hands; hands whose values
could pass 62 bits go to the pure search. And the compiled search must be built and in use.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.countdown_native as countdown_native
from solver.countdown import CountdownResult, solve_countdown
from solver.countdown_search import HandSearch
from tests.conftest import without_native
from tests.solver.test_countdown import check

NATIVE = countdown_native.NATIVE


@pytest.fixture(scope="session")
def native_in_use() -> None:
    """The compiled search answers, or the test skips (fails where REQUIRE_NATIVE=1)."""
    if NATIVE is None:
        without_native(f"Countdown {countdown_native.STATUS}")


needs_native = pytest.mark.usefixtures("native_in_use")
SMALL = [n for n in range(1, 11) for _ in range(2)]
LARGE = [25, 50, 75, 100]


@contextmanager
def pure() -> Iterator[None]:
    """solve_countdown answered by the pure search."""
    saved, countdown_native.NATIVE = countdown_native.NATIVE, None
    try:
        yield
    finally:
        countdown_native.NATIVE = saved


def both(numbers: list[int], target: int, rules: str = "subset") -> CountdownResult:
    """The compiled search's result, once checked equal to the pure one's and valid."""
    native = solve_countdown(numbers, target, rules)
    with pure():
        reference = solve_countdown(numbers, target, rules)
    assert native == reference, (numbers, target, rules)
    check(native, rules)
    return native


def tv_deal(rng: random.Random) -> tuple[list[int], int]:
    large = rng.randint(0, 4)
    return rng.sample(LARGE, large) + rng.sample(SMALL, 6 - large), rng.randint(100, 999)


def test_native_is_built_and_in_use():
    """`pip install -e .` builds the compiled search; only SOLVER_PURE=1 turns it off."""
    if os.environ.get("SOLVER_PURE") == "1":
        assert NATIVE is None and "SOLVER_PURE=1" in countdown_native.STATUS
        return
    assert NATIVE is not None, countdown_native.STATUS
    assert isinstance(countdown_native.new_search((1, 2, 3), True), NATIVE.Search)


@needs_native
def test_solve_countdown_asks_the_native_search(monkeypatch):
    """solve_countdown goes through the compiled search when it is there."""
    made = []

    class Recording:
        @staticmethod
        def Search(hand, subset):  # stands in for the extension's class
            made.append((hand, subset))
            return NATIVE.Search(hand, subset)

    monkeypatch.setattr(countdown_native, "NATIVE", Recording)
    assert solve_countdown([3, 7, 25], 100, "subset").exact
    assert made == [((3, 7, 25), True)]


@needs_native
def test_tv_deals_agree():
    rng = random.Random(28)
    for _ in range(400):
        both(*tv_deal(rng))


@needs_native
def test_tv_deals_without_an_exact_answer_agree():
    """Far more near misses than random deals hold: large tiles and high targets."""
    rng = random.Random(2028)
    missed = 0
    while missed < 40:
        numbers, target = tv_deal(rng)
        missed += not both(numbers, target).exact
    assert missed == 40


@needs_native
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 100), min_size=1, max_size=6), st.integers(1, 5000),
       st.sampled_from(["all", "subset"]))
def test_random_hands_agree(numbers, target, rules):
    both(numbers, target, rules)


@needs_native
@pytest.mark.parametrize(("numbers", "target", "rules"), [
    ([100, 75, 50, 25, 1, 1], 999, "subset"),
    ([1, 1, 2, 2, 3, 3], 999, "subset"),  # nothing near: a long scan down
    ([7, 7, 7, 7, 7, 7], 99_999, "all"),  # equal sub-hands shared
    ([7, 7, 7, 7, 7, 7], 99_999, "subset"),
    ([1000, 999, 1000, 998, 1000, 997], 1, "all"),  # zeros: x - x, then x * 0 and 0 / x
    ([1000, 999, 1000, 998, 1000, 997], 1, "subset"),
    ([100, 100], 1, "all"),
    ([500, 1000], 1, "all"),  # nothing at most 1: best None
    ([1], 1, "subset"),
    ([2], 100_000, "all"),
    ([1000] * 6, 100_000, "all"),  # 10^18: the largest value within 62 bits
    ([1, 2, 3, 4, 5, 6, 7], 5040, "subset"),
    ([3, 5, 7, 11, 13, 17, 19, 23], 99_991, "all"),
    ([2, 2, 3, 3, 4, 7], 914, "subset"),
    ([8, 9, 10, 6, 4, 7], 80_296, "all"),
])
def test_edge_cases_agree(numbers, target, rules):
    both(numbers, target, rules)


def test_hands_past_62_bits_go_to_the_pure_search():
    """1000^7 > 2^62: the compiled search refuses the hand and the pure one answers."""
    hand = (997, 998, 999, 1000, 1000, 1000, 1000)
    assert isinstance(countdown_native.new_search(hand, False), HandSearch)
    if NATIVE is not None:
        with pytest.raises(OverflowError):
            NATIVE.Search(hand, False)
        assert isinstance(countdown_native.new_search(hand[:6], False), NATIVE.Search)
    result = solve_countdown(list(hand), 1, "all")
    check(result, "all")


@needs_native
def test_single_questions_agree():
    """reaches, window and ceiling of random sub-hands, asked in random orders (the searches
    build sets as they are asked, so the order takes different paths)."""
    rng = random.Random(19)
    for _ in range(60):
        hand = tuple(sorted(rng.choice([rng.randint(1, 12), rng.randint(1, 100)])
                            for _ in range(rng.randint(1, 6))))
        subset = rng.random() < 0.5
        native, reference = NATIVE.Search(hand, subset), HandSearch(hand, subset)
        assert (native.full, native.low) == (reference.full, reference.low)
        for _ in range(25):
            m = rng.randint(1, native.full)
            w = rng.randint(-5, 3000)
            assert native.reaches(m, w) == reference.reaches(m, w), (hand, subset, m, w)
            lo = rng.randint(-50, 2000)
            hi = lo + rng.randint(-10, 400)
            assert set(native.window(m, lo, hi)) == reference.window(m, lo, hi)
            enough = rng.randint(1, 10**6)
            assert native.ceiling(enough) == reference.ceiling(enough)
        assert native.values(native.full) == sorted(reference.values(reference.full))


@needs_native
def test_bad_arguments_are_refused():
    search = NATIVE.Search((2, 3), True)
    with pytest.raises(ValueError):
        search.reaches(4, 5)  # not a sub-hand of two numbers
    with pytest.raises(ValueError):
        NATIVE.Search((3, 2), True)  # not sorted
    with pytest.raises(ValueError):
        NATIVE.Search((), True)
    assert search.reaches(3, 2**70) is False
    assert search.window(3, -(2**70), 2**70) == [1, 2, 3, 5, 6]
