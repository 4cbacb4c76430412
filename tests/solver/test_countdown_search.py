"""Countdown's search (solver.countdown_search) against a plain subset DP, on every path it takes.

The plain DP (`brute` in test_countdown) builds every value of every sub-multiset; the search
asks single values, then ranges, and builds sub-hands only when asked often. Each path is forced
here by its tuning constants, and each must give the DP's answer. The compiled twin is put
aside here (test_countdown_twin holds it to this search); test_countdown checks what answers.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import solver.countdown as countdown
import solver.countdown_native as countdown_native
import solver.countdown_search as search
from solver.countdown import solve_countdown
from solver.countdown_search import HandSearch
from tests.solver.test_countdown import brute, brute_best, check

RULES = st.sampled_from(["all", "subset"])


@pytest.fixture(autouse=True)
def pure_search(monkeypatch):
    """solve_countdown answered by the pure search, whose paths these tests force."""
    monkeypatch.setattr(countdown_native, "NATIVE", None)


def agrees(numbers: list[int], target: int, rules: str) -> None:
    """The search's best and nearest values are the DP's, and its expressions are valid."""
    result = solve_countdown(numbers, target, rules)
    expected = brute_best(numbers, target, rules)
    brute.cache_clear()  # six numbers' value sets are big; keep memory flat
    assert (result.best, result.nearest) == expected
    check(result, rules)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 100), min_size=6, max_size=6), st.integers(1, 1000), RULES)
def test_issue_games_match_the_plain_dp(numbers, target, rules):
    """Issue 12's games: six numbers 1..100, targets 1..1000, both rule sets."""
    agrees(numbers, target, rules)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([1, 2, 3, 5, 7, 10, 25, 100, 1000]), min_size=2, max_size=6),
       st.integers(1, 100_000), RULES)
def test_sparse_values_far_from_the_target(numbers, target, rules):
    """Repeated and large numbers with big targets: long scans, answered by ranges."""
    agrees(numbers, target, rules)


def test_seed_example_uses_every_number_once():
    result = solve_countdown([1, 2, 3, 4, 7, 25], 573, "all")
    assert (result.best, result.nearest) == (573, 573)
    check(result, "all")  # every number exactly once, every step a whole number >= 0


@pytest.mark.parametrize(("numbers", "target", "rules"), [
    ([7, 7, 7, 7, 7, 7], 99_999, "all"),  # one multiset per size: equal sub-hands shared
    ([7, 7, 7, 7, 7, 7], 99_999, "subset"),
    ([2, 2, 3, 3, 4, 7], 914, "subset"),  # 914 down to 840: a long scan
    ([8, 9, 10, 6, 4, 7], 80_296, "all"),  # nothing from 50,400 to 80,296
    ([1000, 999, 1000, 998, 1000, 997], 1, "all"),  # zeros: x - x, then x * 0 and 0 / x
    ([1000, 999, 1000, 998, 1000, 997], 1, "subset"),
    ([100, 100], 1, "all"),  # 100 - 100 = 0 is below 1 and 100 / 100 = 1 is exact
    ([500, 1000], 1, "all"),  # nothing at most 1: best None, nearest 2
])
def test_hard_corners(numbers, target, rules):
    agrees(numbers, target, rules)


@pytest.mark.parametrize("tuning", [
    {"BUILD": 2, "PATIENCE": 0},  # every sub-hand built as soon as it is asked
    {"BUILD": 2, "PATIENCE": 10**9},  # nothing above pairs built: meet in the middle only
    {"WINDOW_BUILD": 3, "FEW": 0},  # ranges through unbuilt sub-hands, by bisection only
    {"FEW": 10**9},  # ranges by combining pairs only
    {"SINGLE_VALUES": 0, "FIRST_RANGE": 1},  # a scan of ranges from the start
    {"PREPARE_AFTER": 0},  # the whole hand's parts built before the first value is asked
    {"SINGLE_VALUES": 10**9},  # a scan of single values only
])
def test_every_path_agrees_with_the_plain_dp(monkeypatch, tuning):
    for name, value in tuning.items():
        monkeypatch.setattr(countdown if hasattr(countdown, name) else search, name, value)
    monkeypatch.setattr(search, "PATIENCE_BY_COUNT",
                        [search.patience(count) for count in range(10)])
    rng = random.Random(str(tuning))
    for _ in range(12):
        numbers = [rng.choice([rng.randint(1, 12), rng.randint(1, 100)])
                   for _ in range(rng.randint(1, 6))]
        agrees(numbers, rng.choice([rng.randint(1, 1000), rng.randint(1, 20_000)]),
               rng.choice(["all", "subset"]))


def values_of(hand: tuple[int, ...], rules: str) -> frozenset[int]:
    """The DP's values: of the whole hand ("all") or of any part of it ("subset")."""
    if rules == "all":
        return brute(hand, 0)
    subs = {tuple(hand[i] for i in range(len(hand)) if m >> i & 1)
            for m in range(1, 1 << len(hand))}
    return frozenset().union(*(brute(sub, 1) for sub in subs))


RANGE_PATHS = [{}, {"WINDOW_BUILD": 2, "FEW": 0}, {"WINDOW_BUILD": 2, "FEW": 10**9}]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=6), st.integers(0, 600),
       st.integers(0, 300), RULES, st.sampled_from(RANGE_PATHS))
@example([2, 3, 100], 94, 0, "all", RANGE_PATHS[1])  # 100 - 2 * 3: the smaller side minus
def test_window_is_the_values_in_range(numbers, lo, width, rules, tuning):
    """Ranges through built sides (bisection), unbuilt ones (recursion) and pairs."""
    hand = tuple(sorted(numbers))
    expected = {v for v in values_of(hand, rules) if lo <= v <= lo + width}
    brute.cache_clear()
    with pytest.MonkeyPatch.context() as patch:
        for name, value in tuning.items():
            patch.setattr(search, name, value)
        found = HandSearch(hand, rules == "subset").window((1 << len(hand)) - 1, lo, lo + width)
    assert found == expected
