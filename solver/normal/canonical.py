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
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from solver.expr import Value
from solver.normal.flat import add, div, mul, signed_key, sub
from solver.normal.groups import PRODUCTS, SUMS, Group, group_of, sub_multisets
from solver.normal.keys import Key, Leaf, Product, Sum, ZeroProduct, numbers

POOL_LIMIT = 5  # swaps through a zero's numbers are explored for up to this many numbers


class Bag(NamedTuple):
    """What a reduction lifted out of the core.

    `one`: () or (O,), a part worth one that multiplies the core. `zero`: () or (Z,), a part
    worth zero that no rewrite splits in two. `pool`: numbers that Z multiplies; whatever they
    make, it counts once (rule 4).
    """

    one: tuple[Key, ...] = ()
    zero: tuple[Key, ...] = ()
    pool: tuple[int, ...] = ()


class Canonical(NamedTuple):
    """A reduction: the core ((), for a solution worth zero) and the bag."""

    core: tuple[Key, ...]
    bag: Bag


class Lifted(NamedTuple):
    """A reduction before its bag is put in order."""

    core: Key | None
    ones: tuple[Key, ...]
    zeros: tuple[Key, ...]
    pool: tuple[int, ...]


# ---------------------------------------------------------------------------------------------
# Reduce: lift every part worth zero or one to the top.


@lru_cache(maxsize=1 << 18)
def reduce(key: Key) -> Lifted:
    """The core of a key and what it lifted (one choice among equal parts)."""
    if isinstance(key, Leaf):
        if key.value == 0:
            return Lifted(None, (), (key,), ())
        return Lifted(key, (), (), ())
    if isinstance(key, ZeroProduct):
        inner = reduce(key.zero)
        return Lifted(None, inner.ones, inner.zeros, inner.pool + key.times)
    group = group_of(key)
    assert group is not None
    return _reduce_group(group, *group.sides(key))


def _reduce_group(group: Group, up: tuple[Key, ...], down: tuple[Key, ...]) -> Lifted:
    ones: list[Key] = []
    zeros: list[Key] = []
    pool: list[int] = []
    kept_up: list[Key] = []
    kept_down: list[Key] = []
    for inverse, parts in ((False, up), (True, down)):
        for part in parts:
            inner = reduce(part)
            ones += inner.ones
            zeros += inner.zeros
            pool += inner.pool
            if inner.core is not None:
                a, b = group.sides(inner.core)
                kept_up += b if inverse else a
                kept_down += a if inverse else b
    units, kept_up, kept_down = _lift_units(group, kept_up, kept_down)
    for unit_up, unit_down in units:
        if group is SUMS or (unit_up and unit_down):
            zeros.append(_unit_as_zero(group, unit_up, unit_down))  # rule 4, and rule 5 X/Y
        else:
            ones.append(PRODUCTS.make(unit_up + unit_down, ()))  # rule 4: A/O is A*O
    core = None
    if kept_up or kept_down:
        if group.total(kept_up, kept_down) == group.unit:
            core = group.oriented(tuple(kept_up), tuple(kept_down))
        else:
            core = group.make(kept_up, kept_down)
    return Lifted(core, tuple(ones), tuple(zeros), tuple(pool))


def _lift_units(group: Group, up: list[Key], down: list[Key],
                ) -> tuple[list[tuple[tuple[Key, ...], tuple[Key, ...]]], list[Key], list[Key]]:
    """Take out groups worth the unit, smallest first, each not containing a smaller one.

    A product keeps at least one factor; a sum worth zero is taken out whole.
    """
    items = [(k, False) for k in up] + [(k, True) for k in down]
    units = []
    while len(items) > 1:
        found = _first_unit(group, tuple(items))
        if found is None:
            break
        chosen, picked = found
        units.append(_split_signed(picked))
        items = [item for i, item in enumerate(items) if i not in chosen]
    if group is SUMS and items and _signed_total(group, tuple(items)) == 0:
        units.append(_split_signed(tuple(items)))
        items = []
    return units, [k for k, inv in items if not inv], [k for k, inv in items if inv]


