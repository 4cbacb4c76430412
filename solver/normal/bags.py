"""Bags: what a reduction lifted, put in order, and the numbers a zero multiplies.

A bag is empty, or one part worth one, or one zero atom times (maybe) some numbers: two lifted
parts always combine into one (rule 5: O*O' is (A+O)-O'; rule 4: Z+Z' is Z*Z', and a zero
times anything counts once, by the numbers it multiplies). Those numbers are the bag's *pool*.

>>> bag_of((Leaf(1), Leaf(1)), (), (), has_core=True)    # A*1*1 is A+1-1
Bag(one=(), zero=(Sum(1-1),), pool=())
>>> bag_of((Leaf(1),), (SUMS.make([Leaf(3)], [Leaf(3)]),), (), has_core=True)  # A*1+(3-3)
Bag(one=(), zero=(Sum(3-3),), pool=(1,))
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from solver.expr import Value
from solver.normal.atoms import literal_atoms, split_zero, zero_of
from solver.normal.flat import add, div, mul, sub
from solver.normal.groups import SUMS  # noqa: F401 (examples)
from solver.normal.keys import Key, Leaf, Product, numbers
from solver.normal.reduce import reduce

POOL_LIMIT = 5  # swaps through the numbers a zero multiplies are tried for up to this many


class Bag(NamedTuple):
    """What a reduction lifted out of the core.

    `one`: () or (O,), a part worth one that multiplies the core. `zero`: () or (Z,), a zero
    atom added to it. `pool`: numbers that Z multiplies; whatever they make counts once.
    """

    one: tuple[Key, ...] = ()
    zero: tuple[Key, ...] = ()
    pool: tuple[int, ...] = ()


def _is_pair(key: Key) -> bool:
    return type(key) is Product and bool(key.num) and bool(key.den)


def bag_of(ones: tuple[Key, ...], zeros: tuple[Key, ...], pool: tuple[int, ...],
           has_core: bool) -> Bag:
    """Put lifted parts in order: at most one one, or one atom and the numbers it multiplies.

    An atom is *free* when something is added to it (the core, or another zero): then rule 5
    can turn X-Y into X/Y and back, and the atom is written in its least form. Alone at the top
    of a solution worth zero, or multiplied by numbers that make neither one nor zero, it is
    *bound* and kept as written: 2*3-6 and 2-6/3 are different solutions to 0.
    """
    out_ones = [o for o in ones if not _is_pair(o)]
    atoms = [o for o in ones if _is_pair(o)]  # a part X/Y worth one is the zero X-Y (rule 5)
    for zero in zeros:
        more_ones, more_atoms = literal_atoms(zero)
        out_ones += more_ones
        atoms += more_atoms
    if not atoms:
        if len(out_ones) <= 1:
            return Bag(one=tuple(out_ones))
        first, second, *others = sorted(out_ones)  # rule 5: O*O' is (A+O)-O'
        return bag_of(tuple(others), (zero_of(first, second),), pool, has_core)
    rest = list(pool)
    for k in out_ones:
        rest += numbers(k)
    free = len(atoms) > 1 or (frees(tuple(sorted(rest)), has_core) if rest else has_core)
    if not free:
        return Bag(zero=(atoms[0],), pool=tuple(sorted(rest)))
    pieces: list[Key] = []
    for atom in atoms:
        split_ones, split_atoms = split_zero(atom)
        pieces += split_atoms
        for k in split_ones:
            rest += numbers(k)
    pieces.sort()
    for k in pieces[1:]:
        rest += numbers(k)
    return Bag(zero=(pieces[0],), pool=tuple(sorted(rest)))


def frees(pool: tuple[int, ...], has_core: bool) -> bool:
    """Whether a zero times these numbers is free: they make another zero (Z*Z' is Z+Z'), or,
    beside a core, they make one, which then multiplies the core instead (rule 4)."""
    if len(pool) > POOL_LIMIT:
        return False
    if has_core and 1 in values_of(pool):
        return True
    return any(0 in values_of(part) for part in sub_pools(pool))


def minus(pool: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    """The numbers of a pool that are not used."""
    rest = list(pool)
    for n in used:
        rest.remove(n)
    return tuple(rest)


def sub_pools(pool: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every non-empty sub-multiset of a pool, the pool itself included."""
    seen = set()
    for size in range(1, len(pool) + 1):
        for chosen in combinations(pool, size):
            if chosen not in seen:
                seen.add(chosen)
                yield chosen


def zeros_within(pool: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], Key]]:
    """(numbers used, atom) for every zero atom some of the numbers make."""
    for used in sub_pools(pool):
        for key in expressions_of(used).get(0, ()):
            lifted = reduce(key)
            bag = bag_of(lifted.ones, lifted.zeros, lifted.pool, True)
            if bag.zero and not bag.pool:
                yield used, bag.zero[0]


def makes_within(pool: tuple[int, ...], wanted: set[Value],
                 ) -> Iterator[tuple[tuple[int, ...], Value, list[Key]]]:
    """(numbers used, value, keys) for the wanted values some of the numbers make, with no
    part to lift (a part worth one or zero in them would only go back to the pool)."""
    for used in sub_pools(pool):
        made = expressions_of(used)
        for value in wanted & made.keys():
            plain = [k for k in made[value] if reduce(k) == (k, (), (), ())]
            if plain:
                yield used, value, plain


@lru_cache(maxsize=1 << 12)
def values_of(pool: tuple[int, ...]) -> frozenset[Value]:
    """Every value the numbers make, all of them used."""
    return frozenset(expressions_of(pool)) if pool else frozenset()


@lru_cache(maxsize=1 << 12)
def expressions_of(pool: tuple[int, ...]) -> dict[Value, list[Key]]:
    """Every flat key over a few numbers, by value."""
    if len(pool) == 1:
        return {pool[0]: [Leaf(pool[0])]}
    out: dict[Value, set[Key]] = {}
    for size in range(1, len(pool) // 2 + 1):
        for left in set(combinations(pool, size)):
            right = minus(pool, left)
            for a in (k for keys in expressions_of(left).values() for k in keys):
                for b in (k for keys in expressions_of(right).values() for k in keys):
                    for k in _one_step(a, b):
                        out.setdefault(k.value, set()).add(k)
    return {v: sorted(keys) for v, keys in out.items()}


def _one_step(a: Key, b: Key) -> Iterator[Key]:
    yield add(a, b)
    yield sub(a, b) if a.value >= b.value else sub(b, a)
    yield mul(a, b)
    if b.value:
        yield div(a, b)
    if a.value:
        yield div(b, a)
