"""Canonical keys: one key per distinct solution, from any flat key of it (rules 3 to 5).

`reduce.lift` takes out what may move (zero terms, one factors, cancelled pairs); here they are
put back at the top, where nothing else meets them: the pairs as terms of the top sum, the ones
multiplying the core, the zero terms as one zero times numbers (`bags`), which the top pair or
a zero core join when a one is at hand. A solution worth zero may be turned round as a whole
(rule 3): the lesser way round is canonical. This module never searches for solutions.

>>> from solver.normal.flat import add, div, mul, sub
>>> times = canonical_key(div(mul(Leaf(10), add(Leaf(1), Leaf(2))), Leaf(3)))  # 10*(1+2)/3
>>> plus = canonical_key(sub(add(Leaf(10), add(Leaf(1), Leaf(2))), Leaf(3)))  # 10+(1+2)-3
>>> times == plus, plus           # rule 5: (A*X)/Y is (A+X)-Y
(True, Sum(1+2+10-3))
>>> canonical_key(sub(add(Leaf(10), Leaf(3)), add(Leaf(1), Leaf(2))))   # the pair turned round
Sum(3+10-1-2)
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.expr import Expr, Value
from solver.normal.bags import CACHES as BAG_CACHES
from solver.normal.bags import Atom, least_bag, least_one, minus
from solver.normal.flat import signed_key
from solver.normal.groups import SUMS
from solver.normal.keys import Key, Leaf, Product, Sum, ZeroProduct, numbers, turned
from solver.normal.reduce import CACHES as REDUCE_CACHES
from solver.normal.reduce import (
    Lifted,
    cancel_product,
    cancel_sum,
    lift,
    make_product,
    make_sum,
    part_order,
)

_known: dict[Key, Key] = {}  # flat key -> canonical key


def canonical_key(key: Key) -> Key:
    """The canonical key of a flat key: equal exactly for the same solution.

    It depends only on the key (no other call's work is reused for the answer), so it never
    depends on what was asked before.
    """
    found = _known.get(key)
    if found is None:
        found = _top(lift(key), key.value)
        if key.value == 0:  # rule 3: a solution to 0 turned round is the same solution
            found = min(found, _top(lift(turned(key)), 0))
        if len(_known) > 1 << 17:
            _known.clear()
        _known[key] = found
    return found


def _top(lifted: Lifted, value: Value) -> Key:
    core, pairs, zeros, ones = lifted
    if ones and isinstance(core, Product) and core.den:  # the ones multiply a quotient: it may
        core, more, ones = cancel_product(tuple(sorted(core.num + ones)), core.den, core.value)
        pairs += more                               # cancel now (rule 5 before rule 4)
    plus, minus = _sides(core)
    for pair in pairs:  # the top sum
        up, down = SUMS.sides(pair)
        plus += up
        minus += down
    rest, top_pairs = cancel_sum(tuple(sorted(plus)), tuple(sorted(minus)), value)
    return _assemble(rest, top_pairs, zeros, tuple(sorted(ones, key=part_order)), value)


def _sides(core: Key | None) -> tuple[list[Key], list[Key]]:
    if core is None:
        return [], []
    if isinstance(core, Sum):
        return list(core.plus), list(core.minus)
    return [core], []


def _assemble(core: Key | None, pairs: tuple[Key, ...], zeros: tuple[Key, ...],
              ones: tuple[Key, ...], value: Value) -> Key:
    """The form a reduction takes once everything lifted is put back at the top."""
    if ones and core is not None and core.value == 1 and not (
            isinstance(core, Product) and core.den):  # ones only: the least stays
        core, *rest = sorted((core, *ones), key=part_order)
        ones = tuple(rest)
    zero_core = core is not None and core.value == 0
    atoms: list[Atom] = [(z.zero, z.times) if isinstance(z, ZeroProduct) else (z, ())
                         for z in zeros]
    extra = tuple(n for one in ones for n in numbers(one))
    if atoms and isinstance(core, Product) and core.den:  # a one out of the bag may cancel
        pool = tuple(sorted(extra + _pooled(atoms)))      # a quotient: O*X/Y is (O+X)-Y
        found = _free_one(atoms, pool)
        if found is not None:
            new, more, left = cancel_product(tuple(sorted((*core.num, found[0]))), core.den,
                                             core.value)
            if more:
                core, pairs, ones = new, pairs + more, ones + left
                extra = minus(pool, found[1]) + tuple(n for one in left for n in numbers(one))
                atoms = [(zero, ()) for zero, _ in atoms]
    if len(ones) >= 2 and pairs and not atoms and not zero_core:  # two ones, the top pair:
        whole = _join(core, pairs, None, value)  # neither takes the other (rules 4, 5)
        return _times(ones, whole) or whole
    # a one at hand: a one factor, or numbers of a zero term that make one
    at_hand = bool(ones) or (bool(atoms) and _free_one(atoms, tuple(sorted(_pooled(atoms))))
                             is not None)
    if at_hand and (pairs or zero_core):  # rule 4: O*(A+X-Y) is A+(X-Y)*O
        atoms += [(pair, ()) for pair in pairs]
        pairs = ()
        if zero_core and core is not None:
            atoms.append((core, ()))
            core = None
    if atoms and core is not None and core.value == 1 and not isinstance(core, Product):
        pool = tuple(sorted(extra + _pooled(atoms)))  # the least one stays, even out of a bag
        found = _free_one(atoms, pool)
        if found is not None and part_order(found[0]) < part_order(core):
            extra = minus(pool, found[1]) + numbers(core)
            atoms = [(zero, ()) for zero, _ in atoms]
            core = found[0]
    if atoms:
        return _join(core, pairs, least_bag(atoms, extra), value)
    if len(ones) >= 2 and core is not None and not (len(ones) > 2 and isinstance(core, Sum)):
        pair = SUMS.make([ones[1]], [ones[0]], 0)  # rule 5: A*O*O' is (A+O')-O, the lesser
        # divided; with a third one beside a sum, A = O''*(...) would not stay one term
        return _assemble(core, (*pairs, pair), (), ones[2:], value)
    return _join(_times(ones, core), pairs, None, value)


def _free_one(atoms: list[Atom], pool: tuple[int, ...]) -> tuple[Key, tuple[int, ...]] | None:
    """The least one factor the bag's numbers make that may leave it: a zero term is left
    behind (the number 0, or a zero still times something), not a bare pair (rule 4)."""
    found = least_one(pool)
    if found is None or (len(found[1]) == len(pool) and len(atoms) == 1
                         and not isinstance(atoms[0][0], Leaf)):
        return None
    return found


def _pooled(atoms: Iterable[Atom]) -> tuple[int, ...]:
    return tuple(n for _, times in atoms for n in times)


def _times(ones: tuple[Key, ...], core: Key | None) -> Key | None:
    """The ones multiplying the core (rule 4: they multiply the whole)."""
    if not ones:
        return core
    if core is None:
        return make_product(ones, (), 1)
    num, den = (core.num, core.den) if isinstance(core, Product) else ((core,), ())
    return make_product((*ones, *num), den, core.value)


def _join(core: Key | None, pairs: tuple[Key, ...], bag: ZeroProduct | None,
          value: Value) -> Key:
    """The top sum: the core, the pairs' terms and the bag."""
    plus, minus = _sides(core)
    for pair in pairs:
        up, down = SUMS.sides(pair)
        plus += up
        minus += down
    if bag is not None:
        plus.append(bag)
    return make_sum(plus, minus, value) or Leaf(0)


def solution_classes(keys: Iterable[Key]) -> list[int]:
    """A class number for each flat key of one hand's solutions: equal canonical keys."""
    numbers_of: dict[Key, int] = {}
    return [numbers_of.setdefault(canonical_key(key), len(numbers_of)) for key in keys]


def canonical_of(expr: Expr) -> tuple[int, Key]:
    """The canonical form of an expression: (sign of its value, canonical key)."""
    sign, key = signed_key(expr)
    return sign, canonical_key(key)


def clear_caches() -> None:
    """Forget every cached reduction (for benchmarks that start cold)."""
    for cached in (*REDUCE_CACHES, *BAG_CACHES, numbers):
        cached.cache_clear()
    _known.clear()