def _first_unit(group: Group, items: tuple) -> tuple[tuple[int, ...], tuple] | None:
    if len(items) > 12:
        return None  # too many to try every group; none of our hands comes near
    for chosen, picked in sub_multisets(items):
        if _signed_total(group, picked) == group.unit and (
                group is SUMS or any(not inv for i, (_, inv) in enumerate(items)
                                     if i not in chosen)):
            return chosen, picked  # a product keeps something to divide: 2/(2*5) stays
    return None


def _signed_total(group: Group, items: tuple) -> Value:
    return group.total([k for k, inv in items if not inv], [k for k, inv in items if inv])


def _split_signed(items: tuple) -> tuple[tuple[Key, ...], tuple[Key, ...]]:
    return tuple(k for k, inv in items if not inv), tuple(k for k, inv in items if inv)


def _unit_as_zero(group: Group, up: tuple[Key, ...], down: tuple[Key, ...]) -> Key:
    """A group worth the unit as the zero it stands for: Z itself, or X/Y as X-Y (rule 5)."""
    if group is SUMS:
        return SUMS.oriented(up, down)
    return PRODUCTS.oriented(up, down)


# ---------------------------------------------------------------------------------------------
# Zero atoms: a part worth zero that no rewrite splits in two. Sum form X+Y-Z and pair form
# X/Y (rule 5: (A*X)/Y is (A+X)-Y) are two ways of writing one atom.


def _two_sides(atom: Key) -> Iterator[tuple[Key, Key]]:
    """(X, Y), X and Y of equal value, such that the atom is X-Y (or X/Y for a pair)."""
    group = group_of(atom)
    if group is None:
        return
    items = tuple([(k, False) for k in atom[2]] + [(k, True) for k in atom[3]])
    for chosen, picked in sub_multisets(items):
        rest = tuple(item for i, item in enumerate(items) if i not in chosen)
        p_up, p_down = _split_signed(picked)
        r_up, r_down = _split_signed(rest)
        if group is SUMS:
            total = _signed_total(group, picked)
            if total > 0:
                yield SUMS.make(p_up, p_down), SUMS.make(r_down, r_up)
        elif p_up and r_down:
            yield PRODUCTS.make(p_up, p_down), PRODUCTS.make(r_down, r_up)


@lru_cache(maxsize=1 << 14)
def atom_forms(atom: Key) -> frozenset[Key]:
    """Every way to write the atom: as a sum worth zero, or as a pair X/Y of equal parts."""
    seen = {atom}
    frontier = [atom]
    while frontier:
        current = frontier.pop()
        for x, y in _two_sides(current):
            other = (PRODUCTS if isinstance(current, Sum) else SUMS).oriented((x,), (y,))
            if other not in seen and group_of(other) is not None:
                seen.add(other)
                frontier.append(other)
    return frozenset(seen)


@lru_cache(maxsize=1 << 14)
def atom_sides(atom: Key) -> tuple[tuple[Key, Key], ...]:
    """Every (X, Y) of equal value such that the atom is X-Y, over all its forms."""
    return tuple(sorted({side for form in atom_forms(atom) for side in _two_sides(form)}))


def _pieces(form: Key) -> tuple[list[Key], list[Key]]:
    """(ones, zeros) of one form of an atom, reduced like any other part."""
    group = group_of(form)
    assert group is not None
    lifted = _reduce_group(group, *group.sides(form))
    ones, zeros = list(lifted.ones), list(lifted.zeros)
    core = lifted.core
    if core is not None:  # what a pair keeps: itself a pair, or a part worth one
        if isinstance(core, Product) and core.num and core.den:
            zeros.append(core)
        else:
            ones.append(core)
    return ones, zeros


@lru_cache(maxsize=1 << 14)
def atom_pairs(atom: Key) -> tuple[Key, ...]:
    """The forms X/Y of an atom: beside a core, the zero X-Y is the one X/Y (rule 5)."""
    return tuple(sorted(f for f in atom_forms(atom) if isinstance(f, Product)))


