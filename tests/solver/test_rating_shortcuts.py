"""solver.rating with five and six numbers: shortcuts people see (a pair that cancels, a 1, two
numbers one apart, a+b-c) make a hand easy, and the levels of random deals keep their shares."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import solver.rating as rating_module
from solver import LEVELS, UnsolvableError, is_solvable, level, rate, rating_of
from solver.rating import SPOT, SPOT_NEXT, SPOT_STEP

NUMBER = st.integers(1, 13)
EPSILON = 1e-9  # the chances are floats: a shortcut's bound holds up to rounding
# Two numbers of 1..13 that make 24 in one step: 12+12, 2*12, 3*8, 4*6, 11+13
ONE_STEP = [pair for pair in itertools.combinations_with_replacement(range(1, 14), 2)
            if is_solvable(pair)]


def difficulty(hand: list[int] | tuple[int, ...]) -> float | None:
    try:
        return rate(hand)
    except UnsolvableError:
        return None


def cancel_one_step(hand: tuple[int, ...]) -> bool:
    """Two equal numbers cancel and two of the others make 24: 12 4 7 12 7."""
    for picked in itertools.combinations(range(len(hand)), 2):
        rest = [x for i, x in enumerate(hand) if i not in picked]
        if is_solvable([hand[i] for i in picked]) and len(set(rest)) < len(rest):
            return True
    return False


@pytest.mark.parametrize("hand", [
    (12, 4, 7, 12, 7),  # 12+12+(7-7)*4
    (3, 8, 5, 5, 9),  # 3*8+(5-5)*9
    (4, 6, 11, 11, 2, 13),  # 4*6+(11-11)*2*13
    (13, 11, 1, 1, 9, 5),  # 13+11+(1-1)*9*5
    (2, 12, 7, 7, 7, 7),  # 2*12+(7-7)*(7-7)
    (6, 6, 6, 6, 4),  # 6*4+(6-6)*(6-6)
])
def test_a_cancelling_pair_and_one_step_is_easy(hand):
    assert cancel_one_step(hand)
    assert rate(hand) <= SPOT + EPSILON
    assert level(hand) == "easy"


def test_the_example_of_the_issue():
    result = rating_of((12, 4, 7, 12, 7))
    assert result.level == "easy" and result.difficulty == pytest.approx(SPOT)
    assert rate((12, 4, 7, 12, 7)) < rate((4, 7, 9, 11, 13))  # no shortcut there


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ONE_STEP), NUMBER, st.lists(NUMBER, min_size=1, max_size=2))
def test_never_hard_when_a_pair_cancels_and_two_numbers_make_it(pair, x, others):
    hand = [*pair, x, x, *others]
    assert rate(hand) <= SPOT + EPSILON
    assert level(hand) == "easy"


@settings(max_examples=60, deadline=None)
@given(st.lists(NUMBER, min_size=3, max_size=4), NUMBER)
def test_a_cancelling_pair_costs_at_most_spotting_it(hand, x):
    """Adding x, x to a solvable hand H: x-x swallows nothing and H is left, so the bigger hand
    is at most SPOT harder than H (and easier when the walk or another shortcut does better)."""
    alone = difficulty(hand)
    assume(alone is not None)
    assert rate([*hand, x, x]) <= alone + SPOT + EPSILON


@settings(max_examples=40, deadline=None)
@given(st.lists(NUMBER, min_size=4, max_size=5))
def test_a_one_costs_at_most_spotting_it(hand):
    alone = difficulty(hand)
    assume(alone is not None)
    assert rate([*hand, 1]) <= alone + SPOT + EPSILON


@settings(max_examples=40, deadline=None)
@given(st.lists(NUMBER, min_size=3, max_size=4), st.integers(1, 12))
def test_two_numbers_one_apart_cost_at_most_spotting_them(hand, a):
    alone = difficulty(hand)
    assume(alone is not None)
    assert rate([*hand, a, a + 1]) <= alone + SPOT_NEXT + EPSILON


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ONE_STEP), st.integers(1, 6), st.integers(1, 6), st.booleans())
def test_three_numbers_where_two_make_the_third_cancel(pair, a, b, product):
    hand = [*pair, a, b, a * b if product else a + b]
    assert rate(hand) <= SPOT_STEP + EPSILON
    assert level(hand) == "easy"


@settings(max_examples=40, deadline=None,  # most three-number hands are not easy ones
          suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(NUMBER, min_size=3, max_size=3), NUMBER)
def test_an_easy_hand_and_a_cancelling_pair_is_never_a_hard_five(hand, x):
    alone = difficulty(hand)
    assume(alone is not None and rating_module.level_of(alone, 3) == "easy")
    assert level([*hand, x, x]) != "hard"


def test_a_shortcut_that_leaves_a_hard_hand_does_not_make_it_easy():
    """3 3 8 8 and a 1: setting the 1 aside leaves 8/(3-8/3), and nothing else helps."""
    assert rate((1, 3, 3, 8, 8)) >= rating_module.CUTS[5][1]
    assert rate((1, 3, 3, 8, 8)) <= rate((3, 3, 8, 8)) + SPOT + EPSILON


def test_four_numbers_keep_the_fitted_walk():
    """Shortcuts start at five numbers: four-number hands, fitted to people's times, are rated by
    the walk alone, even those where a shortcut would rate them easier (12 12 7 7)."""
    hands = [hand for hand in itertools.combinations_with_replacement(range(1, 14), 4)
             if is_solvable(hand)]
    walk = {hand: -math.log2(rating_module._chance(hand, 24)) for hand in hands}
    shortcut = {hand: -math.log2(rating_module._shortcut_chance(hand, 24)) for hand in hands
                if rating_module._shortcut_chance(hand, 24) > 0}
    assert sum(shortcut[hand] < walk[hand] for hand in shortcut) > 50
    assert all(rate(hand) == pytest.approx(walk[hand], abs=1e-12) for hand in hands)


@pytest.mark.slow
@pytest.mark.parametrize(("count", "hands"), [(5, 240), (6, 90)])
def test_level_shares_of_random_deals(count, hands):
    """Seeded random solvable deals of 1..13 split about 40/35/25 % (the cuts' aim), and no hard
    one is a cancelling pair plus one step."""
    rng, levels = random.Random(count), []
    while len(levels) < hands:
        drawn = tuple(rng.randint(1, 13) for _ in range(count))
        if is_solvable(drawn):
            levels.append(level(drawn))
            if levels[-1] == "hard":
                assert not cancel_one_step(drawn), drawn
    share = {name: levels.count(name) / len(levels) for name in LEVELS}
    assert share["easy"] == pytest.approx(0.40, abs=0.12), share
    assert share["medium"] == pytest.approx(0.35, abs=0.12), share
    assert share["hard"] == pytest.approx(0.25, abs=0.12), share
