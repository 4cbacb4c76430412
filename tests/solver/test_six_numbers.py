"""Six numbers beside inrust (mhfan/inrust's C++ calc24), class by class (docs/solver.md).

inrust prunes while it builds instead of computing a normal form, so its counts differ from ours
both ways: 1 2 3 4 5 6 -> 24 727, 2 4 6 8 10 12 -> 1,259, 1 1 2 7 11 13 -> 90, 1 1 3 8 8 13 -> 62.
Here: our counts, and for each kind of difference a named pair (inrust's lines as it prints them)
that our rules join or keep apart, with the rule that decides.
"""

from __future__ import annotations

import pytest

from solver import canonical, parse, solve

OURS = [((1, 2, 3, 4, 5, 6), 783), ((2, 4, 6, 8, 10, 12), 1312), ((1, 1, 2, 7, 11, 13), 89),
        ((1, 1, 3, 8, 8, 13), 60)]


def same(a: str, b: str) -> bool:
    return canonical(parse(a)) == canonical(parse(b))


@pytest.mark.parametrize(("hand", "count"), OURS)
def test_our_counts(hand, count):
    assert len(solve(hand, 24)) == count


@pytest.mark.parametrize(("ours", "theirs"), [
    ("4*((1+2+3)/6+5)", "4*(6/(1+2+3)+5)"),  # rule 3: X/Y and Y/X of equal parts; inrust
    ("2*(12/(4+8)+6)+10", "10 + 2 * ((4 + 8) / 12 + 6)"),  # divides equal values one way only
    ("11+13+(1+1-2)*7", "(2 - (1 + 1)) * 7 + 11 + 13"),  # rule 3: a zero times one number
    ("4*6+(1+2-3)*5", "(3 - (1 + 2)) * 5 + 4 * 6"),  # keeps its way round; inrust picks one
    ("4*6*(1+2+3-5)", "1 * (2 + 3 + 4 * 6 - 5)"),  # rule 4: a one that could cancel stays
    ("1*4*6+5-2-3", "1 * (2 + 3 + 4 * 6 - 5)"),  # rule 3: the pair's way round
])
def test_kept_apart_where_inrust_builds_one(ours, theirs):
    assert not same(ours, theirs)


@pytest.mark.parametrize("hand", [(1, 2, 3, 4, 5, 6), (2, 4, 6, 8, 10, 12)])
def test_classes_inrust_never_builds_are_ours(hand):
    """Its (A+x)-y pruning by value, and `1 * (...)` only at the top, lose these classes."""
    listed = {canonical(parse(s)) for s in solve(hand, 24)}
    lost = {(1, 2, 3, 4, 5, 6): ["4*6*(1+2+3-5)", "4/(1/6+2+3-5)", "6/(1/4+2+3-5)",
                                 "1*4*6+5-2-3", "4*6+(2+3-5)*1"],
            (2, 4, 6, 8, 10, 12): ["4*(6+8+12-2*10)", "6*(4+8+12-2*10)", "12*(2+4+10-6-8)",
                                   "12*(2+6+8-4-10)"]}[hand]
    assert all(canonical(parse(text)) in listed for text in lost)


@pytest.mark.parametrize("lines", [
    ["4 * (1 + 2 * 3 * 5 / 6)", "2 * 3 + 4 * (1 + 5) - 6"],  # rule 5: 2*3 cancels 6
    ["2 * 4 * 6 * 10 / (8 + 12)", "2 * 10 + 4 * 6 - (8 + 12)"],  # rule 5: 2*10 cancels 8+12
    ["(1 - 1) * 2 * 7 + 11 + 13", "(1 - 1) * (2 + 7) + 11 + 13",
     "(1 - 1) * (7 - 2) + 11 + 13"],  # rule 4: whatever a zero multiplies counts once
    ["(1 - 1) * 8 * 13 + 3 * 8", "(1 - 1) * (8 + 13) + 3 * 8", "(1 - 1) * (13 - 8) + 3 * 8"],
])
def test_one_solution_where_inrust_lists_several(lines):
    assert all(same(lines[0], line) for line in lines[1:])