@lru_cache(maxsize=1 << 14)
def split_zero(zero: Key) -> tuple[tuple[Key, ...], tuple[Key, ...]]:
    """(ones, atoms) a part worth zero falls into; an atom is written in its least form.

    Two parts worth one make one zero (O*O' is O-O'), so a pair of two ones stays whole.
    """
    forms = atom_forms(zero)
    for form in sorted(forms):
        if group_of(form) is None:
            continue
        ones, zeros = _pieces(form)
        if (len(zeros) == 1 and not ones) or (len(ones) == 2 and not zeros):
            continue
        out_ones: list[Key] = list(ones)
        out_zeros: list[Key] = []
        for z in zeros:
            o, a = split_zero(z)
            out_ones += o
            out_zeros += a
        return tuple(out_ones), tuple(out_zeros)
    return (), (min(forms),)


def zero_of(x: Key, y: Key) -> Key:
    """The zero X-Y of two parts of equal value."""
    return SUMS.oriented((x,), (y,))


# ---------------------------------------------------------------------------------------------
# Bags.


def _literal_atoms(zero: Key) -> tuple[list[Key], list[Key]]:
    """(ones, atoms) of a part worth zero, split only where its terms regroup (rule 2)."""
    if isinstance(zero, Sum):
        lifted = _reduce_group(SUMS, zero.plus, zero.minus)
        return list(lifted.ones), list(lifted.zeros)
    return [], [zero]


def bag_of(ones: tuple[Key, ...], zeros: tuple[Key, ...], pool: tuple[int, ...],
           has_core: bool) -> Bag:
    """Put lifted parts in order: at most one one, or one atom and the numbers it multiplies.

    An atom is written in its least form when it is *free*: something is added to it (the core,
    or another zero), so that rule 5 can turn X-Y into X/Y and back. Alone at the top of a
    solution worth zero, or multiplied by numbers that make neither one nor zero, it is *bound*
    and kept as written: 2*3-6 and 2-6/3 are different solutions to 0.
    """
    out_ones = list(ones)
    atoms: list[Key] = []
    for z in zeros:
        o, a = _literal_atoms(z)
        out_ones += o
        atoms += a
    pairs = [o for o in out_ones if isinstance(o, Product) and o.num and o.den]
    if pairs:  # a part X/Y worth one beside a core is the zero X-Y (rule 5)
        atoms += pairs
        out_ones = [o for o in out_ones if not (isinstance(o, Product) and o.num and o.den)]
    if not atoms:
        if len(out_ones) <= 1:
            return Bag(one=tuple(out_ones))
        first, second, *others = sorted(out_ones)  # O*O' is (A+O)-O' (rule 5)
        return bag_of(tuple(others), (zero_of(first, second),), pool, has_core)
    rest = list(pool)
    for k in out_ones:
        rest += numbers(k)
    if len(atoms) == 1:
        free = has_core if not rest else _frees(tuple(sorted(rest)), has_core)
    else:
        free = True
    if not free:
        return Bag(zero=(atoms[0],), pool=tuple(sorted(rest)))
    pieces_ones: list[Key] = []
    pieces: list[Key] = []
    for atom in atoms:
        o, a = split_zero(atom)
        pieces_ones += o
        pieces += a
    if len(pieces) == 1 and not pieces_ones and not rest:
        return Bag(zero=tuple(pieces))
    if len(pieces) == 1 and not rest and len(pieces_ones) == 0:
        return Bag(zero=tuple(pieces))
    pieces.sort()
    for k in pieces[1:] + pieces_ones:
        rest += numbers(k)
    if not rest:
        return Bag(zero=(pieces[0],))
    return Bag(zero=(pieces[0],), pool=tuple(sorted(rest)))


def _frees(pool: tuple[int, ...], has_core: bool) -> bool:
    """Whether a zero times these numbers is free: they make another zero, or (beside a core)
    they make one, which then multiplies the core instead."""
    if len(pool) > POOL_LIMIT:
        return False
    if has_core and 1 in _values(pool):
        return True
    return any(0 in _values(part) for part in _sub_pools(pool))


