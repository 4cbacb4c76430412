"""From flat keys back to expressions people read, and the same solution written negated.

Display order: in a sum, compound terms first (larger first), then plain numbers (smaller
first), parts worth zero last; in a product, plain numbers first (smaller first), then compound
factors. A zero times some numbers reads `Z*(a+b+c)`.
"""

from __future__ import annotations

from solver.expr import BinOp, Expr, Num
from solver.normal.keys import Key, Leaf, Product, Sum, ZeroProduct, turned


def _display_terms(keys: tuple[Key, ...]) -> list[Key]:
    def rank(k: Key) -> tuple:
        if k.value == 0 and not isinstance(k, Leaf):
            return (2, 0, k)
        if isinstance(k, Leaf):
            return (1, k.value, k)
        return (0, -k.value, k)

    return sorted(keys, key=rank)


def _display_factors(keys: tuple[Key, ...]) -> list[Key]:
    return sorted(keys, key=lambda k: (0, k) if isinstance(k, Leaf) else (1, k))


def _chain(first: Expr, op: str, rest: list[Expr]) -> Expr:
    for item in rest:
        first = BinOp(op, first, item)
    return first


def key_to_expr(key: Key) -> Expr:
    """One expression of a flat key (a sum left to right, then what it subtracts)."""
    if isinstance(key, Leaf):
        return Num(key.value)
    if isinstance(key, Sum):
        plus = [key_to_expr(k) for k in _display_terms(key.plus)]
        minus = [key_to_expr(k) for k in _display_terms(key.minus)]
        return _chain(_chain(plus[0], "+", plus[1:]), "-", minus)
    if isinstance(key, Product):
        num = [key_to_expr(k) for k in _display_factors(key.num)]
        den = [key_to_expr(k) for k in _display_factors(key.den)]
        return _chain(_chain(num[0], "*", num[1:]), "/", den)
    times: list[Expr] = [Num(n) for n in key.times]
    return BinOp("*", key_to_expr(key.zero), _chain(times[0], "+", times[1:]))


def _is_zero_term(key: Key) -> bool:
    return key == Leaf(0) or isinstance(key, ZeroProduct)


def negatable(key: Key) -> bool:
    """Whether the key can be written with the opposite sign (it subtracts somewhere)."""
    if isinstance(key, Sum):
        return bool(key.minus) or any(map(_is_zero_term, key.plus)) or any(map(negatable, key.plus))
    if isinstance(key, Product):
        return any(map(negatable, key.num + key.den))
    return False


def negated(key: Key) -> Key:
    """The same solution written with the opposite sign: the first subtraction is turned round.

    The result is not a flat key of the search (its value is negative); it is for display only.
    """
    if isinstance(key, Sum):
        zeros = tuple(turned(t) for t in key.plus if _is_zero_term(t))
        if key.minus or zeros:  # -(A+Z-B) is (B+Z')-A, Z' the zero turned round (rule 3)
            return Sum(-key.value, "+", key.minus + zeros,
                       tuple(t for t in key.plus if not _is_zero_term(t)))
        first = next(t for t in _display_terms(key.plus) if negatable(t))
        others = list(key.plus)
        others.remove(first)
        return Sum(-key.value, "+", (negated(first),), tuple(others))
    assert isinstance(key, Product)
    on_top = any(map(negatable, key.num))
    factors = list(key.num if on_top else key.den)
    first = next(f for f in _display_factors(tuple(factors)) if negatable(f))
    factors[factors.index(first)] = negated(first)
    if on_top:
        return Product(-key.value, "*", tuple(factors), key.den)
    return Product(-key.value, "*", key.num, tuple(factors))
