"""Canonical keys: one key per distinct solution, from any flat key of it (rules 4 and 5).

Reduce: in every sum, a group of terms worth zero is lifted out to the top (it is a zero added
somewhere, and where a zero is added does not matter); in every product, a group of factors
worth one is lifted out the same way. A group with both a multiplied and a divided side, like
X/Y, is a cancelled pair and counts as the zero X-Y (rule 5). What is left is the *core*; what
was lifted is the *bag*: nothing, one part worth one, or one part worth zero times (maybe) some
numbers, because two lifted parts always combine (O*O' is O-O', Z+Z' is Z*Z').

Several reductions of one solution differ only by which of two equal parts stayed in the core
and which was lifted; so the canonical key is the least reduction reachable by swapping a part
of the core with an equal part of the bag. This module never searches for solutions.

>>> from solver.normal.flat import add, div, mul, sub
>>> times = canonical_key(div(mul(Leaf(10), add(Leaf(1), Leaf(2))), Leaf(3)))  # 10*(1+2)/3
>>> plus = canonical_key(sub(add(Leaf(10), add(Leaf(1), Leaf(2))), Leaf(3)))  # 10+(1+2)-3
>>> times == plus, plus           # rule 5: 10 is the core, the zero 1+2-3 is lifted
(True, Canonical(core=(Leaf(10),), bag=Bag(one=(), zero=(Sum(1+2-3),), pool=())))
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Iterator
from functools import lru_cache
from typing import NamedTuple

from solver.expr import Expr, Value
from solver.normal.atoms import (
    atom_forms,
    atom_pairs,
    atom_sides,
    literal_atoms,
    split_zero,
    zero_of,
)
from solver.normal.bags import (
    POOL_LIMIT,
    Bag,
    bag_of,
    expressions_of,
    frees,
    makes_within,
    minus,
    values_of,
    zeros_within,
)
from solver.normal.flat import signed_key
from solver.normal.groups import PRODUCTS, SUMS, Group, Items, group_of, split, sub_multisets
from solver.normal.keys import Key, Leaf, Product, Sum, numbers  # noqa: F401 (Leaf: examples)
from solver.normal.reduce import CACHES as REDUCE_CACHES
from solver.normal.reduce import lifted_unit, reduce


class Canonical(NamedTuple):
    """A reduction: the core ((), for a solution worth zero) and the bag."""

    core: tuple[Key, ...]
    bag: Bag


class Part(NamedTuple):
    """A part of a core (a node, or a group of terms or factors of one node) and how to put
    another part of the same value in its place."""

    key: Key
    rebuild: Callable[[Key], Key]


def parts(key: Key) -> Iterator[Part]:
    """Every part of a key, the key itself first."""
    yield Part(key, lambda new: new)
    group = group_of(key)
    if group is None:
        return
    items = group.items(key)
    for chosen, picked in sub_multisets(items):
        rest = tuple(item for i, item in enumerate(items) if i not in chosen)
        (p_up, p_down), total = split(picked), group.total_of(picked)
        if total > 0 if group is SUMS else bool(p_up):  # the group as it stands
            yield Part(group.make(p_up, p_down), _put(group, rest, False))
        if total < 0 if group is SUMS else bool(p_down):  # the group subtracted (divided)
            yield Part(group.make(p_down, p_up), _put(group, rest, True))
        if len(picked) == 1:
            inner_key, inverse = picked[0]
            for inner in parts(inner_key):
                if inner.key != inner_key:
                    yield Part(inner.key, _nest(_put(group, rest, inverse), inner.rebuild))


def nodes(key: Key) -> Iterator[Part]:
    """The parts of a key that are nodes of it (no groups taken out of a node)."""
    yield Part(key, lambda new: new)
    group = group_of(key)
    if group is None:
        return
    items = group.items(key)
    for i, (child, inverse) in enumerate(items):
        put = _put(group, items[:i] + items[i + 1:], inverse)
        for inner in nodes(child):
            yield Part(inner.key, _nest(put, inner.rebuild))


def _put(group: Group, rest: Items, inverse: bool) -> Callable[[Key], Key]:
    """How to put a new part beside the rest of a node (most parts are never put back)."""
    def put(new: Key) -> Key:
        up, down = split(rest)
        return group.make(up, (*down, new)) if inverse else group.make((*up, new), down)
    return put


def _nest(outer: Callable[[Key], Key], inner: Callable[[Key], Key]) -> Callable[[Key], Key]:
    return lambda new: outer(inner(new))


@lru_cache(maxsize=1 << 12)
def _by_value(key: Key | None) -> dict[Value, list[Part]]:
    """The parts of a key by value."""
    by_value: dict[Value, list[Part]] = {}
    if key is not None:
        for part in parts(key):
            by_value.setdefault(part.key.value, []).append(part)
    return by_value


def _state(core: Key | None, ones: tuple[Key, ...] = (), zeros: tuple[Key, ...] = (),
           pool: tuple[int, ...] = ()) -> Canonical:
    """The reduction of a core, with more lifted parts added to its bag."""
    if core is None:
        return Canonical((), bag_of(ones, zeros, pool, False))
    lifted = reduce(core)
    bag = bag_of(lifted.ones + ones, lifted.zeros + zeros, lifted.pool + pool,
                 lifted.core is not None)
    return Canonical(() if lifted.core is None else (lifted.core,), bag)


# ---------------------------------------------------------------------------------------------
# Swaps: from one reduction to the others.


def _swaps(state: Canonical) -> Iterator[Canonical]:
    """Every reduction that one swap of a part with an equal part of the bag makes."""
    core = state.core[0] if state.core else None
    bag = state.bag
    in_core = _by_value(core)
    if bag.one and core is not None:  # rule 4: O*(...u...) with u worth one, either is lifted
        for part in in_core.get(1, []):
            yield _state(part.rebuild(bag.one[0]), ones=(part.key,))
        yield from _relifts_beside(core, ((PRODUCTS, bag.one[0]),))
    if bag.zero and not bag.pool and core is not None:
        yield from _free_zero_swaps(core, bag.zero[0], in_core)
    if bag.pool:
        yield from _pool_swaps(core, bag, in_core)


def _free_zero_swaps(core: Key, zero: Key, in_core: dict[Value, list[Part]],
                     ) -> Iterator[Canonical]:
    """Swaps with a zero that nothing else holds: it can be put anywhere (rule 4)."""
    for x, y in atom_sides(zero):  # rule 5: (X-Y)+(...u...) with u = X, u-Y is the zero
        for part in in_core.get(x.value, []):
            if part.key != x:
                yield _state(part.rebuild(x), zeros=(zero_of(part.key, y),))
    for pair in atom_pairs(zero):  # rule 5: ...or the one X/Y, and u is lifted instead
        for part in in_core.get(1, []):
            yield _state(part.rebuild(pair), ones=(part.key,))
    yield from _relifts_beside(core, _placed(zero))


def _pool_swaps(core: Key | None, bag: Bag, in_core: dict[Value, list[Part]],
                ) -> Iterator[Canonical]:
    """Swaps through a zero times some numbers: the numbers can make another zero, a one, or
    a pair of equal parts; each can be lifted out of the product (rules 4 and 5) and swapped
    like any other, with a part of the core or of the zero itself."""
    atom = bag.zero[0]
    pool = bag.pool
    if len(pool) > POOL_LIMIT:
        return
    for used, zero in zeros_within(pool):  # rule 4: Z*(Z'*A) is Z'*(Z*A)
        yield _state(core, zeros=(zero,), pool=minus(pool, used) + numbers(atom))
    in_zero = _by_value(atom)
    for used, value, keys in makes_within(pool, set(in_core) | set(in_zero)):
        rest = minus(pool, used)
        if value != 1 and value not in values_of(rest):
            continue  # a pair needs both of its parts
        for part in in_core.get(value, []):
            for new in keys:
                if new != part.key:
                    yield _state(part.rebuild(new), zeros=(atom,), pool=rest + numbers(part.key))
        for part in in_zero.get(value, []):
            if part.key != atom:
                for new in keys:
                    if new != part.key:
                        yield _state(core, zeros=(part.rebuild(new),),
                                     pool=rest + numbers(part.key))
    if core is not None and frees(pool, True):  # the zero is free: swap its sides too
        for x, y in atom_sides(atom):
            for part in in_core.get(x.value, []):
                if part.key != x:
                    yield _state(part.rebuild(x), zeros=(zero_of(part.key, y),), pool=pool)
        if 1 in values_of(pool):
            yield from _swaps_beside(core, atom, pool)
            yield from _swaps_with_one(core, atom, pool)
            for whole in _whole_bag_zeros(atom, pool):
                yield from _free_zero_swaps(core, whole, in_core)


def _whole_bag_zeros(atom: Key, pool: tuple[int, ...]) -> list[Key]:
    """The numbers make a one O and the atom has a form X/Y, another one: O-X/Y is a zero made
    of everything in the bag (rule 5: two ones are a zero), as free as the atom."""
    ones = [k for k in expressions_of(pool).get(1, ()) if reduce(k) == (k, (), (), ())]
    return [zero_of(one, pair) for one in ones for pair in atom_pairs(atom)]


def _placed(atom: Key) -> list[tuple[Group, Key]]:
    """The forms of a zero atom and where each goes: a sum among terms (either way round:
    -Z is Z), a pair among factors."""
    placed: list[tuple[Group, Key]] = []
    for form in atom_forms(atom):
        if type(form) is Sum:
            placed += [(SUMS, form), (SUMS, Sum(0, "+", form.minus, form.plus))]
        elif type(form) is Product:
            placed.append((PRODUCTS, form))
    return placed


def _beside(core: Key, placed: Iterable[tuple[Group, Key]], wanted: tuple[Value, ...],
            ) -> Iterator[tuple[Group, Part, Items, Items]]:
    """A lifted part put back beside each node of the core (rule 4: a zero is added anywhere,
    a one multiplies anywhere), as terms into a sum or as factors into a product; then every
    group worth one of the `wanted` totals that takes from both the node and the lifted part:
    (group, node, group taken, what is left)."""
    for group, form in placed:
        lifted = group.items(form)
        lifted_groups = _groups_by_total(group, lifted)
        for part in nodes(core):
            items = group.items(part.key)
            for mask, total in _group_totals(group, items):
                for want in wanted:
                    for lifted_mask in lifted_groups.get(group.uncombine(want, total), ()):
                        if mask == (1 << len(items)) - 1 and lifted_mask == (1 << len(lifted)) - 1:
                            continue  # nothing would be left
                        picked = _masked(items, mask) + _masked(lifted, lifted_mask)
                        rest = (_masked(items, ~mask) + _masked(lifted, ~lifted_mask))
                        yield group, part, picked, rest


def _group_totals(group: Group, items: Items) -> list[tuple[int, Value]]:
    """(mask, total) of every non-empty group of the items."""
    totals: list[Value] = [group.unit] * (1 << len(items))
    out = []
    for mask in range(1, 1 << len(items)):
        low = mask & -mask
        key, inverse = items[low.bit_length() - 1]
        totals[mask] = (group.uncombine if inverse else group.combine)(totals[mask ^ low],
                                                                       key.value)
        out.append((mask, totals[mask]))
    return out


def _groups_by_total(group: Group, items: Items) -> dict[Value, list[int]]:
    by_total: dict[Value, list[int]] = {}
    for mask, total in _group_totals(group, items):
        by_total.setdefault(total, []).append(mask)
    return by_total


def _masked(items: Items, mask: int) -> Items:
    return tuple(item for i, item in enumerate(items) if mask >> i & 1)


def _relifts_beside(core: Key, placed: Iterable[tuple[Group, Key]]) -> Iterator[Canonical]:
    """Another group worth the unit lifted from a node of the core and a lifted part put
    together: 2*5/(2*(2-6/4)) is 2*5*(2*(2-6/4)) with the one 2*(2-6/4) lifted (rules 4, 5)."""
    for group in (SUMS, PRODUCTS):
        for _, part, picked, rest in _beside(core, [p for p in placed if p[0] is group],
                                             (group.unit,)):
            up, down = split(rest)
            if group is PRODUCTS and not up:
                continue  # nothing left multiplied: there is nothing to lift the group from
            lifted = lifted_unit(group, picked)
            yield _state(part.rebuild(group.make(up, down)), ones=lifted.ones,
                         zeros=lifted.zeros)


def _swaps_beside(core: Key, atom: Key, pool: tuple[int, ...]) -> Iterator[Canonical]:
    """A one the numbers make swapped with a group worth one taken from the core and the zero
    put together: (5+5)*(2-1)+(4-4) is (5+4+(2-1))*(5-4) (rule 4)."""
    ones = [k for k in expressions_of(pool).get(1, ()) if reduce(k) == (k, (), (), ())]
    sums = [(group, form) for group, form in _placed(atom) if group is SUMS]
    for _, part, picked, rest in _beside(core, sums, (1, -1)):
        total = SUMS.total_of(picked)
        (p_up, p_down), (r_up, r_down) = split(picked), split(rest)
        taken = SUMS.make(p_up, p_down) if total == 1 else SUMS.make(p_down, p_up)
        for one in ones:
            new = SUMS.make((*r_up, one), r_down) if total == 1 else SUMS.make(r_up, (*r_down, one))
            yield _state(part.rebuild(new), ones=(taken,))


def _swaps_with_one(core: Key | None, atom: Key, pool: tuple[int, ...]) -> Iterator[Canonical]:
    """The numbers make a one O, so the zero is free beside it: a side of the zero swapped
    with an equal part of O. (2+4-6)*(6-5) is (6-6)*(2+4-5) (rule 5)."""
    ones = [k for k in expressions_of(pool).get(1, ()) if reduce(k) == (k, (), (), ())]
    for one in ones:
        in_one = _by_value(one)
        for x, y in atom_sides(atom):
            for part in in_one.get(x.value, []):
                if part.key != x:
                    yield _state(core, ones=(part.rebuild(x),), zeros=(zero_of(part.key, y),))


# ---------------------------------------------------------------------------------------------
# The canonical key: the least reduction reachable by swaps.

_least: dict[Canonical, Canonical] = {}  # a first reduction -> the least one it reaches


def first_reduction(key: Key) -> Canonical:
    """The reduction `reduce` makes, its bag put in order."""
    lifted = reduce(key)
    return Canonical(() if lifted.core is None else (lifted.core,),
                     bag_of(lifted.ones, lifted.zeros, lifted.pool, lifted.core is not None))


def _reachable(start: Canonical, known: Container[Canonical] = ()) -> set[Canonical]:
    """Every reduction swaps reach from `start`, not going past the `known` ones."""
    seen = {start}
    frontier = [start]
    while frontier:
        for state in _swaps(frontier.pop()):
            if state not in seen:
                seen.add(state)
                if state not in known:
                    frontier.append(state)
    return seen


def canonical_key(key: Key) -> Canonical:
    """The canonical key of a flat key: equal exactly for the same solution.

    The least reduction reachable from the first one. The result depends only on the key (no
    other call's search is reused), so it never depends on what was asked before.
    """
    start = first_reduction(key)
    if start.bag == Bag():
        return start  # nothing lifted, nothing to swap
    least = _least.get(start)
    if least is None:
        least = min(_reachable(start))
        if len(_least) > 1 << 16:
            _least.clear()
        _least[start] = least
    return least


def solution_classes(keys: Iterable[Key]) -> list[int]:
    """A class number for each flat key of one hand's solutions: keys whose reductions are
    linked by swaps get the same number. Like comparing `canonical_key`s, but the swaps
    searched from one key are not searched again from another."""
    parent: dict[Canonical, Canonical] = {}

    def find(state: Canonical) -> Canonical:
        while parent[state] != state:
            parent[state] = parent[parent[state]]
            state = parent[state]
        return state

    starts = [first_reduction(key) for key in keys]
    for start in starts:
        if start in parent:
            continue
        parent[start] = start
        if start.bag == Bag():
            continue
        for state in _reachable(start, parent):
            root = find(state) if state in parent else parent.setdefault(state, state)
            parent[root] = find(start)
    numbers_of: dict[Canonical, int] = {}
    return [numbers_of.setdefault(find(start), len(numbers_of)) for start in starts]


def canonical_of(expr: Expr) -> tuple[int, Canonical]:
    """The canonical form of an expression: (sign of its value, canonical key)."""
    sign, key = signed_key(expr)
    return sign, canonical_key(key)


def clear_caches() -> None:
    """Forget every cached reduction (for benchmarks that start cold)."""
    for cached in (*REDUCE_CACHES, atom_forms, atom_sides, atom_pairs, split_zero, literal_atoms,
                   values_of, expressions_of, numbers, _by_value):
        cached.cache_clear()
    _least.clear()
