"""The search: every expression of a hand that reaches a target, one per flat key.

Value sets of small sub-hands are computed once and cached across calls (`reachable_values`);
bigger sub-hands are asked only for the values a solution needs (`Search.can_make`). Only
non-negative intermediate values are formed: any solution equals one that avoids negatives (rule 3
of `solver.normal`). Values are tried in ascending order (`ordered_values`), not in the order of
a set: the first solution is then defined by the search alone, and the compiled core
(solver/native/search.c) finds the same one.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import product

from solver.expr import Value, divide, exact
from solver.normal import Key, add, div, leaf, mul, negatable, sub, zero_times

Hand = tuple[int, ...]  # sorted
SMALL = 4  # sub-hands up to this size get their whole value set


@lru_cache(maxsize=1 << 14)
def splits(hand: Hand) -> tuple[tuple[Hand, Hand], ...]:
    """Every way to cut a hand into two non-empty sub-hands, each unordered pair once."""
    distinct = sorted(set(hand))
    counts = [hand.count(n) for n in distinct]
    result = []
    for chosen in product(*(range(c + 1) for c in counts)):
        left = tuple(n for n, k in zip(distinct, chosen, strict=True) for _ in range(k))
        if 0 < len(left) < len(hand):
            right = tuple(n for n, k, c in zip(distinct, chosen, counts, strict=True)
                          for _ in range(c - k))
            if left <= right:
                result.append((left, right))
    return tuple(result)


def combine_values(a: Value, b: Value, integer_only: bool) -> Iterator[Value]:
    """Every non-negative value one operation makes of a and b."""
    yield a + b
    yield a - b if a >= b else b - a
    yield a * b
    if b:
        q = divide(a, b)
        if not integer_only or isinstance(q, int):
            yield q
    if a:
        q = divide(b, a)
        if not integer_only or isinstance(q, int):
            yield q


@lru_cache(maxsize=1 << 15)
def ordered_values(hand: Hand, integer_only: bool = False) -> tuple[Value, ...]:
    """The hand's values, ascending: the order the search tries them in."""
    return tuple(sorted(reachable_values(hand, integer_only)))


@lru_cache(maxsize=1 << 15)
def reachable_values(hand: Hand, integer_only: bool = False) -> frozenset[Value]:
    """Every non-negative value the whole hand can make."""
    if len(hand) == 1:
        return frozenset(hand)
    values: set[Value] = set()
    for left, right in splits(hand):
        right_values = reachable_values(right, integer_only)
        for a in reachable_values(left, integer_only):
            for b in right_values:
                values.update(combine_values(a, b, integer_only))
    return frozenset(values)


def _wanted(v: Value, a: Value, integer_only: bool) -> Iterator[tuple[str, Value]]:
    """For a side worth `a`, each (operation, value the other side b needs) so that the result is v.

    Operations: "a+b", "a-b", "b-a", "a*b", "a/b", "b/a". Only for v != 0; products by zero are
    handled apart, since they make zero whatever the other side is.
    """
    if v >= a:
        yield "a+b", v - a
    if a >= v:
        yield "a-b", a - v
    yield "b-a", v + a
    if a:
        for op, b in (("a*b", divide(v, a)), ("a/b", divide(a, v)), ("b/a", exact(v * a))):
            if not integer_only or isinstance(b, int):
                yield op, b


