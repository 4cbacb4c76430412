"""Normal forms: when two solutions are the same idea.

Two solutions are the same when these rewrites, applied anywhere and either way, turn one into
the other (X, Y, A, B any parts; Z a part worth zero, O one worth one):

1. Order and grouping of + and of *: A+B = B+A, (A+B)+C = A+(B+C), the same for *.
2. - folds into +, / into *: A+(B-C) = (A+B)-C, A-(B-C) = (A+C)-B, the same for * and /.
3. No value needs a sign: a part E is -E' where E' turns one subtraction round (-Z is Z).
4. Adding a zero or multiplying by a one, anywhere, is one idea (A-Z = A+Z, A/O = A*O), and
   whatever a zero multiplies counts once, by the numbers it uses.
5. Cancelling a value is one idea however it is written: with X = Y in value,
   (A*X)/Y = (A+X)-Y, and the order of a cancelled pair does not matter (X/Y = Y/X).

>>> from solver import canonical
>>> def same(a, b): return canonical(a) == canonical(b)
>>> same('2*(3+4)', '(4+3)*2'), same('2+2', '2*2')                             # rule 1
(True, False)
>>> same('8-(5-3)', '(8+3)-5'), same('(1+3)*(2+4)', '4*(1+2+3)')               # rule 2
(True, False)
>>> same('(2-5)*(3-7)', '(5-2)*(7-3)'), same('(3-1)*(5+7)', '(7-3)*(1+5)')     # rule 3
(True, False)
>>> same('7/(4-3)', '7*(4-3)'), same('(5+(2-2))*3', '(2-2)+5*3')               # rule 4
(True, True)
>>> same('0*(3+2)+9', '0*(3*2)+9'), same('3+0*(1+2)', '(1+2)+0*3')            # rule 4
(True, False)
>>> same('10*(1+2)/3', '(10+(1+2))-3'), same('3*3*4/12', '3+3*4-12')          # rule 5
(True, True)
>>> same('2*3-6', '2-6/3')       # rule 5 needs something beside the pair: to 0, two ideas
False

tests/test_same_solution.py holds the full table, checked against the closure of the rules.

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

__all__ = [
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
