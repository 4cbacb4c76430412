"""Reduce a key: lift every group of terms worth zero and of factors worth one to the top.

Rule 4 lets a part worth zero be added anywhere and a part worth one multiply anywhere, so each
such group is taken out of its sum or product and kept aside ("lifted"); rule 5 makes a group
X/Y of equal parts the zero X-Y. What stays is the *core*. One reduction is made here, with the
first groups found; `solver.normal.canonical` finds the others.

>>> reduce(SUMS.make([Leaf(10), Leaf(1), Leaf(2)], [Leaf(3)]))   # 10+1+2-3: 1+2-3 is lifted
Lifted(core=Leaf(10), ones=(), zeros=(Sum(1+2-3),), pool=())
>>> reduce(PRODUCTS.make([Leaf(10), SUMS.make([Leaf(1), Leaf(2)])], [Leaf(3)]))  # rule 5
Lifted(core=Leaf(10), ones=(), zeros=(Product(3/(1+2)),), pool=())
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from solver.expr import Value
from solver.normal.groups import (
    PRODUCTS,
    SUMS,
    Group,
    Items,
    Signed,
    group_of,
    smallest_unit,
    split,
    without,
)
from solver.normal.keys import Key, Leaf, ZeroProduct


class Lifted(NamedTuple):
    """A reduction before its bag is put in order: the core (None when it is all worth zero),
    the lifted parts worth one and worth zero, and numbers a lifted zero multiplies."""

    core: Key | None
    ones: tuple[Key, ...] = ()
    zeros: tuple[Key, ...] = ()
    pool: tuple[int, ...] = ()


@lru_cache(maxsize=1 << 18)
def reduce(key: Key) -> Lifted:
    """The core of a key and what it lifted (one choice among equal parts)."""
    if type(key) is Leaf:
        return Lifted(None, zeros=(key,)) if key.value == 0 else Lifted(key)
    if type(key) is ZeroProduct:  # rule 4: the numbers a zero multiplies count once
        inner = reduce(key.zero)
        return Lifted(None, inner.ones, inner.zeros, inner.pool + key.times)
    group = group_of(key)
    assert group is not None
    up, down = group.sides(key)
    if all(reduce(k) == (k, (), (), ()) for k in up + down) and not _may_cancel(group, up, down):
        return Lifted(key)  # the common case: nothing to lift here or below
    return reduce_group(group, group.items(key), key)


def _may_cancel(group: Group, up: tuple[Key, ...], down: tuple[Key, ...]) -> bool:
    """Whether some parts make the unit (for a product: with one of them multiplied).

    A quick test before the full search of `smallest_unit`: the totals of the groups of
    added (multiplied) parts against those of subtracted (divided) ones.
    """
    if group is SUMS and not down:
        return False
    if group is PRODUCTS and not down and all(k.value > 1 for k in up):
        return False
    ups, downs = _group_totals(group, up), _group_totals(group, down)
    if group is PRODUCTS and (1 in ups or 1 in downs):
        return True
    return not ups.isdisjoint(downs)


def _group_totals(group: Group, parts: tuple[Key, ...]) -> set[Value]:
    """The totals of every non-empty group of the parts."""
    totals: set[Value] = set()
    for part in parts:
        totals |= {group.combine(t, part.value) for t in totals}
        totals.add(part.value)
    return totals


def reduce_group(group: Group, items: Items, key: Key | None = None) -> Lifted:
    """Reduce a sum or a product: its parts first, then its groups of parts worth the unit.

    Lifting parts worth the unit never changes a value, so the core keeps the key's value.
    """
    ones: list[Key] = []
    zeros: list[Key] = []
    pool: list[int] = []
    kept: list[Signed] = []
    changed = key is None
    for part, inverse in items:
        inner = reduce(part)
        if inner.core is part and not (inner.ones or inner.zeros or inner.pool):
            kept.append(Signed(part, inverse))
            continue
        changed = True
        ones += inner.ones
        zeros += inner.zeros
        pool += inner.pool
        if inner.core is not None:  # a core of the same group joins this one (rules 1, 2)
            kept += [Signed(k, inv != inverse) for k, inv in group.items(inner.core)]
    units, rest = _lift_units(group, tuple(kept))
    for unit in units:
        lifted = lifted_unit(group, unit)
        ones += lifted.ones
        zeros += lifted.zeros
    value = group.total_of(items) if key is None else key.value
    up, down = split(rest)
    if not rest:
        core = None
    elif group is PRODUCTS and down and _has_unit(rest):
        core = _least_signing(rest, value)
    elif not changed and not units:
        core = key
    else:
        core = group.make(up, down, value)
    return Lifted(core, tuple(ones), tuple(zeros), tuple(pool))


@lru_cache(maxsize=1 << 16)
def _lift_units(group: Group, items: Items) -> tuple[tuple[Items, ...], Items]:
    """(groups worth the unit, what is left): smallest groups first. A sum worth zero is
    lifted whole; a product always keeps something multiplied."""
    units = []
    while len(items) > 1:
        unit = smallest_unit(group, items)
        if unit is None and group is PRODUCTS:
            resigned = _resigned(items)
            if resigned is not None:
                items = resigned
                continue
        if unit is None:
            break
        units.append(unit)
        items = without(items, unit)
    if group is SUMS and items and group.total_of(items) == 0:
        units.append(items)
        items = ()
    return tuple(units), items


def lifted_unit(group: Group, unit: Items) -> Lifted:
    """A lifted group worth the unit, as what it stands for.

    Rule 4: terms worth zero are a zero; factors worth one, all multiplied (or all divided,
    A/O is A*O), are a one. Rule 5: factors X/Y with both sides are the zero X-Y.
    """
    up, down = split(unit)
    if group is SUMS or (up and down):
        return Lifted(None, zeros=(group.oriented(up, down),))
    return Lifted(None, ones=(PRODUCTS.make(up + down),))


def _has_unit(items: Items) -> bool:
    """Whether some factors, at least one of them multiplied, make one (the whole included)."""
    n = len(items)
    totals: list[Value] = [1] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        key, inverse = items[low.bit_length() - 1]
        totals[mask] = total = (PRODUCTS.uncombine if inverse else PRODUCTS.combine)(
            totals[mask ^ low], key.value)
        if total == 1 and any(not items[i].inverse for i in range(n) if mask >> i & 1):
            return True
    return False


def _signings(items: Items) -> Iterator[Items]:
    """Every way to multiply and divide the same factors with the same result, something
    multiplied: they differ by groups worth one turned round (X/Y is Y/X, rule 5)."""
    value = PRODUCTS.total_of(items)
    for signs in product((False, True), repeat=len(items)):
        signed = tuple(Signed(k, inverse) for (k, _), inverse in zip(items, signs, strict=True))
        if not all(signs) and PRODUCTS.total_of(signed) == value:
            yield signed


def _resigned(items: Items) -> Items | None:
    """Where no group worth one can be lifted only because nothing would be left multiplied,
    as in ((6/3)/2)/2, another way to sign the same factors may lift one: (2/(6/3))/2."""
    if not any(inverse for _, inverse in items) or not _has_unit(items):
        return None
    liftable = [signed for signed in _signings(items) if smallest_unit(PRODUCTS, signed)]
    return min(liftable) if liftable else None


@lru_cache(maxsize=1 << 16)
def _least_signing(items: Items, value: Value) -> Key:
    """Rule 5 where nothing is left to lift a pair from, as in ((1+1)/2)/2: the group X/Y
    worth one is Y/X as well, so take the least way to multiply and divide the same factors
    with the same result."""
    factors = [k for k, _ in items]
    best: Key | None = None
    for signs in product((False, True), repeat=len(factors)):
        num = [f for f, inverse in zip(factors, signs, strict=True) if not inverse]
        den = [f for f, inverse in zip(factors, signs, strict=True) if inverse]
        if num and PRODUCTS.total(num, den) == value:
            candidate = PRODUCTS.make(num, den, value)
            if best is None or candidate < best:
                best = candidate
    assert best is not None
    return best


CACHES = (reduce, _lift_units, _least_signing)  # what `clear_caches` empties