class Search:
    """One search over one hand: memoised expressions per (sub-hand, value)."""

    def __init__(self, integer_only: bool = False) -> None:
        self.integer_only = integer_only
        self._made: dict[tuple[Hand, Value], bool] = {}
        self._exprs: dict[tuple[Hand, Value], list[Key]] = {}

    def values(self, hand: Hand) -> frozenset[Value]:
        return reachable_values(hand, self.integer_only)

    def can_make(self, hand: Hand, v: Value) -> bool:
        """Whether the hand reaches v (asked of big hands, whose value sets are too large)."""
        if len(hand) <= SMALL:
            return v in self.values(hand)
        memo = (hand, v)
        if memo not in self._made:
            if v == 0:
                self._made[memo] = any(
                    self.can_make(left, 0) or self.can_make(right, 0)
                    or any(self.can_make(right, a) for a in self.values(left))
                    for left, right in splits(hand))
            else:
                self._made[memo] = any(True for _ in self._hits(hand, v))
        return self._made[memo]

    def reaches(self, hand: Hand, v: Value) -> bool:
        """Whether the hand reaches v, asked once: unlike `can_make`, a small hand's own value
        set (thousands of fractions for four numbers) is not built, only its parts'."""
        if len(hand) == 1 or v == 0:
            return self.can_make(hand, v)
        return any(True for _ in self._hits(hand, v))

    def _hits(self, hand: Hand, v: Value) -> Iterator[tuple[str, Hand, Value, Hand, Value]]:
        """(operation, side a, its value, side b, its value) for each way to reach v != 0."""
        for left, right in splits(hand):
            small, big = (left, right) if len(left) <= len(right) else (right, left)
            if len(big) <= SMALL and len(self.values(big)) < len(self.values(small)):
                small, big = big, small
            # b is never negative (v and a are not); a side of up to SMALL numbers answers
            # from its value set directly.
            made = self.values(big).__contains__ if len(big) <= SMALL else None
            for a in ordered_values(small, self.integer_only):
                for op, b in _wanted(v, a, self.integer_only):
                    if made(b) if made else self.can_make(big, b):
                        yield op, small, a, big, b

    def expressions(self, hand: Hand, v: Value) -> list[Key]:
        """Every flat key of the hand worth v (v >= 0)."""
        memo = (hand, v)
        found = self._exprs.get(memo)
        if found is None:
            found = list(dict.fromkeys(self._build(hand, v)))
            self._exprs[memo] = found
        return found

    def _build(self, hand: Hand, v: Value) -> Iterator[Key]:
        if len(hand) == 1:
            if hand[0] == v:
                yield leaf(hand[0])
            return
        if v == 0:
            yield from self._build_zero(hand)
            return
        for op, small, a, big, b in self._hits(hand, v):
            for ka in self.expressions(small, a):
                for kb in self.expressions(big, b):
                    yield _combine(op, ka, kb, v)

    def first(self, hand: Hand, v: Value, negative: bool = False) -> Key | None:
        """One flat key worth v (one that can be written negated, if asked), or None."""
        if negative:
            return next((k for k in self._build(hand, v) if negatable(k)), None)
        if len(hand) == 1 or v == 0:
            return next(iter(self._build(hand, v)), None)
        for op, small, a, big, b in self._hits(hand, v):
            ka, kb = self.first(small, a), self.first(big, b)
            if ka is not None and kb is not None:
                return _combine(op, ka, kb, v)
        return None

    def _build_zero(self, hand: Hand) -> Iterator[Key]:
        """Zero-valued expressions: equal sides subtracted, zeros added, products by zero."""
        for left, right in splits(hand):
            small, big = (left, right) if len(left) <= len(right) else (right, left)
            for a in ordered_values(small, self.integer_only):
                if self.can_make(big, a):
                    for ka in self.expressions(small, a):
                        for kb in self.expressions(big, a):
                            yield add(ka, kb) if a == 0 else sub(ka, kb)
            for zero_side, other in ((left, right), (right, left)):
                if self.can_make(zero_side, 0):
                    for z in self.expressions(zero_side, 0):
                        yield from self._times_zero(z, other)
                if left == right:
                    break

    def _times_zero(self, z: Key, hand: Hand) -> Iterator[Key]:
        """z times any expression of the hand: one key, since a zero times anything counts
        once, by the numbers it multiplies (rule 4)."""
        yield zero_times(z, hand)


def _combine(op: str, ka: Key, kb: Key, v: Value) -> Key:
    """The flat key of `ka op kb`, whose value v the search already knows."""
    if op == "a+b":
        return add(ka, kb, v)
    if op == "a-b":
        return sub(ka, kb, v)
    if op == "b-a":
        return sub(kb, ka, v)
    if op == "a*b":
        return mul(ka, kb, v)
    if op == "a/b":
        return div(ka, kb, v)
    return div(kb, ka, v)
