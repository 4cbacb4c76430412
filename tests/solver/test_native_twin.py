"""The compiled core (solver.native) against the pure-Python solver: the same answers, in order.

The pure solver is the reference. Random hands of 1 to 7 numbers (6 and 7 rarely, they are
slow on the pure side), many targets, integer_only on and off; the search's lists, which keys
are plain (the part of the rules the core follows itself) and the classes key by key; which
keys the core asks the Python rules about; every four-number hand of 1..13 at a few targets;
hands whose values pass 64 bits.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import first_solution, is_solvable, native, solve
from solver.expr import to_text
from solver.normal import Key, canonical_key, key_to_expr, negatable, negated, solution_classes
from solver.normal.keys import Leaf, Sum
from solver.normal.reduce import is_plain
from solver.search import Search
from tests.conftest import without_native

CORE = native.CORE


@pytest.fixture(scope="session")
def core_in_use() -> None:
    """The compiled core answers, or the test skips (fails where REQUIRE_NATIVE=1)."""
    if CORE is None:
        without_native(native.STATUS)


needs_core = pytest.mark.usefixtures("core_in_use")


@contextmanager
def pure() -> Iterator[None]:
    """The public functions answered by the pure-Python solver."""
    saved, native.CORE = native.CORE, None
    try:
        yield
    finally:
        native.CORE = saved


numbers = st.one_of(st.integers(0, 13), st.integers(0, 13), st.integers(0, 200),
                    st.sampled_from([1000, 99_999, 1_000_000]))
sizes = st.sampled_from([1, 2, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6])
hands = sizes.flatmap(lambda n: st.lists(numbers, min_size=n, max_size=n)).map(
    lambda hand: tuple(sorted(hand)))
targets = st.one_of(st.sampled_from([0, 1, 2, 24, -24, -1, 10, 100, 10**6, -(10**6)]),
                    st.integers(-60, 400),
                    st.fractions(min_value=-20, max_value=20, max_denominator=7))
small_numbers = st.integers(1, 4)  # seven numbers stay quick on the pure side with few values


def pure_texts(hand: tuple[int, ...], target: int | Fraction, integer_only: bool) -> list:
    keys = Search(integer_only).expressions(hand, abs(target))
    if target < 0:
        return [to_text(key_to_expr(negated(k))) if negatable(k) else None for k in keys]
    return [to_text(key_to_expr(k)) for k in keys]


def same_answers(hand: tuple[int, ...], target: int | Fraction, integer_only: bool) -> None:
    """solve, first_solution and is_solvable: the core's answers are the pure solver's."""
    native_answers = (solve(hand, target, integer_only=integer_only),
                      first_solution(hand, target, integer_only=integer_only),
                      is_solvable(hand, target, integer_only=integer_only))
    with pure():
        assert native_answers == (solve(hand, target, integer_only=integer_only),
                                  first_solution(hand, target, integer_only=integer_only),
                                  is_solvable(hand, target, integer_only=integer_only))


@pytest.mark.slow
@needs_core
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands, targets, st.booleans())
def test_same_solutions_in_the_same_order(hand, target, integer_only):
    same_answers(hand, target, integer_only)


@needs_core
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 4), min_size=7, max_size=7).map(lambda h: tuple(sorted(h))),
       st.sampled_from([97, 300, -61, 1000]), st.booleans())
def test_seven_numbers(hand, target, integer_only):
    same_answers(hand, target, integer_only)


@needs_core
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands, targets, st.booleans())
def test_search_and_normal_form_key_by_key(hand, target, integer_only):
    """The search's flat keys in order, their texts, which are plain and the classes the
    normal form puts them in: the lists the answers are made from, compared before they are
    merged."""
    goal = abs(target)
    try:
        keys = CORE.expressions(hand, goal, integer_only)
        plain = CORE.plain(hand, goal, integer_only)  # the rules compute values too
        settled = CORE.settled(hand, goal, integer_only)
        classes = CORE.classes(hand, goal, integer_only, canonical_key)
    except OverflowError:
        return  # the pure path answers such hands (test_past_64_bits...)
    assert keys == Search(integer_only).expressions(hand, goal)
    assert CORE.texts(hand, target, integer_only) == pure_texts(hand, target, integer_only)
    assert plain == [is_plain(key) for key in keys]
    assert [(key, canonical_key(key)) for key, own in zip(keys, settled, strict=True) if own] == [
        (key, own) for key, own in zip(keys, settled, strict=True) if own]
    assert classes == solution_classes(keys)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands, targets, st.booleans())
def test_a_plain_key_is_its_own_canonical_key(hand, target, integer_only):
    """The simplest case the core settles without the Python rules (module.c: settled): a plain
    key not worth zero is its own canonical key (nothing was lifted, so nothing is put back).
    Pure: it holds of the rules."""
    for key in Search(integer_only).expressions(hand, abs(target)):
        if key.value != 0 and is_plain(key):
            assert canonical_key(key) == key


@needs_core
@pytest.mark.parametrize(("hand", "target"), [
    ((1, 4, 5, 5, 7), 24), ((2, 4, 9, 10, 10), 10), ((1, 1, 2, 5, 5), 24), ((0, 2, 3, 3, 5), 0),
    ((1, 3, 4, 7), 7), ((3, 3, 8, 8), 24)])
def test_the_core_asks_the_rules_about_every_other_key(hand, target):
    """Every key the core does not settle (every key of a solution worth zero among them: it
    may turn round) goes to the rules the core is given, and their answer is what it classes
    by."""
    asked: list[Key] = []

    def rules(key: Key) -> Key:
        asked.append(key)
        return canonical_key(key)

    keys = Search(False).expressions(hand, target)
    classes = CORE.classes(hand, target, False, rules)
    own = CORE.settled(hand, target, False)
    assert asked == [key for key, settled in zip(keys, own, strict=True) if settled is None]
    assert all(settled is None for settled in own) if target == 0 else any(own)
    assert classes == solution_classes(keys)


@needs_core
def test_the_rules_answer_is_checked():
    """A canonical key the core cannot hold (not a key, or a number the hand has not) is an
    error, never a guess."""
    hand = (0, 2, 3, 3, 5)  # to 0: every key is asked of the rules
    with pytest.raises(TypeError):
        CORE.classes(hand, 0, False, lambda key: (0, "+", (), ()))
    with pytest.raises(ValueError, match="does not have"):
        CORE.classes(hand, 0, False, lambda key: Sum(0, "+", (Leaf(12),), (Leaf(12),)))
    assert set(CORE.classes(hand, 0, False, lambda key: Leaf(2))) == {0}


BIG = (999_961, 999_979, 999_983, 1_000_000)  # their product is about 10**24
BIG_PRODUCT = 999_961 * 999_979 * 999_983 * 1_000_000


@pytest.mark.parametrize(("hand", "target", "solvable"), [
    (BIG, 24, False), (BIG, 1, True), (BIG, 1_999_962, False), (BIG, BIG_PRODUCT, True),
    ((0, 93, 1000, 1000, 99_999, 1_000_000), 0, True)])  # the rules' values pass 64 bits
def test_past_64_bits_the_pure_path_answers(hand, target, solvable):
    """Whether or not the core overflows on the way, the answers are the pure solver's."""
    answers = solve(hand, target), first_solution(hand, target), is_solvable(hand, target)
    with pure():
        assert answers == (solve(hand, target), first_solution(hand, target),
                           is_solvable(hand, target))
    assert answers[2] is solvable and bool(answers[0]) is solvable


