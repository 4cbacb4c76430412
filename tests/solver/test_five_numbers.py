"""Five numbers against two public de-duplicating solvers (issue 19, item 3).

`../shared/data/5-numbers-two-references.tsv` counts the distinct solutions of 69 random hands
two ways: a Perl rewrite-rule normaliser applied to every expression tree, and a C++ subset
solver. Neither is the truth, but a count below both merges what both keep apart, and a count
above both keeps apart what both merge: every row must lie between them. The rules that once
merged too much (a zero part anywhere, a one moved onto a pair, a zero turned round) are
restated in `solver.normal`; this checks the result and that it is what the rules say.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from solver import solve
from tests.solver.closure import Forest, classes


def rows(shared_dir: Path) -> list[tuple[tuple[int, ...], int, int, int]]:
    """(hand, target, Perl count, C++ count) of every row."""
    lines = (shared_dir / "data" / "5-numbers-two-references.tsv").read_text().splitlines()
    out = []
    for line in lines[1:]:
        if line.strip():
            hand, target, perl, cpp = line.split("\t")
            out.append((tuple(sorted(map(int, hand.split()))), int(target), int(perl), int(cpp)))
    return out


def test_every_row_lies_between_the_references(shared_dir):
    table = rows(shared_dir)
    assert len(table) == 69
    outside = [(hand, target, perl, cpp, len(solve(hand, target)))
               for hand, target, perl, cpp in table
               if not min(perl, cpp) <= len(solve(hand, target)) <= max(perl, cpp)]
    assert not outside, outside


def test_where_the_references_agree_the_count_is_theirs(shared_dir):
    agree = [(hand, target, perl) for hand, target, perl, cpp in rows(shared_dir) if perl == cpp]
    assert len(agree) == 37
    wrong = [(hand, target, perl, len(solve(hand, target))) for hand, target, perl in agree
             if len(solve(hand, target)) != perl]
    assert not wrong, wrong


@pytest.mark.slow
def test_every_row_has_the_count_the_rules_give(shared_dir):
    forest = Forest()
    wrong = [(hand, target) for hand, target, _, _ in rows(shared_dir)
             if len(solve(hand, target)) != len(classes(forest, hand, target))]
    assert not wrong, wrong
