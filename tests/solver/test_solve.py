"""The 24 engine against known answers: golden hands, the public table, targets and options."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from solver import InputError, canonical, evaluate, first_solution, is_solvable, solve
from tests.conftest import DATA

GOLDEN = {
    (1, 2, 3, 4): 3,
    (2, 4, 6, 8): 8,
    (3, 3, 3, 8): 1,
    (2, 2, 2, 4): 4,
    (12, 12, 12, 12): 1,
    (2, 4, 8, 10): 11,
    (3, 3, 8, 8): 1,
    (1, 1, 1, 1): 0,
}


def read_table(path) -> dict[tuple[int, ...], list[str]]:
    table = {}
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split("\t")
        table[tuple(sorted(map(int, fields[0].split())))] = [s for s in fields[2:] if s]
    return table


def assert_valid(hand, target, solutions):
    """Every solution makes the target exactly with the hand, and no two are the same idea."""
    for text in solutions:
        assert evaluate(text, hand) == target, text
    assert len({canonical(text) for text in solutions}) == len(solutions)


@pytest.mark.parametrize(("hand", "count"), GOLDEN.items())
def test_golden_counts(hand, count):
    solutions = solve(hand)
    assert len(solutions) == count
    assert_valid(hand, 24, solutions)


def test_the_classic_needs_a_fraction():
    assert solve([3, 3, 8, 8]) == ["8/(3-8/3)"]


def test_2468_keeps_the_solution_the_seed_loses():
    assert canonical("(2+6)*4-8") in {canonical(s) for s in solve([2, 4, 6, 8])}


def test_reads_naturally():
    assert solve([1, 2, 3, 4]) == ["1*2*3*4", "4*(1+2+3)", "(1+3)*(2+4)"]


def test_output_is_deterministic_whatever_the_order_of_the_hand():
    first = solve([2, 4, 8, 10])
    for perm in itertools.permutations([2, 4, 8, 10]):
        assert solve(list(perm)) == first


def test_committed_sample_of_the_table():
    for hand, reference in read_table(DATA / "24-sample.tsv").items():
        solutions = solve(hand)
        assert len(solutions) == len(reference), (hand, solutions, reference)
        # each reference expression is the same solution as exactly one of ours
        ours = {canonical(s) for s in solutions}
        assert {canonical(s) for s in reference} == ours, hand


@pytest.mark.slow
def test_whole_public_table(shared_dir):
    table = read_table(shared_dir / "data" / "24-distinct-solutions.tsv")
    wrong = []
    for hand in itertools.combinations_with_replacement(range(14), 4):
        solutions = solve(hand)
        if len(solutions) != len(table.get(hand, [])):
            wrong.append((hand, solutions, table.get(hand)))
    assert not wrong, wrong[:5]
    in_1_13 = [h for h in itertools.combinations_with_replacement(range(1, 14), 4)]
    assert len(in_1_13) == 1820
    assert sum(1 for h in in_1_13 if h in table) == 1362
    assert sum(len(table[h]) for h in in_1_13 if h in table) == 3017


def test_other_targets_and_counts():
    assert solve([1, 1, 1, 1], 100) == []
    assert len(solve([1, 2, 3, 4, 5], 100)) == 2  # 1*4*5*(2+3) and 4*5*(2*3-1)
    assert solve([5], 5) == ["5"]
    assert solve([0], 0) == ["0"]
    hand = [1, 2, 3, 4, 5, 6]
    solutions = solve(hand, 100)
    assert solutions
    assert_valid(hand, 100, solutions)


def test_negative_target():
    solutions = solve([2, 3, 5], -9)
    assert solutions
    assert_valid([2, 3, 5], -9, solutions)
    assert solve([1, 2], -3) == []  # -(1+2) needs a unary minus
    assert solve([1, 2], -1) == ["1-2"]


def test_target_zero():
    solutions = solve([3, 3], 0)
    assert_valid([3, 3], 0, solutions)
    assert len(solutions) == 1


def test_integer_only():
    assert solve([3, 3, 8, 8], integer_only=True) == []
    assert solve([3, 3, 8, 8])
    for text in solve([1, 2, 3, 4, 5, 6], 48, integer_only=True):
        assert evaluate(text, [1, 2, 3, 4, 5, 6]) == 48


def test_limit_takes_the_first_of_the_same_list():
    assert solve([2, 4, 8, 10], limit=3) == solve([2, 4, 8, 10])[:3]


def test_first_solution_and_is_solvable():
    assert first_solution([3, 3, 8, 8]) == "8/(3-8/3)"
    assert first_solution([1, 1, 1, 1]) is None
    assert is_solvable([4, 4, 10, 10]) and not is_solvable([1, 1, 1, 1])
    text = first_solution([2, 3, 5], -9)
    assert text is not None and evaluate(text, [2, 3, 5]) == -9
    assert not is_solvable([1, 2], -3)
    assert evaluate(first_solution([89, 67, 34, 5, 6, 87]), [5, 6, 34, 67, 87, 89]) == 24


def test_big_numbers_are_exact():
    solutions = solve([1_000_000, 1_000_000, 24], 24)
    assert solutions
    assert all(evaluate(s) == 24 for s in solutions)
    assert evaluate("1000000/3/1000000*72") == Fraction(24)


@pytest.mark.parametrize("bad", [[], list(range(9)), [-1, 2], [1_000_001], [1.5, 2], ["3"], [True]])
def test_bad_hands_are_refused(bad):
    with pytest.raises(InputError):
        solve(bad)