# ---------------------------------------------------------------------------------------------
# Parts of a core, and swapping one with an equal part of the bag.


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
    items = tuple([(k, False) for k in key[2]] + [(k, True) for k in key[3]])
    for chosen, picked in sub_multisets(items):
        rest = [item for i, item in enumerate(items) if i not in chosen]
        r_up, r_down = _split_signed(tuple(rest))
        p_up, p_down = _split_signed(picked)
        total = _signed_total(group, picked)
        as_up = total > 0 if group is SUMS else bool(p_up)
        as_down = total < 0 if group is SUMS else bool(p_down)
        if as_up:
            yield Part(group.make(p_up, p_down), _put(group, r_up, r_down, False))
        if as_down:
            yield Part(group.make(p_down, p_up), _put(group, r_up, r_down, True))
        if len(picked) == 1:
            inner_key, inverse = picked[0]
            for inner in parts(inner_key):
                if inner.key != inner_key:
                    yield Part(inner.key, _nest(group, r_up, r_down, inverse, inner.rebuild))


def _put(group: Group, up: tuple[Key, ...], down: tuple[Key, ...], inverse: bool,
         ) -> Callable[[Key], Key]:
    if inverse:
        return lambda new: group.make(up, (*down, new))
    return lambda new: group.make((*up, new), down)


def _nest(group: Group, up: tuple[Key, ...], down: tuple[Key, ...], inverse: bool,
          inner: Callable[[Key], Key]) -> Callable[[Key], Key]:
    put = _put(group, up, down, inverse)
    return lambda new: put(inner(new))


def _state(core: Key | None, ones: tuple[Key, ...] = (), zeros: tuple[Key, ...] = (),
           pool: tuple[int, ...] = ()) -> Canonical:
    """The reduction of a core with more lifted parts added to its bag."""
    if core is None:
        return Canonical((), bag_of(ones, zeros, pool, False))
    lifted = reduce(core)
    bag = bag_of(lifted.ones + ones, lifted.zeros + zeros, lifted.pool + pool,
                 lifted.core is not None)
    return Canonical(() if lifted.core is None else (lifted.core,), bag)


def _index(key: Key | None) -> dict[Value, list[Part]]:
    by_value: dict[Value, list[Part]] = {}
    if key is not None:
        for part in parts(key):
            by_value.setdefault(part.key.value, []).append(part)
    return by_value


def _swaps(state: Canonical) -> Iterator[Canonical]:
    """Every reduction one swap of a part with an equal part of the bag makes."""
    core = state.core[0] if state.core else None
    bag = state.bag
    in_core = _index(core)
    if bag.one:  # O*(...u...) with u worth one: either may stay (rule 4)
        for part in in_core.get(1, []):
            yield _state(part.rebuild(bag.one[0]), ones=(part.key,))
    if bag.zero and not bag.pool and core is not None:
        atom = bag.zero[0]
        for x, y in atom_sides(atom):  # (X-Y)+(...u...) with u = X: u-Y is the zero now
            for part in in_core.get(x.value, []):
                if part.key != x:
                    yield _state(part.rebuild(x), zeros=(zero_of(part.key, y),))
        for pair in atom_pairs(atom):  # ...or the one X/Y (rule 5), and u is lifted instead
            for part in in_core.get(1, []):
                yield _state(part.rebuild(pair), ones=(part.key,))
    if bag.pool:
        yield from _pool_swaps(core, bag, in_core)


def _pool_swaps(core: Key | None, bag: Bag, in_core: dict[Value, list[Part]],
                ) -> Iterator[Canonical]:
    """Swaps through a zero times some numbers: the numbers can make another zero, a one, or
    a pair of equal parts; each can be lifted out of the product and swapped like any other,
    with a part of the core or of the zero itself."""
    atom = bag.zero[0]
    pool = bag.pool
    if len(pool) > POOL_LIMIT:
        return
    for used, zero in _zeros_within(pool):  # Z*(Z'*A) is Z'*(Z*A)
        yield _state(core, zeros=(zero,), pool=_minus(pool, used) + numbers(atom))
    in_zero = _index(atom)
    wanted = set(in_core) | set(in_zero)
    for used, value, keys in _makes_within(pool, wanted):
        rest = _minus(pool, used)
        if value != 1 and value not in _values(rest):
            continue  # a pair needs both of its parts
        for part in in_core.get(value, []):
            for new in keys:
                if new != part.key:
                    yield _state(part.rebuild(new), zeros=(atom,),
                                 pool=rest + numbers(part.key))
        for part in in_zero.get(value, []):
            if part.key != atom:
                for new in keys:
                    if new != part.key:
                        yield _state(core, zeros=(part.rebuild(new),),
                                     pool=rest + numbers(part.key))
    if core is not None and _frees(pool, True):  # the zero is free: swap its sides too
        for x, y in atom_sides(atom):
            for part in in_core.get(x.value, []):
                if part.key != x:
                    yield _state(part.rebuild(x), zeros=(zero_of(part.key, y),), pool=pool)