@needs_core
def test_past_64_bits_the_core_overflows():
    """No value wraps: the core gives up (OverflowError) and the caller goes pure."""
    with pytest.raises(OverflowError):
        CORE.first_solution(BIG, BIG_PRODUCT, False)
    with pytest.raises(OverflowError):  # 1 * (a side of four numbers): their value set
        CORE.expressions((1, *BIG), 1, False)
    with pytest.raises(OverflowError):
        CORE.is_solvable((1, *BIG), 7, False)


def test_target_past_64_bits():
    if CORE is not None:
        with pytest.raises(OverflowError):
            CORE.first_solution((1, 2), 10**30, False)
    assert first_solution((10**6,) * 5, 10**30) == "1000000*1000000*1000000*1000000*1000000"


@needs_core
def test_wide_intermediate_values_stay_exact():
    """Sums of fractions whose products pass 64 bits before they are reduced."""
    hand = (3, 7, 999_979, 999_983)
    target = Fraction(999_983, 3) + Fraction(999_979, 7)
    assert CORE.first_solution(hand, target, False) == "999983/3+999979/7"
    with pure():
        assert first_solution(hand, target) == "999983/3+999979/7"


@needs_core
@pytest.mark.parametrize("target", [24, 0, -3])
def test_every_four_number_hand(target):
    hands = list(itertools.combinations_with_replacement(range(1, 14), 4))
    native = [solve(hand, target) for hand in hands]
    with pure():
        assert native == [solve(hand, target) for hand in hands]


