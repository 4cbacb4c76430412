"""Sums and products are one structure: parts combined by an operation, with a unit and an inverse.

Every routine that treats sums and products alike takes a `Group` saying which: `SUMS` (terms
added or subtracted, unit 0) or `PRODUCTS` (factors multiplied or divided, unit 1). A part of
either, with the side it is on, is a `Signed` item.

>>> SUMS.total([Leaf(8), Leaf(3)], [Leaf(5)]), PRODUCTS.total([Leaf(8), Leaf(3)], [Leaf(6)])
(6, 4)
>>> smallest_unit(SUMS, SUMS.items(SUMS.make([Leaf(10), Leaf(1), Leaf(2)], [Leaf(3)])))
(Signed(1), Signed(2), Signed(-3))
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from solver.expr import Value, divide
from solver.normal.keys import Key, Leaf, Product, Sum, text


class Signed(NamedTuple):
    """A term of a sum or a factor of a product, and whether it is subtracted or divided."""

    key: Key
    inverse: bool

    def __repr__(self) -> str:
        return f"Signed({'-' if self.inverse else ''}{text(self.key)})"


Items = tuple[Signed, ...]


@dataclass(frozen=True)
class Group:
    """How sums or products are built: which key kind, which unit, which operation and inverse."""

    kind: type[Sum] | type[Product]
    op: str  # the key's op field: "+" or "*"
    unit: Value
    combine: Callable[[Value, Value], Value]
    uncombine: Callable[[Value, Value], Value]

    def sides(self, key: Key) -> tuple[tuple[Key, ...], tuple[Key, ...]]:
        """(up, down): (plus, minus) or (num, den) of a key of this group, or the key alone."""
        if type(key) is self.kind:
            return key[2], key[3]
        return (key,), ()

    def items(self, key: Key) -> Items:
        """The parts of a key of this group as signed items (the key alone otherwise)."""
        up, down = self.sides(key)
        return tuple([Signed(k, False) for k in up] + [Signed(k, True) for k in down])

    def total(self, up: Iterable[Key], down: Iterable[Key] = ()) -> Value:
        """The value of up[0] ∘ up[1] ∘ ... ∘⁻¹ down[0] ..."""
        value = self.unit
        for k in up:
            value = self.combine(value, k.value)
        for k in down:
            value = self.uncombine(value, k.value)
        return value

    def total_of(self, items: Iterable[Signed]) -> Value:
        value = self.unit
        for k, inverse in items:
            value = (self.uncombine if inverse else self.combine)(value, k.value)
        return value

    def make(self, up: Iterable[Key], down: Iterable[Key] = (), value: Value | None = None,
             ) -> Key:
        """The key of up ∘ ... ∘⁻¹ down ...: sorted sides, parts of this group flattened in
        (rules 1 and 2). A single part on the up side is that part itself."""
        ups: list[Key] = []
        downs: list[Key] = []
        for k in up:
            a, b = self.sides(k)
            ups += a
            downs += b
        for k in down:
            a, b = self.sides(k)
            ups += b
            downs += a
        if len(ups) == 1 and not downs:
            return ups[0]
        if value is None:
            value = self.total(ups, downs)
        return self.kind(value, self.op, tuple(sorted(ups)), tuple(sorted(downs)))

    def make_from(self, items: Iterable[Signed]) -> Key:
        up, down = split(items)
        return self.make(up, down)

    def oriented(self, up: Sequence[Key], down: Sequence[Key]) -> Key:
        """A part worth the unit read either way round (X-Y or Y-X, X/Y or Y/X): the least
        (rule 3 for a zero, -Z is Z; rule 5 for a pair, the order of a cancelled pair is no
        idea either)."""
        if not up or not down:
            return self.make(up, down) if up else self.make(down, up)
        return min(self.make(up, down), self.make(down, up))


SUMS = Group(Sum, "+", 0, operator.add, operator.sub)
PRODUCTS = Group(Product, "*", 1, operator.mul, divide)


def group_of(key: Key) -> Group | None:
    """SUMS for a Sum, PRODUCTS for a Product, None otherwise."""
    if type(key) is Sum:
        return SUMS
    if type(key) is Product:
        return PRODUCTS
    return None


def split(items: Iterable[Signed]) -> tuple[tuple[Key, ...], tuple[Key, ...]]:
    """(up, down) of some signed items."""
    items = tuple(items)
    return (tuple(k for k, inverse in items if not inverse),
            tuple(k for k, inverse in items if inverse))


def sub_multisets(items: Sequence, smallest: int = 1) -> Iterator[tuple[tuple[int, ...], tuple]]:
    """(indices, items) of every proper sub-multiset with at least `smallest` items, smallest
    first; equal items give each sub-multiset once."""
    seen = set()
    for size in range(smallest, len(items)):
        for chosen in combinations(range(len(items)), size):
            picked = tuple(items[i] for i in chosen)
            if picked not in seen:
                seen.add(picked)
                yield chosen, picked


def smallest_unit(group: Group, items: Items) -> Items | None:
    """The smallest proper group of items worth the unit, None when there is none.

    A product keeps something multiplied: 2/(2*5) keeps 2/2, there is nothing to lift it from.
    """
    n = len(items)
    if n > 12 or (not any(inverse for _, inverse in items) and (
            group is SUMS or all(k.value > 1 for k, _ in items))):
        return None  # nothing to cancel: all terms added (positive), or all factors above one
    totals = [group.unit] * (1 << n)  # totals[mask]: the group of the items in mask
    best: tuple[int, int] | None = None
    for mask in range(1, (1 << n) - 1):
        low = mask & -mask
        key, inverse = items[low.bit_length() - 1]
        totals[mask] = total = (group.uncombine if inverse else group.combine)(
            totals[mask ^ low], key.value)
        if total == group.unit and (best is None or mask.bit_count() < best[0]) and (
                group is SUMS or any(not items[i].inverse for i in range(n)
                                     if not mask >> i & 1)):
            best = (mask.bit_count(), mask)
    if best is None:
        return None
    return tuple(items[i] for i in range(n) if best[1] >> i & 1)


def without(items: Items, taken: Iterable[Signed]) -> Items:
    """The items left when some of them are taken (equal items: as many as taken)."""
    rest = list(items)
    for item in taken:
        rest.remove(item)
    return tuple(rest)


def is_leaf(key: Key, n: int) -> bool:
    return type(key) is Leaf and key.value == n