def _minus(pool: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(pool)
    for n in used:
        rest.remove(n)
    return tuple(rest)


def _sub_pools(pool: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    seen = set()
    for size in range(1, len(pool) + 1):
        for chosen in combinations(pool, size):
            if chosen not in seen:
                seen.add(chosen)
                yield chosen


def _zeros_within(pool: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], Key]]:
    for used in _sub_pools(pool):
        for key in _forms(used).get(0, ()):
            lifted = reduce(key)
            bag = bag_of(lifted.ones, lifted.zeros, lifted.pool, True)
            if bag.zero and not bag.pool and not bag.one:
                yield used, bag.zero[0]


def _makes_within(pool: tuple[int, ...], wanted: set[Value],
                  ) -> Iterator[tuple[tuple[int, ...], Value, list[Key]]]:
    for used in _sub_pools(pool):
        forms = _forms(used)
        for value in wanted & forms.keys():
            plain = [k for k in forms[value] if not _decorated(k)]
            if plain:
                yield used, value, plain


def _decorated(key: Key) -> bool:
    lifted = reduce(key)
    return bool(lifted.ones or lifted.zeros or lifted.pool)


@lru_cache(maxsize=1 << 12)
def _values(pool: tuple[int, ...]) -> frozenset[Value]:
    return frozenset(_forms(pool)) if pool else frozenset()


@lru_cache(maxsize=1 << 12)
def _forms(pool: tuple[int, ...]) -> dict[Value, list[Key]]:
    """Every flat key over a few numbers, by value."""
    if len(pool) == 1:
        return {pool[0]: [Leaf(pool[0])]}
    out: dict[Value, set[Key]] = {}
    for size in range(1, len(pool) // 2 + 1):
        for left in set(combinations(pool, size)):
            right = _minus(pool, left)
            for ka in (k for ks in _forms(left).values() for k in ks):
                for kb in (k for ks in _forms(right).values() for k in ks):
                    for k in _combinations(ka, kb):
                        out.setdefault(k.value, set()).add(k)
    return {v: sorted(ks) for v, ks in out.items()}


def _combinations(a: Key, b: Key) -> Iterator[Key]:
    yield add(a, b)
    yield sub(a, b) if a.value >= b.value else sub(b, a)
    yield mul(a, b)
    if b.value:
        yield div(a, b)
    if a.value:
        yield div(b, a)


# ---------------------------------------------------------------------------------------------
# The canonical key: the least reduction reachable by swaps.

_classes: dict[Canonical, Canonical] = {}


def canonical_key(key: Key) -> Canonical:
    """The canonical key of a flat key: equal exactly for the same solution."""
    lifted = reduce(key)
    start = Canonical(() if lifted.core is None else (lifted.core,),
                      bag_of(lifted.ones, lifted.zeros, lifted.pool, lifted.core is not None))
    if start.bag == Bag():
        return start
    known = _classes.get(start)
    if known is not None:
        return known
    seen = {start}
    frontier = [start]
    least: Canonical | None = None
    while frontier and least is None:
        for state in _swaps(frontier.pop()):
            if state in _classes:
                least = _classes[state]
                break
            if state not in seen:
                seen.add(state)
                frontier.append(state)
    if least is None:
        least = min(seen)
    if len(_classes) > 1 << 18:
        _classes.clear()
    for state in seen:
        _classes[state] = least
    return least


def canonical_of(expr) -> tuple[int, Canonical]:
    """The canonical form of an expression: (sign of its value, canonical key)."""
    sign, key = signed_key(expr)
    return sign, canonical_key(key)


def clear_caches() -> None:
    """Forget every cached reduction (for benchmarks that start cold)."""
    for cached in (reduce, atom_forms, atom_sides, atom_pairs, split_zero, _values, _forms,
                   numbers):
        cached.cache_clear()
    _classes.clear()
