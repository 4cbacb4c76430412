"""The normal form's own examples: the docstrings of solver.normal run as tests, and cases
that once broke it."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import solver.normal
from solver import canonical
from solver.normal import Leaf, Product, Sum
from solver.normal.groups import PRODUCTS, SUMS


def modules() -> list[ModuleType]:
    names = [info.name for info in pkgutil.iter_modules(solver.normal.__path__)]
    return [solver.normal] + [importlib.import_module(f"solver.normal.{n}") for n in names]


@pytest.mark.parametrize("module", modules(), ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_package_docstring_shows_every_rule():
    examples = doctest.DocTestFinder().find(solver.normal)[0].examples
    assert {f"rule {n}" for n in "12345"} <= {e.source.split("# ")[-1].strip()
                                             for e in examples}


def test_keys_read_as_what_they_are():
    key = SUMS.make([Leaf(10), PRODUCTS.make([Leaf(2)], [Leaf(3)])], [Leaf(1)])
    assert isinstance(key, Sum) and isinstance(key.plus[0], Product)
    assert repr(key) == "Sum(2/3+10-1)"
    assert repr(Leaf(7)) == "Leaf(7)"


def test_a_zero_whose_pair_form_falls_into_ones_only():
    # Found by test_properties: one form of a zero, 1/(2-3/2)/(5-2*2)/2, lifts into ones only;
    # that is no way to split the zero, and must not leave the bag without its zero.
    a = "((2+(2+3))-5)*((2+2)-(2+(2+3)))"
    b = "(5-(2+(2+3)))*((2+(2+3))-(2+2))"
    assert canonical(a) == canonical(b)

