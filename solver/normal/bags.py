"""Bags: what is worth zero at the top of a solution, gathered into one zero times numbers.

Zero terms added together are one zero times numbers (rule 4: whatever a zero multiplies counts
once, by its numbers), and a factor worth one beside them joins those numbers. A cancelled pair
(or a zero the whole core makes) joins them only when a one is at hand to multiply it: O*(A+X-Y)
is A+(X-Y)*O. The numbers can make another zero, which can then be the one multiplied by the
rest (Z*(Z'*A) is Z'*(Z*A)); the bag is written in its least form.

>>> from solver.normal.groups import SUMS
>>> zero = SUMS.make([Leaf(3)], [Leaf(1), Leaf(2)])                  # 3-1-2
>>> least_bag([(zero, (5,))], ()), least_bag([(zero, (4,))], (5,))  # times 4 and 5: turned
(ZeroProduct((3-1-2)*[5]), ZeroProduct((1+2-3)*[4 5]))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations

from solver.expr import Value
from solver.normal.flat import add, div, mul, sub
from solver.normal.keys import Key, Leaf, Product, ZeroProduct, numbers, turned
from solver.normal.reduce import Lifted, lift, part_order, zero_term

POOL_LIMIT = 5  # zeros the numbers make are tried for up to this many numbers

Atom = tuple[Key, tuple[int, ...]]  # a zero and the numbers it multiplies


def least_bag(atoms: Iterable[Atom], extra: tuple[int, ...]) -> ZeroProduct:
    """The least way to write zeros, all multiplied by each other's numbers and by `extra`."""
    atoms = list(atoms)
    best: ZeroProduct | None = None
    for i, (base, times) in enumerate(atoms):
        pool = list(times) + list(extra)
        for j, (other, other_times) in enumerate(atoms):
            if j != i:
                pool += numbers(other) + other_times
        for form in _reachable(base, tuple(sorted(pool))):
            if best is None or form < best:
                best = form
    assert best is not None
    return best


def _reachable(base: Key, pool: tuple[int, ...]) -> set[ZeroProduct]:
    """Every way to write one zero times numbers: the numbers may make another zero that
    takes its place (rule 4: Z*(Z'*A) is Z'*(Z*A))."""
    start = _oriented(ZeroProduct(0, "0*", base, pool))
    seen = {start}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        if len(state.times) > POOL_LIMIT:
            continue
        for used, zero in zeros_within(state.times):
            rest = tuple(sorted(minus(state.times, used) + numbers(state.zero)))
            term = zero_term(_as_zero_term(zero))
            new = _oriented(ZeroProduct(0, "0*", term.zero, tuple(sorted(rest + term.times))))
            if new not in seen:
                seen.add(new)
                frontier.append(new)
    return seen


def _as_zero_term(zero: Key) -> ZeroProduct:
    if type(zero) is ZeroProduct:
        return zero
    return ZeroProduct(0, "0*", zero, ())


def _oriented(bag: ZeroProduct) -> ZeroProduct:
    """A zero times two numbers or more may be turned round (rule 3 through what they make:
    Z*(a-b) is (-Z)*(b-a)); times one number or none it keeps its way round."""
    if len(bag.times) < 2:
        return bag
    return min(bag, ZeroProduct(0, "0*", turned(bag.zero), bag.times))


def least_one(pool: tuple[int, ...]) -> tuple[Key, tuple[int, ...]] | None:
    """(one factor, numbers used): the least one factor some of the numbers make."""
    if len(pool) > POOL_LIMIT:
        return None
    found = [(part_order(k), k, used) for used in sub_pools(pool)
             for k in expressions_of(used).get(1, ())
             if not isinstance(k, Product) and lift(k) == Lifted(k)]
    return (min(found)[1], min(found)[2]) if found else None


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
    """(numbers used, zero) for every zero some of the numbers make."""
    for used in sub_pools(pool):
        for key in expressions_of(used).get(0, ()):
            yield used, key


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


CACHES = (values_of, expressions_of)
