"""Sums and products are one structure: parts combined by an operation, with a unit and an inverse.

Every routine that treats sums and products alike takes a `Group` saying which: `SUMS` (terms
added or subtracted, unit 0) or `PRODUCTS` (factors multiplied or divided, unit 1).

>>> SUMS.total([Leaf(8), Leaf(3)], [Leaf(5)]), PRODUCTS.total([Leaf(8), Leaf(3)], [Leaf(6)])
(6, 4)
>>> SUMS.make([Leaf(10), SUMS.make([Leaf(1)], [Leaf(3)])], [Leaf(2)])   # 10+(1-3)-2
Sum(1+10-2-3)
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from solver.expr import Value, divide
from solver.normal.keys import Key, Leaf, Product, Sum  # noqa: F401 (Leaf: examples)


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

    def total(self, up: Iterable[Key], down: Iterable[Key] = ()) -> Value:
        """The value of up[0] ∘ up[1] ∘ ... ∘⁻¹ down[0] ..."""
        value = self.unit
        for k in up:
            value = self.combine(value, k.value)
        for k in down:
            value = self.uncombine(value, k.value)
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


SUMS = Group(Sum, "+", 0, operator.add, operator.sub)
PRODUCTS = Group(Product, "*", 1, operator.mul, divide)
