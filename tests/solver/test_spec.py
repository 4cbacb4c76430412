"""The fast solvers against the executable spec (tests/solver/spec.py), on hands of 1 to 5 numbers.

Both solvers answer: the compiled core when it is built, and the pure-Python one (the core set
aside for the call). They must agree with the spec on whether a hand makes a target, every
solution they print must be worth the target exactly with the hand's numbers, and the values the
search reaches (it forms no negative value) must be the sizes of the spec's values.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from solver import canonical, evaluate, first_solution, is_solvable, native, solve
from solver.search import reachable_values
from tests.conftest import without_native
from tests.solver import spec


@contextmanager
def answered_by(path: str) -> Iterator[None]:
    """The solvers' answers from the core ("native") or from the pure-Python search ("pure")."""
    if path == "native" and native.CORE is None:
        without_native(native.STATUS)
    saved = native.CORE
    if path == "pure":
        native.CORE = None
    try:
        yield
    finally:
        native.CORE = saved


PATHS = ["native", "pure"]
numbers = st.integers(0, 9)
small_hands = st.lists(numbers, min_size=1, max_size=4)
five_hands = st.lists(numbers, min_size=5, max_size=5)
# targets the hands often make, and some they rarely do
targets = st.one_of(st.integers(-10, 30), st.sampled_from([24, 0, 1, -24, 100]))


def check_against_spec(hand: list[int], target: int) -> None:
    expected = spec.solvable(hand, target)
    assert is_solvable(hand, target) == expected, (hand, target)
    found = solve(hand, target)
    assert bool(found) == expected, (hand, target, found)
    for text in found:
        assert evaluate(text, hand) == target, (hand, target, text)
    first = first_solution(hand, target)
    assert (first is not None) == expected
    if first is not None:
        assert evaluate(first, hand) == target
        assert canonical(first) in {canonical(text) for text in found}  # one of the same


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=80, deadline=None)
@given(hand=small_hands, target=targets)
@example(hand=[3, 3, 8, 8], target=24)
@example(hand=[1, 5, 5, 5], target=24)
@example(hand=[0], target=0)
@example(hand=[0, 0, 7], target=-7)
def test_solvability_and_solutions_up_to_four(path, hand, target):
    with answered_by(path):
        check_against_spec(hand, target)


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=10, deadline=None)
@given(hand=five_hands, target=targets)
@example(hand=[1, 2, 4, 8, 9], target=24)
@example(hand=[0, 0, 0, 0, 0], target=1)
def test_solvability_and_solutions_five(path, hand, target):
    with answered_by(path):
        check_against_spec(hand, target)


@settings(max_examples=60, deadline=None)
@given(hand=st.lists(numbers, min_size=1, max_size=5))
@example(hand=[1, 3, 4, 6])
@example(hand=[0, 2])
def test_reachable_values_are_the_sizes_of_the_specs(hand):
    """The search forms no negative value: it reaches |v| for every value v of the hand."""
    key = tuple(sorted(hand))
    assert reachable_values(key) == {abs(v) for v in spec.values(key)}

