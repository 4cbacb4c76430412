"""Reduce a key: lift zero terms, factors worth one and cancelled pairs out of where they sit.

Only three kinds of part move, and each only as far as the rules let it (rules 4 and 5):
a *zero term* (a zero times something, or the number 0) leaves any sum; a *factor worth one*
(no quotient) leaves any product; a *cancelled pair* leaves a sum only when one added term X
cancels everything the sum subtracts ((A+X)-Y, A only added), and leaves a product when a
group of factors X cancels a group of divisors Y ((A*X)/(B*Y)). What is left is the *core*.
Several choices of X give several reductions of one solution; `lift` returns them all.

>>> lift(PRODUCTS.make([Leaf(4), SUMS.make([Leaf(5), Leaf(2)], [Leaf(2)])]))  # 4*(5+2-2)
(Lifted(core=Product(4*5), pairs=(Sum(2-2),), zeros=(), ones=()),)
>>> lift(PRODUCTS.make([Leaf(4), SUMS.make([Leaf(5), Leaf(7)], [Leaf(1), Leaf(5)])]))[0].pairs
()
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations, product
from typing import NamedTuple

from solver.expr import Value
from solver.normal.groups import PRODUCTS, SUMS
from solver.normal.keys import Key, Leaf, Product, Sum, ZeroProduct, numbers


class Lifted(NamedTuple):
    """One reduction of a part: its core (None when the part is a zero term), the cancelled
    pairs it gives to the sum around it (zero sums X-Y), its zero terms, its factors worth one."""

    core: Key | None
    pairs: tuple[Key, ...] = ()
    zeros: tuple[Key, ...] = ()
    ones: tuple[Key, ...] = ()


def one_order(one: Key) -> tuple:
    """Of two factors worth one, the lesser: fewer and smaller numbers first (rules 4, 5)."""
    return numbers(one), one


def turned(zero: Key) -> Key:
    """A zero term written the other way round (rule 3: -(Z*A) is (-Z)*A)."""
    if type(zero) is ZeroProduct:
        return ZeroProduct(0, "0*", turned(zero.zero), zero.times)
    if type(zero) is Sum:
        return Sum(0, "+", zero.minus, zero.plus)
    return zero


def make_sum(plus: Iterable[Key], minus: Iterable[Key], value: Value) -> Key | None:
    """The sum of some terms (None for no terms; a single added term is itself)."""
    plus, minus = tuple(sorted(plus)), tuple(sorted(minus))
    if not minus and len(plus) <= 1:
        return plus[0] if plus else None
    return Sum(value, "+", plus, minus)


def make_product(num: Iterable[Key], den: Iterable[Key], value: Value) -> Key:
    """The product of some factors (a single multiplied factor is itself)."""
    num, den = tuple(sorted(num)), tuple(sorted(den))
    if not den and len(num) == 1:
        return num[0]
    return Product(value, "*", num, den)


@lru_cache(maxsize=1 << 18)
def lift(key: Key) -> tuple[Lifted, ...]:
    """Every reduction of a key (usually one)."""
    kind = type(key)
    if kind is Leaf:
        return (Lifted(None, zeros=(key,)),) if key.value == 0 else (Lifted(key),)
    if kind is ZeroProduct:
        return tuple(Lifted(None, zeros=(z,)) for z in zero_terms(key))
    if kind is Sum:
        return _lift_sum(key)
    return _lift_product(key)


def is_plain(key: Key) -> bool:
    """Whether a key gives nothing up (most keys)."""
    return lift(key) == (Lifted(key),)


def _choices(parts: tuple[Key, ...]) -> Iterator[tuple[Lifted, ...]]:
    """One reduction of each part, every combination (usually one)."""
    return product(*(lift(part) for part in parts))


def _lift_sum(key: Sum) -> tuple[Lifted, ...]:
    parts = key.plus + key.minus
    out: set[Lifted] = set()
    for chosen in _choices(parts):
        plus: list[Key] = []
        minus: list[Key] = []
        zeros: list[Key] = []
        ones: list[Key] = []
        for i, lifted in enumerate(chosen):
            inverse = i >= len(key.plus)
            ups, downs = (minus, plus) if inverse else (plus, minus)
            ones += lifted.ones  # rule 4: (A*O)+B = O*(A+B)
            zeros += [turned(z) if inverse else z for z in lifted.zeros]
            for pair in lifted.pairs:  # a pair out of a product is terms of this sum
                ups += pair.plus
                downs += pair.minus
            core = lifted.core
            if type(core) is Sum:  # rule 2
                ups += core.plus
                downs += core.minus
            elif core is not None:
                ups.append(core)
        for core, pairs in cancel_sum(tuple(sorted(plus)), tuple(sorted(minus)), key.value):
            out.add(Lifted(core, pairs, tuple(sorted(zeros)), tuple(sorted(ones))))
    return ordered(out)


@lru_cache(maxsize=1 << 16)
def cancel_sum(plus: tuple[Key, ...], minus: tuple[Key, ...], value: Value,
               ) -> tuple[tuple[Key | None, tuple[Key, ...]], ...]:
    """(core, pairs) of a sum: one added term X cancels everything subtracted, (A+X)-Y with
    A only added (rule 5), the least such X if several; otherwise the sum stays whole."""
    if minus and len(plus) >= 2:
        taken = SUMS.total(minus)
        found = [x for x in plus if x.value == taken]
        if found:
            x = min(found, key=part_order)
            return ((make_sum(_without(plus, (x,)), (), value), (Sum(0, "+", (x,), minus),)),)
    return ((make_sum(plus, minus, value), ()),)


def part_order(part: Key) -> tuple:
    """Of equal parts that could cancel, the one that does: fewer and smaller numbers first."""
    return numbers(part), part


def ordered(items: Iterable) -> tuple:
    """Reductions in a fixed order (a core may be None, so order by text)."""
    items = tuple(items)
    return items if len(items) <= 1 else tuple(sorted(items, key=repr))


def _without(items: tuple[Key, ...], taken: Iterable[Key]) -> list[Key]:
    rest = list(items)
    for k in taken:
        rest.remove(k)
    return rest


def _lift_product(key: Product) -> tuple[Lifted, ...]:
    parts = key.num + key.den
    out: set[Lifted] = set()
    for chosen in _choices(parts):
        num: list[Key] = []
        den: list[Key] = []
        pairs: list[Key] = []
        zeros: list[Key] = []
        for i, lifted in enumerate(chosen):
            ups, downs = (den, num) if i >= len(key.num) else (num, den)
            num += lifted.ones  # rule 4: B/(A*O) = O*(B/A), the one multiplies
            zeros += lifted.zeros  # rule 4: (A+Z)*B = Z+(A*B)
            pairs += lifted.pairs  # rule 5: ((A+X)-Y)*B = ((A*B)+X)-Y
            core = lifted.core
            if type(core) is Product:  # rule 2
                ups += core.num
                downs += core.den
            elif core is not None:
                ups.append(core)
        num += [k for k in den if k.value == 1]  # rule 4: A/O = A*O (O is no quotient)
        den = [k for k in den if k.value != 1]
        for core, more, ones in cancel_product(tuple(sorted(num)), tuple(sorted(den)),
                                               key.value):
            out.add(Lifted(core, tuple(sorted(pairs + list(more))), tuple(sorted(zeros)), ones))
    return ordered(out)


@lru_cache(maxsize=1 << 16)
def cancel_product(num: tuple[Key, ...], den: tuple[Key, ...], value: Value,
                   ) -> tuple[tuple[Key, tuple[Key, ...], tuple[Key, ...]], ...]:
    """(core, pairs, ones) of a product: a group of factors X cancels a group of divisors Y
    of the same value, (A*X)/(B*Y) = ((A/B)+X)-Y with A not empty (rule 5), one pair at a
    time, as long as any is left; then the factors worth one are lifted (rule 4)."""
    chosen = chosen_pair(num, den)
    if chosen is None:
        return lift_ones(num, den, value)
    x_group, y_group = chosen
    pair = SUMS.make([PRODUCTS.make(x_group)], [PRODUCTS.make(y_group)], 0)
    rest = tuple(_without(num, x_group)), tuple(_without(den, y_group))
    return tuple((core, tuple(sorted((pair, *pairs))), ones)
                 for core, pairs, ones in cancel_product(*rest, value))


def chosen_pair(num: tuple[Key, ...], den: tuple[Key, ...],
                ) -> tuple[tuple[Key, ...], tuple[Key, ...]] | None:
    """Which factors cancel which divisors, when several could: against the whole divisor
    first, then the fewest divisors, the fewest factors, the fewest and smallest numbers."""
    if not den or len(num) < 2:
        return None
    den_groups = _groups_by_total(den, len(den) + 1)
    plain = tuple(k for k in num if k.value != 1)  # a one is lifted, not cancelled
    best: tuple | None = None
    for x_group in _sub_multisets(plain, len(num)):
        for y_group in den_groups.get(PRODUCTS.total(x_group), ()):
            rank = (len(y_group) != len(den), len(y_group), len(x_group),
                    _numbers_of(x_group), _numbers_of(y_group), x_group, y_group)
            if best is None or rank < best:
                best = rank
    return None if best is None else (best[-2], best[-1])


def _numbers_of(parts: tuple[Key, ...]) -> tuple[int, ...]:
    return tuple(sorted(n for part in parts for n in numbers(part)))


def _sub_multisets(items: tuple[Key, ...], below: int) -> Iterator[tuple[Key, ...]]:
    """Every non-empty sub-multiset with fewer than `below` items, each once."""
    seen = set()
    for size in range(1, min(below, len(items) + 1)):
        for chosen in combinations(items, size):
            if chosen not in seen:
                seen.add(chosen)
                yield chosen


def _groups_by_total(items: tuple[Key, ...], below: int) -> dict[Value, list[tuple[Key, ...]]]:
    by_total: dict[Value, list[tuple[Key, ...]]] = {}
    for group in _sub_multisets(items, below):
        by_total.setdefault(PRODUCTS.total(group), []).append(group)
    return by_total


def lift_ones(num: tuple[Key, ...], den: tuple[Key, ...], value: Value,
              ) -> tuple[tuple[Key, tuple[Key, ...], tuple[Key, ...]], ...]:
    """(core, pairs, ones): the factors worth one leave the product (rule 4), which keeps
    something multiplied: the least one, when all its factors are ones."""
    ones = sorted((k for k in num if k.value == 1), key=one_order)
    rest = [k for k in num if k.value != 1]
    if not rest and ones:
        rest, ones = [ones[0]], ones[1:]
    return ((make_product(rest, den, value), (), tuple(sorted(ones))),)


@lru_cache(maxsize=1 << 14)
def zero_terms(key: ZeroProduct) -> tuple[ZeroProduct, ...]:
    """The zero term itself, reduced inside: what its zero lifts is multiplied by the zero
    too, so it joins the numbers (rule 4: whatever a zero multiplies counts once)."""
    out = set()
    for lifted in lift(key.zero):
        plus: list[Key] = []
        minus: list[Key] = []
        times = list(key.times)
        core = lifted.core
        if type(core) is Sum:
            plus += core.plus
            minus += core.minus
        elif core is not None:
            plus.append(core)
        for pair in lifted.pairs:
            plus += pair.plus
            minus += pair.minus
        inner = list(lifted.zeros)
        if not plus and not minus:  # the zero was itself a zero term: it is the base
            base, *inner = inner
            if type(base) is ZeroProduct:
                times += base.times
                base = base.zero
        else:
            base = make_sum(plus, minus, 0) or Leaf(0)
        for k in (*inner, *lifted.ones):
            times += numbers(k)
        out.add(ZeroProduct(0, "0*", base, tuple(sorted(times))))
    return tuple(sorted(out))


def clear() -> None:
    for cached in (lift, cancel_sum, cancel_product, zero_terms):
        cached.cache_clear()