@needs_core
def test_threads_at_once():
    """The core lets go of the GIL while it works: threads solving at once (one of them going
    pure past 64 bits) get what one thread gets."""
    hands = [(1, 2, 3, 4, 5), (2, 3, 5, 7, 11, 13), (1, 1, 3, 8, 8), (1, *BIG), (3, 3, 8, 8),
             (0, 4, 4, 6, 9)]
    alone = [solve(hand, 24) for hand in hands]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(solve, hands * 4, [24] * len(hands) * 4)) == alone * 4


@needs_core
def test_a_search_kept_between_solves_starts_clean():
    """Each thread keeps its last search and reuses its memory (module.c: spare), and the
    splits of each shape of hand (hand.c): whatever came before — a hand of another shape, a
    seven-number hand that grew it past what is kept, a solve that overflowed or whose rules
    answered wrong — the next answers are the pure solver's."""
    hands = [(1, 1, 2, 12), (3, 3, 8, 8), (2, 5, 5, 10), (1, 2, 3, 4, 5), (4, 4, 10, 10)]
    with pure():
        expected = [solve(hand, 24) for hand in hands]
    before = [
        lambda: solve((1, 2, 3, 4, 5, 6, 7), 24),
        lambda: CORE.expressions((1, *BIG), 1, False),  # OverflowError midway
        lambda: CORE.classes((0, 2, 3, 3, 5), 0, False, lambda key: (0, "+", (), ())),
        lambda: CORE.classes((0, 2, 3, 3, 5), 0, False, lambda key: 1 // 0),
        lambda: solve((13, 13, 13, 13), 24),
    ]
    for step in before:
        with suppress(OverflowError, TypeError, ZeroDivisionError):
            step()
        assert [solve(hand, 24) for hand in reversed(hands)] == expected[::-1]


def _resident_mib() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 2**20


@needs_core
@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads Linux's /proc")
def test_what_a_thread_kept_goes_when_it_ends():
    """Each thread keeps a search, the solutions' buffers, the value cache and the shapes of
    hands for its next solve (module.c); they are freed when the thread ends. Threads that each
    solve a six-number hand once, one after another: kept, 150 of them grew the process by about
    60 MiB; freed, by about 2."""
    def solve_once(i: int) -> None:
        solve((1, 2, 3, 5 + i % 7, 8, 13), 24)

    solve_once(0)
    before = _resident_mib()
    for i in range(150):
        thread = threading.Thread(target=solve_once, args=(i,))
        thread.start()
        thread.join()
    assert _resident_mib() - before < 25
