"""Reduce a key: lift zero terms, one factors and cancelled pairs out of where they sit.

Only three kinds of part move, each only as far as the rules let it (rules 4 and 5): a *zero
term* (a zero times something, or the number 0) leaves any sum; a *one factor* (a factor worth
one) leaves any product that keeps something else multiplied; a *cancelled pair* leaves a
product when a group of factors X cancels a group of divisors Y ((A*X)/(B*Y)), and leaves a sum
only when one added term X cancels everything the sum subtracts ((A+X)-Y, A only added). What
is left is the *core*. Where several parts could cancel, a fixed order chooses one, so every key
has one reduction.

>>> lift(PRODUCTS.make([Leaf(4), SUMS.make([Leaf(5), Leaf(2)], [Leaf(2)])]))  # 4*(5+2-2)
Lifted(core=Product(4*5), pairs=(Sum(2-2),), zeros=(), ones=())
>>> lift(PRODUCTS.make([Leaf(4), SUMS.make([Leaf(5), Leaf(7)], [Leaf(1), Leaf(5)])])).pairs
()
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from solver.expr import Value
from solver.normal.groups import PRODUCTS, SUMS
from solver.normal.keys import Key, Leaf, Product, Sum, ZeroProduct, numbers, turned


class Lifted(NamedTuple):
    """The reduction of a part: its core (None when the part is a zero term), the cancelled
    pairs it gives to the sum around it (zero sums X-Y), its zero terms, its one factors."""

    core: Key | None
    pairs: tuple[Key, ...] = ()
    zeros: tuple[Key, ...] = ()
    ones: tuple[Key, ...] = ()


def part_order(part: Key) -> tuple:
    """Of equal parts, the lesser (the one that cancels, the one factor that stays or is
    divided): fewer and smaller numbers first."""
    return numbers(part), part


def make_sum(plus: Iterable[Key], minus: Iterable[Key], value: Value) -> Key | None:
    """The sum of some terms (None for no terms; a single added term is itself)."""
    plus, minus = tuple(sorted(plus)), tuple(sorted(minus))
    if not minus and len(plus) <= 1:
        return plus[0] if plus else None
    return Sum(value, "+", plus, minus)


def make_product(num: Iterable[Key], den: Iterable[Key], value: Value) -> Key:
    """The product of some factors (a single multiplied factor is itself)."""
    num, den = tuple(sorted(num)), tuple(sorted(den))
    if not den and len(num) == 1:
        return num[0]
    return Product(value, "*", num, den)


@lru_cache(maxsize=1 << 18)
def lift(key: Key) -> Lifted:
    """The reduction of a key."""
    if isinstance(key, Leaf):
        return Lifted(None, zeros=(key,)) if key.value == 0 else Lifted(key)
    if isinstance(key, ZeroProduct):
        return Lifted(None, zeros=(zero_term(key),))
    if isinstance(key, Sum):
        return _lift_sum(key)
    return _lift_product(key)


def is_plain(key: Key) -> bool:
    """Whether nothing moves out of a key (rules 4, 5): most keys."""
    return lift(key) == Lifted(key)


def _lift_sum(key: Sum) -> Lifted:
    plus: list[Key] = []
    minus: list[Key] = []
    zeros: list[Key] = []
    ones: list[Key] = []
    for i, part in enumerate(key.plus + key.minus):
        lifted = lift(part)
        inverse = i >= len(key.plus)
        ups, downs = (minus, plus) if inverse else (plus, minus)
        ones += lifted.ones  # rule 4: (A*O)+B = O*(A+B)
        zeros += [turned(z) if inverse else z for z in lifted.zeros]  # rule 3
        for pair in lifted.pairs:  # a pair out of a product is terms of this sum (rule 5)
            up, down = SUMS.sides(pair)
            ups += up
            downs += down
        core = lifted.core
        if isinstance(core, Sum):  # rule 2
            ups += core.plus
            downs += core.minus
        elif core is not None:
            ups.append(core)
    core, pairs = cancel_sum(tuple(sorted(plus)), tuple(sorted(minus)), key.value)
    return Lifted(core, pairs, tuple(sorted(zeros)), tuple(sorted(ones)))


@lru_cache(maxsize=1 << 16)
def cancel_sum(plus: tuple[Key, ...], minus: tuple[Key, ...], value: Value,
               ) -> tuple[Key | None, tuple[Key, ...]]:
    """(core, pairs) of a sum: one added term X cancels everything subtracted, (A+X)-Y with
    A only added (rule 5), the lesser X if several; otherwise the sum stays whole."""
    if minus and len(plus) >= 2:
        taken = SUMS.total(minus)
        found = [x for x in plus if x.value == taken]
        if found:
            x = min(found, key=part_order)
            return make_sum(_without(plus, (x,)), (), value), (Sum(0, "+", (x,), minus),)
    return make_sum(plus, minus, value), ()


def _without(items: tuple[Key, ...], taken: Iterable[Key]) -> list[Key]:
    rest = list(items)
    for k in taken:
        rest.remove(k)
    return rest


def _lift_product(key: Product) -> Lifted:
    num: list[Key] = []
    den: list[Key] = []
    pairs: list[Key] = []
    zeros: list[Key] = []
    for i, part in enumerate(key.num + key.den):
        lifted = lift(part)
        ups, downs = (den, num) if i >= len(key.num) else (num, den)
        num += lifted.ones  # rule 4: B/(A*O) = O*(B/A), the one multiplies
        zeros += lifted.zeros  # rule 4: (A+Z)*B = Z+(A*B)
        pairs += lifted.pairs  # rule 5: ((A+X)-Y)*B = ((A*B)+X)-Y
        core = lifted.core
        if isinstance(core, Product):  # rule 2
            ups += core.num
            downs += core.den
        elif core is not None:
            ups.append(core)
    num += [k for k in den if k.value == 1]  # rule 4: A/O = A*O
    den = [k for k in den if k.value != 1]
    while (group := one_group(tuple(sorted(den)))) is not None:  # rule 4: A/(X*Y) = A*X*Y
        num += group
        den = _without(tuple(den), group)
    up, down = tuple(sorted(num)), tuple(sorted(den))
    group = divided_group(up, down)
    if group is not None:  # rule 5 before rule 4: A*X*(Y*Z) = (A*X)/(Y*Z), X cancels Y
        up, down = tuple(_without(up, group)), tuple(sorted(down + group))
    core, more, ones = cancel_product(up, down, key.value)
    return Lifted(core, tuple(sorted(pairs + list(more))), tuple(sorted(zeros)), ones)


@lru_cache(maxsize=1 << 16)
def cancel_product(num: tuple[Key, ...], den: tuple[Key, ...], value: Value,
                   ) -> tuple[Key, tuple[Key, ...], tuple[Key, ...]]:
    """(core, pairs, ones) of a product: a group of factors X cancels a group of divisors Y
    of the same value, (A*X)/(B*Y) = ((A/B)+X)-Y with A not empty (rule 5), one pair at a time
    while any is left; then the one factors leave (rule 4), but the product keeps something
    multiplied: its least one, when it multiplies nothing else."""
    chosen = chosen_pair(num, den)
    if chosen is not None:
        x_group, y_group = chosen
        pair = SUMS.make([PRODUCTS.make(x_group)], [PRODUCTS.make(y_group)], 0)
        core, pairs, left = cancel_product(tuple(_without(num, x_group)),
                                           tuple(_without(den, y_group)), value)
        return core, tuple(sorted((pair, *pairs))), left
    ones = sorted((k for k in num if k.value == 1), key=part_order)
    rest = [k for k in num if k.value != 1]
    if not rest and ones:
        rest, ones = [ones[0]], ones[1:]
    return make_product(rest, den, value), (), tuple(sorted(ones))


def one_group(den: tuple[Key, ...]) -> tuple[Key, ...] | None:
    """A group of two divisors or more whose product is one (rule 4: dividing by it is
    multiplying by it), the fewest, then the fewest and smallest numbers; None if none is."""
    if len(den) < 2:
        return None
    found = [(len(g), _numbers_of(g), g) for g in _groups(den, len(den))
             if len(g) >= 2 and PRODUCTS.total(g) == 1]
    return min(found)[-1] if found else None


def divided_group(num: tuple[Key, ...], den: tuple[Key, ...]) -> tuple[Key, ...] | None:
    """A group of factors whose product is one that lets factors cancel divisors once it
    divides (rule 4 read back, then rule 5): (A*X)*(Y*Z) is (A*X)/(Y*Z) is ((A/Z)+X)-Y when
    Y*Z is one and X is Y. Only when nothing cancels as it is; the fewest, then the fewest and
    smallest numbers."""
    plain = tuple(k for k in num if k.value != 1)
    if len(plain) < 3 or all(k.value.denominator == 1 for k in plain) or (
            chosen_pair(num, den) is not None):
        return None
    found = [(len(g), _numbers_of(g), g) for g in _groups(plain, len(plain) - 1)
             if len(g) >= 2 and PRODUCTS.total(g) == 1
             and chosen_pair(tuple(_without(num, g)), tuple(sorted(den + g))) is not None]
    return min(found)[-1] if found else None


def chosen_pair(num: tuple[Key, ...], den: tuple[Key, ...],
                ) -> tuple[tuple[Key, ...], tuple[Key, ...]] | None:
    """Which factors cancel which divisors, when several could: against the whole divisor
    first, then the fewest divisors, the fewest factors, the fewest and smallest numbers. A
    one factor never cancels: it leaves (rule 4)."""
    if not den or len(num) < 2:
        return None
    den_groups: dict[Value, list[tuple[Key, ...]]] = {}
    for group in _groups(den, len(den)):
        den_groups.setdefault(PRODUCTS.total(group), []).append(group)
    plain = tuple(k for k in num if k.value != 1)
    best: tuple | None = None
    for x_group in _groups(plain, len(num) - 1):
        for y_group in den_groups.get(PRODUCTS.total(x_group), ()):
            rank = (len(y_group) != len(den), len(y_group), len(x_group),
                    _numbers_of(x_group), _numbers_of(y_group), x_group, y_group)
            if best is None or rank < best:
                best = rank
    return None if best is None else (best[-2], best[-1])


def _groups(items: tuple[Key, ...], most: int) -> Iterator[tuple[Key, ...]]:
    """Every non-empty sub-multiset of at most `most` items, each once."""
    seen = set()
    for size in range(1, min(most, len(items)) + 1):
        for chosen in combinations(items, size):
            if chosen not in seen:
                seen.add(chosen)
                yield chosen


def _numbers_of(parts: tuple[Key, ...]) -> tuple[int, ...]:
    return tuple(sorted(n for part in parts for n in numbers(part)))


@lru_cache(maxsize=1 << 14)
def zero_term(key: ZeroProduct) -> ZeroProduct:
    """A zero term reduced inside: what its zero lifts is multiplied by the zero too, so it
    joins the numbers (rule 4: whatever a zero multiplies counts once)."""
    lifted = lift(key.zero)
    plus: list[Key] = []
    minus: list[Key] = []
    times = list(key.times)
    core = lifted.core
    if isinstance(core, Sum):
        plus += core.plus
        minus += core.minus
    elif core is not None:
        plus.append(core)
    for pair in lifted.pairs:
        up, down = SUMS.sides(pair)
        plus += up
        minus += down
    inner = list(lifted.zeros)
    if plus or minus:
        base = make_sum(plus, minus, 0) or Leaf(0)
    else:  # the zero was itself a zero term: it is the base
        first, *inner = inner
        base = first.zero if isinstance(first, ZeroProduct) else first
        times += first.times if isinstance(first, ZeroProduct) else ()
    for k in (*inner, *lifted.ones):
        times += numbers(k)
    return ZeroProduct(0, "0*", base, tuple(sorted(times)))


CACHES = (lift, cancel_sum, cancel_product, zero_term)
