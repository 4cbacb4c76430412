"""Flat keys: what the search builds, bottom-up, for every expression it forms.

A flat key already applies the rules that need no search of their own: rule 1 (sorted terms and
factors), rule 2 (`-` folded into sums, `/` into products), rule 3 (values are never negative),
and the cheap part of rule 4 (a part worth zero is added, a part worth one multiplies, and a
zero times anything keeps only the numbers it was multiplied by). Equal flat keys are surely
the same solution; the canonical key (`solver.normal.canonical`) merges the rest.

>>> sub(add(Leaf(8), Leaf(3)), Leaf(5))                 # (8+3)-5, one sum (rules 1, 2)
Sum(3+8-5)
>>> sub(Leaf(8), sub(Leaf(5), Leaf(3)))                 # 8-(5-3) is (8+3)-5 (rule 2)
Sum(3+8-5)
>>> div(Leaf(7), sub(Leaf(4), Leaf(3)))                 # 7/(4-3) is 7*(4-3) (rule 4)
Product((4-3)*7)
"""

from __future__ import annotations

from solver.errors import DivisionByZeroError
from solver.expr import BinOp, Expr, Num, Value, divide
from solver.normal.groups import PRODUCTS, SUMS, Group
from solver.normal.keys import Key, Leaf, ZeroProduct, numbers, turned
from solver.normal.reduce import is_plain


def leaf(n: int) -> Key:
    """The key of a plain number."""
    return Leaf(n)


def _join(group: Group, a: Key, b: Key, inverse: bool, value: Value) -> Key:
    """a ∘ b, or a ∘⁻¹ b: one routine for sums and products (rules 1 and 2).

    A part worth the unit is never on the inverse side: A/O is A*O (rule 4; O is never a
    quotient here, quotients are flattened; and nothing moves out of O), and A-Z is A+(-Z)
    for a zero term Z (rule 3).
    """
    kind = group.kind
    a_up, a_down = (a[2], a[3]) if type(a) is kind else ((a,), ())
    b_up, b_down = (b[2], b[3]) if type(b) is kind else ((b,), ())
    if inverse:
        b_up, b_down = b_down, b_up
    up, down = a_up + b_up, a_down + b_down
    if down:
        unit = group.unit
        for k in down:
            if k.value == unit:
                if unit == 0:
                    up += tuple(turned(z) for z in down if z.value == 0)
                    down = tuple(z for z in down if z.value != 0)
                else:  # only a one that nothing moves out of (it could cancel otherwise)
                    ones = tuple(o for o in down if o.value == 1 and is_plain(o))
                    up += ones
                    down = tuple(o for o in down if o not in ones)
                break
    return kind(value, group.op, tuple(sorted(up)), tuple(sorted(down)))


# Each operation takes the value of its result when the caller (the search) knows it already.


def add(a: Key, b: Key, value: Value | None = None) -> Key:
    """a + b."""
    return _join(SUMS, a, b, False, a.value + b.value if value is None else value)


def sub(a: Key, b: Key, value: Value | None = None) -> Key:
    """a - b, for value(a) >= value(b): the search never forms a negative value (rule 3)."""
    return _join(SUMS, a, b, True, a.value - b.value if value is None else value)


def mul(a: Key, b: Key, value: Value | None = None) -> Key:
    """a * b."""
    if a.value == 0:
        return zero_times(a, numbers(b))
    if b.value == 0:
        return zero_times(b, numbers(a))
    return _join(PRODUCTS, a, b, False, a.value * b.value if value is None else value)


def div(a: Key, b: Key, value: Value | None = None) -> Key:
    """a / b, for value(b) != 0. Rule 4: Z / A is Z * A."""
    if a.value == 0:
        return zero_times(a, numbers(b))
    return _join(PRODUCTS, a, b, True, divide(a.value, b.value) if value is None else value)


def zero_times(zero: Key, times: tuple[int, ...]) -> Key:
    """A part worth zero times any expression of `times` (rule 4: whatever is multiplied by a
    zero counts once, by its numbers; Z * Z' is Z + Z', itself a zero times numbers)."""
    if not times:
        return zero
    if isinstance(zero, ZeroProduct):
        return ZeroProduct(0, "0*", zero.zero, tuple(sorted(zero.times + times)))
    return ZeroProduct(0, "0*", zero, tuple(sorted(times)))


def signed_key(expr: Expr) -> tuple[int, Key]:
    """(sign, flat key) of any expression: the key describes the absolute value (rule 3).

    A solution that passes through a negative value is the same as the one that avoids it, so
    keys only ever describe non-negative values; the sign of the whole is kept apart.
    Raises DivisionByZeroError.
    """
    if isinstance(expr, Num):
        return 1, Leaf(expr.value)
    sa, ka = signed_key(expr.left)
    sb, kb = signed_key(expr.right)
    assert isinstance(expr, BinOp)
    if expr.op in "+-":
        if expr.op == "-":
            sb = -sb
        if kb.value == 0 or ka.value == 0:  # a part worth zero keeps its way round
            (kp, sp), (kz, sz) = ((ka, sa), (kb, sb)) if kb.value == 0 else ((kb, sb), (ka, sa))
            key = add(kp, kz) if sp == sz else sub(kp, kz)
            return (sp if key.value else 1), key
        if sa == sb:
            return sa, add(ka, kb)
        (kp, kn) = (ka, kb) if sa > 0 else (kb, ka)
        if kp.value >= kn.value:
            return 1, sub(kp, kn)
        return -1, sub(kn, kp)
    if expr.op == "*":
        key = mul(ka, kb)
        return (sa * sb if key.value else 1), key
    if kb.value == 0:
        raise DivisionByZeroError("That divides by zero.")
    key = div(ka, kb)
    return (sa * sb if key.value else 1), key
