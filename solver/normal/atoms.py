"""Zero atoms: a lifted part worth zero that no rewrite splits in two.

One atom has several forms: a sum worth zero, or a pair X/Y of equal parts, which beside
anything else is the zero X-Y (rule 5: (A*X)/Y is (A+X)-Y). Once an atom is *free* (something
else is added to it), any form will do, and it is written in its least form.

>>> sorted(map(text, atom_forms(SUMS.make([Leaf(2), Leaf(3)], [Leaf(5)]))))
['2+3-5', '2/(5-3)', '3/(5-2)', '5/(2+3)']
>>> split_zero(SUMS.make([PRODUCTS.make([Leaf(2), Leaf(3)])], [PRODUCTS.make([Leaf(2), Leaf(3)])]))
((), (Sum(3-3), Sum(2-2)))
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from solver.normal.groups import PRODUCTS, SUMS, group_of, split, sub_multisets, without
from solver.normal.keys import Key, Leaf, Product, Sum, text  # noqa: F401 (Leaf: examples)
from solver.normal.reduce import reduce_group


def _two_sides(atom: Key) -> Iterator[tuple[Key, Key]]:
    """(X, Y) of equal value such that this form of the atom is X-Y (or X/Y, for a pair)."""
    group = group_of(atom)
    if group is None:
        return
    items = group.items(atom)
    for _, picked in sub_multisets(items):
        (p_up, p_down), (r_up, r_down) = split(picked), split(without(items, picked))
        if group is SUMS and group.total_of(picked) > 0:
            yield SUMS.make(p_up, p_down), SUMS.make(r_down, r_up)
        elif group is PRODUCTS and p_up and r_down:
            yield PRODUCTS.make(p_up, p_down), PRODUCTS.make(r_down, r_up)


@lru_cache(maxsize=1 << 14)
def atom_forms(atom: Key) -> frozenset[Key]:
    """Every way to write the atom: sums worth zero, and pairs X/Y of equal parts (rule 5)."""
    seen = {atom}
    frontier = [atom]
    while frontier:
        current = frontier.pop()
        other_group = PRODUCTS if type(current) is Sum else SUMS
        for x, y in _two_sides(current):
            other = other_group.oriented((x,), (y,))
            if other not in seen and group_of(other) is not None:
                seen.add(other)
                frontier.append(other)
    return frozenset(seen)


@lru_cache(maxsize=1 << 14)
def atom_sides(atom: Key) -> tuple[tuple[Key, Key], ...]:
    """Every (X, Y) of equal value such that the atom is X-Y or Y-X (the same zero, rule 3),
    over all its forms."""
    sides = {side for form in atom_forms(atom) for side in _two_sides(form)}
    return tuple(sorted(sides | {(y, x) for x, y in sides}))


@lru_cache(maxsize=1 << 14)
def atom_pairs(atom: Key) -> tuple[Key, ...]:
    """The forms X/Y of an atom: beside a core, the zero X-Y is the one X/Y (rule 5)."""
    return tuple(sorted(f for f in atom_forms(atom) if type(f) is Product))


def _pieces(form: Key) -> tuple[list[Key], list[Key]]:
    """(ones, zeros) one form of a zero falls into, reduced like any other part."""
    group = group_of(form)
    assert group is not None
    lifted = reduce_group(group, group.items(form))
    ones, zeros = list(lifted.ones), list(lifted.zeros)
    core = lifted.core
    if core is not None:  # what a pair keeps: itself a pair, or a part worth one
        if type(core) is Product and core.num and core.den:
            zeros.append(core)
        else:
            ones.append(core)
    return ones, zeros


@lru_cache(maxsize=1 << 14)
def split_zero(zero: Key) -> tuple[tuple[Key, ...], tuple[Key, ...]]:
    """(ones, atoms) a free part worth zero falls into, each atom in its least form.

    Two parts worth one make one zero (rule 5: O*O' is (A+O)-O'), so a pair of two ones is an
    atom, not two ones.
    """
    forms = atom_forms(zero)
    for form in sorted(forms):
        if group_of(form) is None:
            continue
        ones, zeros = _pieces(form)
        if not zeros or (len(zeros) == 1 and not ones):
            continue  # no split, or only ones: a pair of ones is itself an atom
        out_ones: list[Key] = list(ones)
        out_zeros: list[Key] = []
        for z in zeros:
            more_ones, atoms = split_zero(z)
            out_ones += more_ones
            out_zeros += atoms
        return tuple(out_ones), tuple(out_zeros)
    return (), (min(forms),)


def zero_of(x: Key, y: Key) -> Key:
    """The zero X-Y of two parts of equal value."""
    return SUMS.oriented((x,), (y,))


@lru_cache(maxsize=1 << 14)
def literal_atoms(zero: Key) -> tuple[tuple[Key, ...], tuple[Key, ...]]:
    """(ones, atoms) of a part worth zero, split only where its terms regroup (rule 2): what
    a zero alone at the top of a solution to 0 allows, where rule 5 has nothing to act on."""
    if type(zero) is Sum:
        lifted = reduce_group(SUMS, SUMS.items(zero))
        return lifted.ones, lifted.zeros
    return (), (zero,)

