"""Sums and products are one structure: parts combined by an operation, with a unit and an inverse.

Every routine that treats sums and products alike takes a `Group` saying which: `SUMS` (terms
added and subtracted, unit 0) or `PRODUCTS` (factors multiplied and divided, unit 1).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations

from solver.expr import Value, divide
from solver.normal.keys import Key, Leaf, Product, Sum

Sides = tuple[tuple[Key, ...], tuple[Key, ...]]  # (up, down): (plus, minus) or (num, den)


@dataclass(frozen=True)
class Group:
    """How sums or products are built: which key kind, which unit, which operation and inverse."""

    kind: type[Sum] | type[Product]
    op: str
    unit: Value
    combine: Callable[[Value, Value], Value]
    uncombine: Callable[[Value, Value], Value]
    signs: str  # the operators, for messages: "+-" or "*/"

    def sides(self, key: Key) -> Sides:
        """(up, down) of a key of this group, or the key alone on the up side."""
        if isinstance(key, self.kind):
            return key[2], key[3]
        return (key,), ()

    def total(self, up: Iterable[Key], down: Iterable[Key]) -> Value:
        """The value of up[0] ∘ up[1] ∘ ... ∘⁻¹ down[0] ..."""
        value = self.unit
        for k in up:
            value = self.combine(value, k.value)
        for k in down:
            value = self.uncombine(value, k.value)
        return value

    def make(self, up: Iterable[Key], down: Iterable[Key], value: Value | None = None) -> Key:
        """The key of up ∘ ... ∘⁻¹ down ...: sorted sides, parts of this group flattened in.

        A single part on the up side is that part itself. `value` saves recomputing it.
        """
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

    def oriented(self, up: tuple[Key, ...], down: tuple[Key, ...]) -> Key:
        """A part worth the unit read either way round (X-Y or Y-X, X/Y or Y/X): the least."""
        if not down:
            return self.make(up, down)
        if not up:
            return self.make(down, up)
        return min(self.make(up, down), self.make(down, up))


SUMS = Group(Sum, "+", 0, operator.add, operator.sub, "+-")
PRODUCTS = Group(Product, "*", 1, operator.mul, divide, "*/")


def group_of(key: Key) -> Group | None:
    """SUMS for a Sum, PRODUCTS for a Product, None otherwise."""
    if isinstance(key, Sum):
        return SUMS
    if isinstance(key, Product):
        return PRODUCTS
    return None


def sub_multisets(items: tuple, smallest: int = 1) -> Iterable[tuple[tuple[int, ...], tuple]]:
    """(indices, items) of every proper sub-multiset with at least `smallest` items, smallest
    first; equal items give each sub-multiset once."""
    seen = set()
    for size in range(smallest, len(items)):
        for chosen in combinations(range(len(items)), size):
            picked = tuple(items[i] for i in chosen)
            if picked not in seen:
                seen.add(picked)
                yield chosen, picked


def is_leaf(key: Key, n: int) -> bool:
    return isinstance(key, Leaf) and key.value == n
