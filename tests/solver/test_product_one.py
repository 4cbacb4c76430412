"""The product-one rule (rule 4 of solver.normal): dividing by a group of factors whose product
is one is multiplying by it, 10/2/(1-4/8) = 2*10*(1-4/8) since 2*(1-4/8) = 1.

Issue 28: for 1 2 4 8 10 -> 10 a Perl rewrite-rule normaliser counts 62 and a C++ subset solver
55; we counted 63, listing both forms. Each hand below lost exactly that one quotient; the pure
solver, the compiled core and the closure of the rules (tests/solver/closure.py) agree.
"""

from __future__ import annotations

import pytest

from solver import canonical, native, solve
from solver.normal.flat import signed_key
from solver.normal.reduce import is_plain
from solver.parser import parse
from tests.solver.closure import Forest, classes

KIN = [  # hand, target, distinct solutions, the quotient now one with its product
    ((1, 2, 4, 8, 10), 10, 62, "10/2/(1-4/8)", "2*10*(1-4/8)"),
    ((1, 3, 6, 9, 12), 12, 65, "12/3/(1-6/9)", "3*12*(1-6/9)"),
    ((1, 2, 3, 6, 24), 24, 37, "24/2/(1-3/6)", "2*24*(1-3/6)"),
    ((1, 2, 4, 8, 24), 24, 46, "24/2/(1-4/8)", "2*24*(1-4/8)"),
]


def same(a: str, b: str) -> bool:
    return canonical(parse(a)) == canonical(parse(b))


@pytest.mark.parametrize(("hand", "target", "count", "quotient", "product"), KIN)
def test_the_quotient_is_the_product(hand, target, count, quotient, product):
    assert same(quotient, product)
    a, x, y = quotient.split("/", 2)
    assert same(f"{a}/({x}*{y})", product) and same(f"{a}/{y}/{x}", product)
    listed = solve(hand, target)
    assert len(listed) == count
    assert product in listed and quotient not in listed


@pytest.mark.parametrize(("hand", "target", "count", "quotient", "product"), KIN)
def test_the_core_and_the_closure_count_alike(hand, target, count, quotient, product):
    saved, native.CORE = native.CORE, None
    try:
        pure = solve(hand, target)
    finally:
        native.CORE = saved
    assert solve(hand, target) == pure
    assert len(classes(Forest(), hand, target)) == count


def test_a_group_moves_only_when_its_product_is_one():
    assert not is_plain(signed_key(parse("10/2/(1-4/8)"))[1])  # it moves: not plain
    assert is_plain(signed_key(parse("2*10*(1-4/8)"))[1])
    assert is_plain(signed_key(parse("4/2/(1-8/10)"))[1])  # 2*(1-8/10) is 2/5: it stays
    assert "4/2/(1-8/10)" in solve((1, 2, 4, 8, 10), 10)


def test_a_group_worth_one_may_divide_to_cancel():
    """Rule 5 before rule 4: 3*2*2*(1-4/8) is 3*2/(2*(1-4/8)), where 2 cancels 2, so it is
    3/(1-4/8)+2-2 too (six numbers: 1 2 2 3 4 8 -> 6)."""
    forms = ["3*2*2*(1-4/8)", "3*2/2/(1-4/8)", "3/(1-4/8)+2-2"]
    assert all(same(forms[0], form) for form in forms[1:])
    listed = solve((1, 2, 2, 3, 4, 8), 6)
    assert len(listed) == 1035
    assert sum(same(text, forms[0]) for text in listed) == 1


@pytest.mark.slow
def test_a_group_worth_one_may_divide_by_the_closure():
    forest = Forest()
    groups = classes(forest, (1, 2, 2, 3, 4, 8), 6)
    assert len(groups) == 1035
    trees = [forest.from_expr(parse(text)) for text in
             ("3*2*2*(1-4/8)", "3*2/2/(1-4/8)", "3/(1-4/8)+2-2")]
    assert sum(all(t in group for t in trees) for group in groups) == 1
