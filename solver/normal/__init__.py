"""Normal forms: when two solutions are the same idea.

Two solutions are the same when these rewrites, applied anywhere and either way, turn one into
the other (X, Y, A, B any parts). A *zero term* is a zero times something (or the number 0); a
*one factor* is a factor worth one that divides nothing; a *pair* is X-Y or X/Y of equal parts.

1. Order and grouping of + and of *: A+B = B+A, (A+B)+C = A+(B+C), the same for *.
2. - folds into +, / into *: A+(B-C) = (A+B)-C, A-(B-C) = (A+C)-B, the same for * and /.
3. No value needs a sign: a part E is -E' where E' turns one subtraction round. A solution
   worth 0 may be turned round as a whole; no other zero: added to the rest, X-Y and Y-X are
   two ideas (both public references keep 2+(1+8-9) apart from 2+(9-(1+8)) at 2).
4. A zero term may be added anywhere and a one factor may multiply anywhere ((A+Z)*B = Z+A*B,
   (A*O)+B = O*(A+B), A/O = A*O), and dividing by a group of factors whose product is one is
   multiplying by it (A/(X*Y) = A*X*Y: 10/2/(1-4/8) is 2*10*(1-4/8)); whatever a zero
   multiplies counts once, by its numbers. A product keeps something multiplied (its least
   one), and a one that could cancel stays.
5. Cancelling: (A*X)/Y = (A+X)-Y and (A*X)/(B*Y) = ((A/B)+X)-Y, X a group of factors, Y of
   divisors; the pair X-Y leaves a sum for the product around it only when X is one added term
   and Y everything the sum subtracts: ((A+X)-Y)*B = ((A*B)+X)-Y. Where several parts could
   cancel, one is chosen (the whole divisor first, then the fewest and smallest numbers), and
   a group of factors worth one divides when that lets parts cancel (rule 4 read back); two
   one factors beside anything else are a pair, the lesser divided: A*1*(4-3) is A+(4-3)-1.

Why rules 3 to 5 stop where they do: both public references (a Perl rewrite-rule normaliser and
a C++ subset solver, ../shared/data) keep apart what reaches further. A group of terms worth zero
among others is no pair, so 4*(5+7-(1+5)) keeps its 5-5 (both count 7 for 1 4 5 5 7 -> 24); a
one that would cancel stays, so 1*4*(7-5/5) is not 4*(7-(1+5-5)); a zero keeps its way round
and a pair is only what cancels as written, so (10+9)-(10+4), 10+10-2*(9-4) and 10/(9-4)+10-2
stay three ideas (both count 16 for 2 4 9 10 10 -> 10).

>>> from solver import canonical
>>> def same(a, b): return canonical(a) == canonical(b)
>>> same('2*(3+4)', '(4+3)*2'), same('2+2', '2*2')                             # rule 1
(True, False)
>>> same('8-(5-3)', '(8+3)-5'), same('(1+3)*(2+4)', '4*(1+2+3)')               # rule 2
(True, False)
>>> same('(2-5)*(3-7)', '(5-2)*(7-3)'), same('(3-1)*(5+7)', '(7-3)*(1+5)')     # rule 3
(True, False)
>>> same('3-(1+2)', '(1+2)-3'), same('2+(1+8-9)', '2+(9-(1+8))')               # rule 3
(True, False)
>>> same('7/(4-3)', '7*(4-3)'), same('(5*(4-3))*3', '(4-3)*(5*3)')             # rule 4
(True, True)
>>> same('0*(3+2)+9', '0*(3*2)+9'), same('3+0*(1+2)', '(1+2)+0*3')            # rule 4
(True, False)
>>> same('1*(2+6-1)', '(2-1)*(1+6)'), same('1*(13+2/2)', '1+13+2-2')           # rule 4
(False, False)
>>> same('1*4*(7-5/5)', '4*(5+7-(1+5))')          # rule 4: the one stays where it cancels
False
>>> same('10/2/(1-4/8)', '2*10*(1-4/8)'), same('10/2/(1-4/8)', '10*2/(1-4/8)')  # rule 4
(True, False)
>>> same('10*(1+2)/3', '(10+(1+2))-3'), same('3*3*4/12', '3+3*4-12')           # rule 5
(True, True)
>>> same('(5+(2-2))*3', '(2-2)+5*3'), same('4*(5+7-(1+5))', '5+4*(7-1)-5')     # rule 5
(True, False)
>>> same('(10+(1+2))-3', '(10+3)-(1+2)'), same('3+3*4-12', '3+3-12/4')         # rule 5
(False, False)
>>> same('((10+9)-(10+4))*2', '(10+10)-2*(9-4)')  # rule 5: 10-10 is no pair there
False
>>> same('(10+10)-2*(9-4)', '10+10/(9-4)-2'), same('2*3-6', '2-6/3')           # rule 5
(False, False)

tests/solver/test_same_solution.py holds the full table, checked against the closure of the rules.

Two layers. `flat` keys are built by the search for every expression it forms; `canonical`
keys are computed once per solution and are equal exactly for the same solution. `display`
turns keys back into expressions. This package never searches.
"""

from solver.normal.canonical import (
    canonical_key,
    canonical_of,
    clear_caches,
    solution_classes,
)
from solver.normal.display import key_to_expr, negatable, negated
from solver.normal.flat import add, div, leaf, mul, signed_key, sub, zero_times
from solver.normal.keys import Key, Leaf, Product, Sum, ZeroProduct, numbers

RULES_VERSION = 2
"""The version of these rules: bump it whenever a rule changes what is the same solution (not
for a comment or a rename), and port the change to the C core (solver/native/module.c has the
same number). The core answers only while the two numbers match (solver.native.STATUS)."""

__all__ = [
    "RULES_VERSION",
    "Key",
    "Leaf",
    "Product",
    "Sum",
    "ZeroProduct",
    "add",
    "canonical_key",
    "canonical_of",
    "clear_caches",
    "div",
    "key_to_expr",
    "leaf",
    "mul",
    "negatable",
    "negated",
    "numbers",
    "signed_key",
    "solution_classes",
    "sub",
    "zero_times",
]
