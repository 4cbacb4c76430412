"""The kinds of key: a number, a sum, a product, and a zero times some numbers.

A key describes one expression up to the order of its terms and factors (rule 1) and the way
`-` and `/` are grouped (rule 2), and always a non-negative value (rule 3): a sum is its terms
added and subtracted, a product its factors multiplied and divided. Every key carries its exact
value first and then the operator that joins its parts, so keys sort by value, and a sum never
equals a product of the same parts (2+2 and 2*2 are both 4).

>>> Sum(5, "+", (Leaf(2), Leaf(8)), (Leaf(5),))
Sum(2+8-5)
>>> Product(4, "*", (Leaf(8), Sum(3, "+", (Leaf(1), Leaf(2)), ())), (Leaf(6),))
Product(8*(1+2)/6)
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain
from typing import NamedTuple

from solver.expr import Value


class Leaf(NamedTuple):
    """A number of the hand."""

    value: int

    def __repr__(self) -> str:
        return f"Leaf({self.value})"


class Sum(NamedTuple):
    """plus[0] + plus[1] + ... - minus[0] - ...; terms are never sums, each side is sorted."""

    value: Value
    op: str  # "+"
    plus: tuple[Key, ...]
    minus: tuple[Key, ...]

    def __repr__(self) -> str:
        return f"Sum({text(self)})"


class Product(NamedTuple):
    """num[0] * num[1] * ... / den[0] / ...; factors are never products, each side is sorted."""

    value: Value
    op: str  # "*"
    num: tuple[Key, ...]
    den: tuple[Key, ...]

    def __repr__(self) -> str:
        return f"Product({text(self)})"


class ZeroProduct(NamedTuple):
    """A part worth zero times whatever the numbers `times` make (rule 4: it counts once)."""

    value: Value  # always 0
    op: str  # "0*"
    zero: Key
    times: tuple[int, ...]

    def __repr__(self) -> str:
        return f"ZeroProduct({text(self)})"


Key = Leaf | Sum | Product | ZeroProduct


def text(key: Key) -> str:
    """A short infix text of a key, for reprs and messages (not the solutions' display)."""
    if isinstance(key, Leaf):
        return str(key.value)
    if isinstance(key, ZeroProduct):
        return f"{_operand(key.zero)}*[{' '.join(map(str, key.times))}]"
    plus, minus = (key.plus, key.minus) if isinstance(key, Sum) else (key.num, key.den)
    signs = "+-" if isinstance(key, Sum) else "*/"
    out = signs[0].join(_operand(k, key) for k in plus) if plus else "1"
    return out + "".join(signs[1] + _operand(k, key) for k in minus)


def _operand(key: Key, parent: Key | None = None) -> str:
    inner = text(key)
    if isinstance(key, Leaf) or (isinstance(parent, Sum) and isinstance(key, Product)):
        return inner
    return f"({inner})"


def turned(zero: Key) -> Key:
    """-Z written as a zero (rule 3): a zero term (-Z)*A for Z*A, a sum with its sides
    swapped; terms worth zero stay added, the number 0 is itself."""
    if isinstance(zero, ZeroProduct):
        return ZeroProduct(0, "0*", turned(zero.zero), zero.times)
    if isinstance(zero, Sum):
        kept = tuple(turned(k) for k in zero.plus if k.value == 0)
        return Sum(0, "+", tuple(sorted(zero.minus + kept)),
                   tuple(k for k in zero.plus if k.value != 0))
    return zero


@lru_cache(maxsize=1 << 16)
def numbers(key: Key) -> tuple[int, ...]:
    """The numbers a key uses, sorted."""
    if isinstance(key, Leaf):
        return (key.value,)
    if isinstance(key, ZeroProduct):
        return tuple(sorted(numbers(key.zero) + key.times))
    parts = tuple(numbers(k) for k in key[2] + key[3])
    return tuple(sorted(chain.from_iterable(parts)))
