"""Normal forms: when two solutions are the same idea.

Two layers. `flat` keys are built by the search for every expression it forms; `canonical`
keys are computed once per solution and are equal exactly for the same solution. `display`
turns keys back into expressions. This package never searches.
"""

from solver.normal.canonical import (
    Bag,
    Canonical,
    canonical_key,
    canonical_of,
    clear_caches,
    solution_classes,
)
from solver.normal.display import key_to_expr, negatable, negated
from solver.normal.flat import add, div, leaf, mul, signed_key, sub, zero_times
from solver.normal.keys import Key, Leaf, Product, Sum, ZeroProduct, numbers

__all__ = [
    "Bag",
    "Canonical",
    "Key",
    "Leaf",
    "Product",
    "Sum",
    "ZeroProduct",
    "add",
    "canonical_key",
    "canonical_of",
    "clear_caches",
    "div",
    "key_to_expr",
    "leaf",
    "mul",
    "negatable",
    "negated",
    "numbers",
    "signed_key",
    "solution_classes",
    "sub",
    "zero_times",
]
