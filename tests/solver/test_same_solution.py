"""When two solutions are the same: a table of pairs per rule, and derivations step by step.

Each pair of the table is checked twice: by `canonical`, and by the closure of the rules
(tests/closure.py), so the table itself is what the rules say, not what the code does. Each
derivation is a chain of expressions where one rule, applied once at one node, turns each into
the next. The DIFFERENT rows name what the restricted rules 3 to 5 keep apart; where the row is
a hand of ../shared/data, both public references keep it apart too (issue 19).
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from solver import canonical, evaluate, parse
from solver.expr import numbers
from tests.solver.closure import Forest, classes, one_rule_apart

TABLE = """
rule  verdict    a                       b
1     SAME       2*(3+4)                 (4+3)*2
1     SAME       (2*3)*4                 2*(3*4)
1     DIFFERENT  2+2                     2*2
1     DIFFERENT  (2+2)*(3+3)             2*2*(3+3)
2     SAME       5+(6-3)                 (5+6)-3
2     SAME       (8-2)-3                 8-(2+3)
2     SAME       8-(5-3)                 (8+3)-5
2     SAME       6*(4/3)                 (6*4)/3
2     SAME       (8/2)/4                 8/(2*4)
2     SAME       8/(4/2)                 (8*2)/4
2     DIFFERENT  (1+3)*(2+4)             4*(1+2+3)
3     SAME       (2-5)*(3-7)             (5-2)*(7-3)
3     SAME       4+(2-3)                 4-(3-2)
3     SAME       10-(2-5)*3              10+(5-2)*3
3     SAME       3-(1+2)                 (1+2)-3
3     SAME       9+(1+2-3)*(5-4)         9+(3-1-2)*(5-4)
3     DIFFERENT  (3-1)*(5+7)             (7-3)*(1+5)
3     DIFFERENT  2+(1+8-9)               2+(9-(1+8))
3     DIFFERENT  9+(1+2-3)*4             9+(3-(1+2))*4
4     SAME       7-(3-3)                 7+(3-3)
4     SAME       7/(4-3)                 7*(4-3)
4     SAME       (3-3)/5                 (3-3)*5
4     SAME       (5*(4-3))*3             (4-3)*(5*3)
4     SAME       0*(3+2)+9               0*(3*2)+9
4     SAME       9+(2-2)*3*1             1*(9+(2-2)*3)
4     SAME       10/2/(1-4/8)            2*10*(1-4/8)
4     SAME       10/(2*(1-4/8))          (1-4/8)*10*2
4     DIFFERENT  4/2/(1-8/10)            8/(1-4/2/10)
4     DIFFERENT  3+0*(1+2)               (1+2)+0*3
4     DIFFERENT  (2+3-5)*7               (2+5-7)*3
4     DIFFERENT  (2-2)*(3-3)+9           (2-2)+(3-3)+9
4     DIFFERENT  1*(2+6-1)               (2-1)*(1+6)
4     DIFFERENT  1*(13+2/2)              1+13+2-2
4     DIFFERENT  1*4*(7-5/5)             4*(5+7-(1+5))
5     SAME       10*(1+2)/3              (10+(1+2))-3
5     SAME       (5*(6*7))/7             ((5*6)+7)-7
5     SAME       (5*7)/(6*7)             ((5/6)+7)-7
5     SAME       ((5+7)-7)*6             ((5*6)+7)-7
5     SAME       (5+(2-2))*3             (2-2)+5*3
5     SAME       4*6*1*1                 4*6+1-1
5     SAME       3*3*4/12                3+3*4-12
5     SAME       13*1*(4-3)              13+(4-3)-1
5     DIFFERENT  13*1*(4-3)              13+1-(4-3)
5     DIFFERENT  (10+(1+2))-3            (10+3)-(1+2)
5     DIFFERENT  (1+1)/2+5               2/(1+1)+5
5     DIFFERENT  3+3*4-12                3+3-12/4
5     DIFFERENT  4*(5+7-(1+5))           5+4*(7-1)-5
5     DIFFERENT  ((10+9)-(10+4))*2       (10+10)-2*(9-4)
5     DIFFERENT  (10+10)-2*(9-4)         10+10/(9-4)-2
5     DIFFERENT  12*(2+2+7-9)            2*12+2+7-9
5     DIFFERENT  2*3-6                   2-6/3
5     DIFFERENT  7+(2*3-6)*5             7+(2-6/3)*5
5     DIFFERENT  1/2-1/2                 (1-1)+(2-2)
"""


def rows() -> list[tuple[str, str, str, str]]:
    lines = [line.split() for line in TABLE.strip().splitlines()[1:]]
    return [(rule, verdict, a, b) for rule, verdict, a, b in lines]


def same_by_the_rules(forest: Forest, a: str, b: str) -> bool:
    """Whether the closure of the rules joins the two expressions."""
    ea, eb = parse(a), parse(b)
    assert numbers(ea) == numbers(eb) and evaluate(ea) == evaluate(eb), (a, b)
    ta, tb = forest.from_expr(ea), forest.from_expr(eb)
    group = next(g for g in classes(forest, numbers(ea), evaluate(ea)) if ta in g)
    return tb in group


@pytest.mark.parametrize(("rule", "verdict", "a", "b"), rows())
def test_the_table(rule, verdict, a, b):
    assert same_by_the_rules(Forest(), a, b) == (verdict == "SAME"), "the table is wrong"
    assert (canonical(a) == canonical(b)) == (verdict == "SAME")


def test_the_table_covers_every_rule_both_ways():
    verdicts = {(rule, verdict) for rule, verdict, _, _ in rows()}
    assert verdicts == {(r, v) for r in "12345" for v in ("SAME", "DIFFERENT")}


# Derivations: each step is one rule at one node (the closure checks that, not the comment).
DERIVATIONS = {
    # 3 3 4 12 -> 3 (the P4): both public references merge these.
    "a product cancels a sum": [
        "(4*(3*3))/12",
        "(3*(3*4))/12",     # rule 1
        "(3+(3*4))-12",     # rule 5, with X = 3*4 and Y = 12
    ],
    # A pair whose added term cancels all the sum subtracts leaves the product around it.
    "a pair leaves a product": [
        "(5+(2-2))*3",
        "((5+2)-2)*3",      # rule 2
        "((5*3)+2)-2",      # rule 5: ((A+X)-Y)*B = ((A*B)+X)-Y
    ],
    # 1 3 4 13 -> 13: two ones are one cancelled pair, the lesser (1) divided.
    "two ones are a pair": [
        "13*(1*(4-3))",
        "(13*(4-3))*1",     # rule 1
        "(13*(4-3))/1",     # rule 4: A*O = A/O
        "(13+(4-3))-1",     # rule 5: (A*X)/Y = (A+X)-Y
    ],
    # 1 2 4 8 10 -> 10: dividing by a group of factors worth one is multiplying by it.
    "a group worth one multiplies": [
        "(10/2)/(1-4/8)",
        "10/(2*(1-4/8))",   # rule 2
        "10*(2*(1-4/8))",   # rule 4: A/G = A*G, G = 2*(1-4/8) worth one
    ],
    # A one beside a zero term goes with the numbers the zero multiplies.
    "a one joins a zero's numbers": [
        "1*(9+((2-2)*3))",
        "(((2-2)*3)*1)+9",  # rule 4: O*(A+B) = (A*O)+B, A a zero term
    ],
}


@pytest.mark.parametrize("name", DERIVATIONS)
def test_derivations(name):
    forest = Forest()
    steps = DERIVATIONS[name]
    for a, b in pairwise(steps):
        ta, tb = forest.from_expr(parse(a)), forest.from_expr(parse(b))
        assert ta is not None and tb is not None
        assert one_rule_apart(forest, ta, tb), (a, b)
        assert canonical(a) == canonical(b), (a, b)
