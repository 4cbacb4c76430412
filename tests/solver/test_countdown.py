"""Countdown: the issue's checks, every expression re-checked step by step, and a brute force."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import InputError, evaluate, parse
from solver.countdown import countdown_solutions, solve_countdown, steps_ok


@cache
def brute(hand: tuple[int, ...], low: int) -> frozenset[int]:
    """Every value one sub-expression over exactly `hand` makes, steps whole and >= low."""
    if len(hand) == 1:
        return frozenset(hand)
    out: set[int] = set()
    n = len(hand)
    for mask in range(1, (1 << n) - 1):
        a_hand = tuple(hand[i] for i in range(n) if mask >> i & 1)
        b_hand = tuple(hand[i] for i in range(n) if not mask >> i & 1)
        for a in brute(a_hand, low):
            for b in brute(b_hand, low):
                for v in (a + b, a - b, a * b, a // b if b and a % b == 0 else None):
                    if v is not None and v >= low:
                        out.add(v)
    return frozenset(out)


def brute_best(numbers, target, rules):
    hand = tuple(sorted(numbers))
    if rules == "all":
        values = brute(hand, 0)
    else:
        n = len(hand)
        values = frozenset().union(*(brute(tuple(hand[i] for i in range(n) if m >> i & 1), 1)
                                     for m in range(1, 1 << n)))
    below = [v for v in values if v <= target]
    best = max(below) if below else None
    nearest = min(values, key=lambda v: (abs(v - target), v))
    return best, nearest


def check(result, rules):
    """The reported expressions make the reported values with the game's steps and numbers."""
    for value, text in ((result.best, result.expression),
                        (result.nearest, result.nearest_expression)):
        if value is None:
            continue
        expr = parse(text)
        assert evaluate(expr) == value
        assert steps_ok(expr, rules)
        used = sorted(int(t) for t in text.replace("(", " ").replace(")", " ")
                      .replace("+", " ").replace("-", " ").replace("*", " ").replace("/", " ")
                      .split())
        remaining = list(result.numbers)
        for n in used:
            remaining.remove(n)  # each number at most once
        if rules == "all":
            assert not remaining


def test_seed_example():
    result = solve_countdown([1, 2, 3, 4, 7, 25], 573, "all")
    assert result.best == 573 and result.exact
    check(result, "all")


def test_tv_examples():
    assert solve_countdown([1, 3, 7, 10, 25, 50], 765).best == 765
    result = solve_countdown([1, 3, 7, 10, 25, 50], 831)
    assert (result.best, result.nearest) == (830, 830)
    check(result, "subset")
    result = solve_countdown([10, 16, 58, 80, 99, 99], 219)
    assert result.exact
    check(result, "subset")
    result = solve_countdown([1, 1, 2, 2, 3, 3], 999)
    assert result.best == 81 and result.nearest == 81


def test_no_cap_on_intermediates():
    result = solve_countdown([98, 34, 80, 60, 66, 32], 387, "all")
    assert result.best == 387
    check(result, "all")


def test_nearest_may_be_above_and_ties_go_low():
    result = solve_countdown([5], 7)
    assert (result.best, result.nearest) == (5, 5)
    result = solve_countdown([10], 3)
    assert result.best is None and result.nearest == 10
    result = solve_countdown([2, 2], 5)  # 4 below, 6 above... 4 and 6 tie: the lower
    assert result.best == 4 and result.nearest == 4


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=4), st.integers(1, 200),
       st.sampled_from(["all", "subset"]))
def test_against_brute_force(numbers, target, rules):
    result = solve_countdown(numbers, target, rules)
    assert (result.best, result.nearest) == brute_best(numbers, target, rules)
    check(result, rules)


def test_sample_of_tv_selections_against_brute_force():
    rng = random.Random(2024)
    small = [n for n in range(1, 11) for _ in range(2)]
    for _ in range(4):
        large = rng.randint(0, 4)
        numbers = rng.sample([25, 50, 75, 100], large) + rng.sample(small, 5 - large)
        target = rng.randint(101, 999)
        result = solve_countdown(numbers, target, "subset")
        assert (result.best, result.nearest) == brute_best(numbers, target, "subset")
        check(result, "subset")


def test_solutions_reuse_the_24_equivalence():
    solutions = countdown_solutions([1, 3, 7, 10, 25, 50], 765)
    assert solutions and len(set(solutions)) == len(solutions)
    for text in solutions:
        assert evaluate(text) == 765 and steps_ok(parse(text), "subset")
    fewer = countdown_solutions([2, 3, 100], 6)
    assert "2*3" in fewer
    assert countdown_solutions([1, 2, 3, 4, 7, 25], 573, "all")


@pytest.mark.parametrize(("numbers", "target", "rules"), [
    ([], 100, "subset"), ([0, 5], 100, "subset"), ([1001], 100, "all"), ([5], 0, "all"),
    ([5], 100_001, "all"), ([5], 10, "tv"), (list(range(1, 10)), 100, "all")])
def test_bad_games(numbers, target, rules):
    with pytest.raises(InputError):
        solve_countdown(numbers, target, rules)
