"""Normal forms: when two solutions are the same idea.

Two layers. A *flat key* (built bottom-up while searching) folds commutativity, associativity
and the mixing of - into + and / into * by keeping sums and products as sorted lists of terms
and factors. The *canonical key* (computed once per solution) then applies the identities judged
by value: zero terms, factors equal to one and cancelled pairs are lifted to the top, where they
no longer shape the rest.
Keys are plain nested tuples, so they hash and sort; this module never searches.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain, product

from solver.expr import BinOp, Expr, Num, Value, divide

# Flat keys: (LEAF, n) | (SUM, pos, neg) | (PROD, num, den) | (ZERO_PROD, zero, rest, ones)
# Canonical keys add (DECORATED, zeros, ones, core) and (CANCEL, x, y).
Key = tuple
LEAF, SUM, PROD, ZERO_PROD, DECORATED, CANCEL = range(6)


def leaf(n: int) -> Key:
    """The key of a plain number."""
    return (LEAF, n)


@lru_cache(maxsize=1 << 18)
def key_value(key: Key) -> Value:
    """The exact value of a flat or canonical key."""
    tag = key[0]
    if tag == LEAF:
        return key[1]
    if tag == SUM:
        return sum(map(key_value, key[1])) - sum(map(key_value, key[2]))
    if tag == PROD:
        num: Value = 1
        den: Value = 1
        for factor in key[1]:
            num = num * key_value(factor)
        for factor in key[2]:
            den = den * key_value(factor)
        return divide(num, den)
    if tag == DECORATED:
        return key_value(key[3])
    return 0  # ZERO_PROD and CANCEL are zero by construction


@lru_cache(maxsize=1 << 16)
def key_numbers(key: Key) -> tuple[int, ...]:
    """The numbers a flat key uses, sorted."""
    tag = key[0]
    if tag == LEAF:
        return (key[1],)
    if tag in (SUM, PROD):
        return tuple(sorted(chain.from_iterable(key_numbers(k) for k in key[1] + key[2])))
    parts = (key_numbers(key[1]), key[2], *(key_numbers(k) for k in key[3]))
    return tuple(sorted(chain.from_iterable(parts)))


def _is_zero_term(key: Key) -> bool:
    return key == (LEAF, 0) or key[0] == ZERO_PROD


def _terms(key: Key) -> tuple[tuple, tuple]:
    return (key[1], key[2]) if key[0] == SUM else ((key,), ())


def _factors(key: Key) -> tuple[tuple, tuple]:
    return (key[1], key[2]) if key[0] == PROD else ((key,), ())


def _sum(pos: tuple, neg: tuple) -> Key:
    # A - Z is A + Z: a zero term never sits on the minus side.
    if any(map(_is_zero_term, neg)):
        pos = pos + tuple(t for t in neg if _is_zero_term(t))
        neg = tuple(t for t in neg if not _is_zero_term(t))
    return (SUM, tuple(sorted(pos)), tuple(sorted(neg)))


def add(a: Key, b: Key) -> Key:
    """a + b."""
    ap, an = _terms(a)
    bp, bn = _terms(b)
    return _sum(ap + bp, an + bn)


def sub(a: Key, b: Key) -> Key:
    """a - b, for value(a) >= value(b): the search never forms a negative value."""
    ap, an = _terms(a)
    bp, bn = _terms(b)
    return _sum(ap + bn, an + bp)


def mul(a: Key, va: Value, b: Key, vb: Value) -> Key:
    """a * b, given both values."""
    if va == 0:
        return zero_mul(a, b, vb)
    if vb == 0:
        return zero_mul(b, a, va)
    an, ad = _factors(a)
    bn, bd = _factors(b)
    return (PROD, tuple(sorted(an + bn)), tuple(sorted(ad + bd)))


def div(a: Key, va: Value, b: Key, vb: Value) -> Key:
    """a / b, given both values; vb != 0. Z / A is Z * A."""
    if va == 0:
        return zero_mul(a, b, vb)
    an, ad = _factors(a)
    bn, bd = _factors(b)
    return (PROD, tuple(sorted(an + bd)), tuple(sorted(ad + bn)))


def _zero_parts(z: Key) -> tuple[Key, tuple, tuple]:
    return (z[1], z[2], z[3]) if z[0] == ZERO_PROD else (z, (), ())


def zero_mul(z: Key, x: Key, vx: Value) -> Key:
    """z * x where value(z) == 0: what is multiplied by zero counts only by its numbers.

    Z * Z' is Z + Z'; a factor equal to one stays an identity (it is lifted like anywhere else);
    every other factor contributes just the numbers it uses.
    """
    zero, rest, ones = _zero_parts(z)
    if vx == 0:
        x_zero, x_rest, x_ones = _zero_parts(x)
        zero, rest, ones = add(zero, x_zero), rest + x_rest, ones + x_ones
    else:
        num, den = _factors(x)
        for factor in num + den:
            if key_value(factor) == 1:
                ones = (*ones, factor)
            else:
                rest = rest + key_numbers(factor)
    if not rest and not ones:
        return zero
    return (ZERO_PROD, zero, tuple(sorted(rest)), tuple(sorted(ones)))


def zero_mul_numbers(z: Key, numbers: tuple[int, ...]) -> Key:
    """z times any non-zero expression of `numbers` that has no factor equal to one."""
    zero, rest, ones = _zero_parts(z)
    return (ZERO_PROD, zero, tuple(sorted(rest + numbers)), ones)


# ---------------------------------------------------------------------------------------------
# Canonical keys: lift zero terms, factors equal to one and cancelled pairs to the top.

Parts = tuple[tuple, tuple, Key]  # (zero terms, one factors, core)


def _pack(parts: Parts) -> Key:
    zeros, ones, core = parts
    if not zeros and not ones:
        return core
    return (DECORATED, tuple(sorted(zeros)), tuple(sorted(ones)), core)


def _cancel(x: Key, y: Key) -> Key:
    # (A+X)-Y, A*X/Y and A*X*Y with X = Y (= 1) are one idea: a pair that cancels.
    return (CANCEL, *sorted((x, y)))


def _take_pairs(keep: list[Key], drop: list[Key], zeros: list[Key]) -> None:
    """Pair terms of `keep` with equal-valued terms of `drop` while `keep` stays non-empty."""
    for prefer_same_key in (True, False):
        for x in sorted(keep):
            if len(keep) < 2:
                return
            for y in sorted(drop):
                if (x == y) if prefer_same_key else (key_value(x) == key_value(y)):
                    keep.remove(x)
                    drop.remove(y)
                    zeros.append(_cancel(x, y))
                    break


def _add_signed(total: Value, v: Value, sign: int) -> Value:
    return total + v if sign > 0 else total - v


def _mul_signed(total: Value, v: Value, sign: int) -> Value:
    return total * v if sign > 0 else divide(total, v)


def _canonical_signs(plus: list[Key], minus: list[Key], step, unit: Value,
                     ) -> tuple[list[Key], list[Key]]:
    """One fixed choice among the ways to sign the same terms (or factors) with the same result.

    Two signings of one sum with equal totals differ by flipping a part worth zero, and A-Z is
    A+Z; for products, by moving a part worth one across the bar, and A/O is A*O. So all such
    signings are one solution: take the greatest sign vector over the sorted terms.
    """
    terms = sorted(plus + minus)
    if len(terms) < 2 or len(terms) > 12:
        return plus, minus
    values = [key_value(t) for t in terms]
    total = unit
    for t in plus:
        total = step(total, key_value(t), 1)
    for t in minus:
        total = step(total, key_value(t), -1)
    for signs in product((1, -1), repeat=len(terms)):
        if signs[0] < 0:
            break
        result = unit
        for v, sign in zip(values, signs, strict=True):
            result = step(result, v, sign)
        if result == total:
            return ([t for t, sg in zip(terms, signs, strict=True) if sg > 0],
                    [t for t, sg in zip(terms, signs, strict=True) if sg < 0])
    return plus, minus


@lru_cache(maxsize=1 << 18)
def decompose(key: Key) -> Parts:
    """Split a flat key into lifted zero terms, lifted one factors and the core that remains."""
    tag = key[0]
    if tag == LEAF:
        return (), (), key
    if tag == ZERO_PROD:
        return _decompose_zero_product(key)
    if tag == SUM:
        return _decompose_sum(key)
    return _decompose_product(key)


def _decompose_zero_product(key: Key) -> Parts:
    _, zero, rest, ones = key
    zeros: list[Key] = []
    lifted: list[Key] = []
    for one in ones:
        z, o, core = decompose(one)
        zeros += z
        lifted += (*o, core)
    zero_key = _pack(decompose(zero))
    if zero_key[0] == SUM and key_value(zero_key) == 0:
        zero_key = min(zero_key, (SUM, zero_key[2], zero_key[1]))
    core = (ZERO_PROD, zero_key, rest) if rest else zero_key
    return tuple(zeros), tuple(lifted), core


def _decompose_sum(key: Key) -> Parts:
    zeros: list[Key] = []
    ones: list[Key] = []
    pos: list[Key] = []
    neg: list[Key] = []
    for sign, terms in ((1, key[1]), (-1, key[2])):
        for term in terms:
            z, o, core = decompose(term)
            zeros += z
            ones += o
            plus, minus = _terms(core)
            pos += plus if sign > 0 else minus
            neg += minus if sign > 0 else plus
    zero_terms = [t for t in pos + neg if key_value(t) == 0]
    nonzero = [t for t in pos if key_value(t) != 0]
    if zero_terms and nonzero:
        zeros += zero_terms
        pos, neg = nonzero, [t for t in neg if key_value(t) != 0]
    elif zero_terms:
        pos, neg = pos + [t for t in neg if key_value(t) == 0], [t for t in neg if key_value(t)]
    pos, neg = _canonical_signs(pos, neg, _add_signed, 0)
    _take_pairs(pos, neg, zeros)
    if len(pos) == 1 and not neg:
        return tuple(zeros), tuple(ones), pos[0]
    return tuple(zeros), tuple(ones), (SUM, tuple(sorted(pos)), tuple(sorted(neg)))


def _decompose_product(key: Key) -> Parts:
    zeros: list[Key] = []
    ones: list[Key] = []
    num: list[Key] = []
    den: list[Key] = []
    for side, factors in ((1, key[1]), (-1, key[2])):
        for factor in factors:
            z, o, core = decompose(factor)
            zeros += z
            ones += o
            up, down = _factors(core)
            num += up if side > 0 else down
            den += down if side > 0 else up
    # A/O is A*O; a one moves out while the numerator keeps something to stand on.
    if any(key_value(f) != 1 for f in num):
        ones += [f for f in num if key_value(f) == 1]
        num = [f for f in num if key_value(f) != 1]
    else:
        num.sort()
        ones += num[1:]
        num = num[:1]
    ones += [f for f in den if key_value(f) == 1]
    den = [f for f in den if key_value(f) != 1]
    num, den = _canonical_signs(num, den, _mul_signed, 1)
    _take_pairs(num, den, zeros)
    if len(num) == 1 and not den:
        return tuple(zeros), tuple(ones), num[0]
    return tuple(zeros), tuple(ones), (PROD, tuple(sorted(num)), tuple(sorted(den)))


@lru_cache(maxsize=1 << 18)
def canonical_key(key: Key) -> Key:
    """The canonical key of a flat key: equal exactly for the same solution."""
    zeros, ones, core = decompose(key)
    zeros_list = list(zeros)
    ones_list = sorted(ones)
    while len(ones_list) >= 2:  # (A*O)*O' is (A+O)-O'
        zeros_list.append(_cancel(ones_list.pop(0), ones_list.pop(0)))
    return _pack((tuple(zeros_list), tuple(ones_list), core))


# ---------------------------------------------------------------------------------------------
# From keys back to expressions people read.


def _display_order(keys: tuple) -> list[Key]:
    """Compound terms first, larger first; then plain numbers, smaller first; zero terms last."""

    def rank(k: Key) -> tuple:
        v = key_value(k)
        if v == 0 and k[0] != LEAF:
            return (2, 0, k)
        if k[0] == LEAF:
            return (1, k[1], k)
        return (0, -v, k)

    return sorted(keys, key=rank)


def _display_factors(keys: tuple) -> list[Key]:
    """Plain numbers first, smaller first; then compound factors, smaller first."""
    return sorted(keys, key=lambda k: (0, k[1], k) if k[0] == LEAF else (1, key_value(k), k))


def _chain(first: Expr, op: str, rest: list[Expr]) -> Expr:
    for item in rest:
        first = BinOp(op, first, item)
    return first


def key_to_expr(key: Key) -> Expr:
    """One expression of a flat key (a sum left to right, then what it subtracts)."""
    tag = key[0]
    if tag == LEAF:
        return Num(key[1])
    if tag == SUM:
        pos = [key_to_expr(k) for k in _display_order(key[1])]
        neg = [key_to_expr(k) for k in _display_order(key[2])]
        return _chain(_chain(pos[0], "+", pos[1:]), "-", neg)
    if tag == PROD:
        num = [key_to_expr(k) for k in _display_factors(key[1])]
        den = [key_to_expr(k) for k in _display_factors(key[2])]
        return _chain(_chain(num[0], "*", num[1:]), "/", den)
    zero, rest, ones = key[1], key[2], key[3]
    expr = _chain(key_to_expr(zero), "*", [key_to_expr(k) for k in ones])
    if rest:
        expr = BinOp("*", expr, _chain(Num(rest[0]), "+", [Num(n) for n in rest[1:]]))
    return expr


def negatable(key: Key) -> bool:
    """Whether the key can be written with the opposite sign (it subtracts somewhere)."""
    if key[0] == SUM:
        return bool(key[2]) or any(map(_is_zero_term, key[1])) or any(map(negatable, key[1]))
    if key[0] == PROD:
        return any(map(negatable, key[1] + key[2]))
    return False


def negated(key: Key) -> Key:
    """The same solution written with the opposite sign: the first subtraction is turned round."""
    if key[0] == SUM:
        pos, neg = key[1], key[2]
        zeros = tuple(t for t in pos if _is_zero_term(t))
        if neg or zeros:  # -(A+Z-B) is (B+Z)-A, since -Z is Z
            return (SUM, neg + zeros, tuple(t for t in pos if not _is_zero_term(t)))
        first = next(t for t in _display_order(pos) if negatable(t))
        others = list(pos)
        others.remove(first)
        return (SUM, (negated(first),), tuple(others))
    side = 1 if any(map(negatable, key[1])) else 2
    factors = list(key[side])
    first = next(f for f in _display_factors(key[side]) if negatable(f))
    factors[factors.index(first)] = negated(first)
    return (PROD, tuple(factors), key[2]) if side == 1 else (PROD, key[1], tuple(factors))


def signed_key(expr: Expr) -> tuple[int, Key, Value]:
    """(sign, flat key, absolute value) of any expression.

    A solution that passes through a negative value is the same as the one that avoids it, so keys
    only ever describe non-negative values; the sign of the whole is kept apart. Raises
    DivisionByZeroError.
    """
    if isinstance(expr, Num):
        return 1, leaf(expr.value), expr.value
    sa, ka, va = signed_key(expr.left)
    sb, kb, vb = signed_key(expr.right)
    if expr.op in "+-":
        if expr.op == "-":
            sb = -sb
        if sa == sb or va == 0 or vb == 0:
            sign = sa if va else sb
            return (sign if va + vb else 1), add(ka, kb), va + vb
        (kp, vp), (kn, vn) = ((ka, va), (kb, vb)) if sa > 0 else ((kb, vb), (ka, va))
        if vp >= vn:
            return 1, sub(kp, kn), vp - vn
        return -1, sub(kn, kp), vn - vp
    if expr.op == "*":
        product = va * vb
        return (sa * sb if product else 1), mul(ka, va, kb, vb), product
    if vb == 0:
        from solver.errors import DivisionByZeroError

        raise DivisionByZeroError("That divides by zero.")
    quotient = divide(va, vb)
    return (sa * sb if quotient else 1), div(ka, va, kb, vb), quotient


def canonical_of(expr: Expr) -> tuple[int, Key]:
    """The canonical form of an expression: (sign of its value, canonical key)."""
    sign, key, _ = signed_key(expr)
    return sign, canonical_key(key)
