"""Countdown's compiled search (solver/native/countdown.c) and whether it answers.

`NATIVE` is the extension module, or None when the pure search (solver.countdown_search)
answers: SOLVER_PURE=1 is set (as for the 24 core), or the extension is not built. `STATUS`
says which, in words. Both searches answer the same questions with the same answers and the
same expressions (tests/solver/test_countdown_twin.py); a hand whose values could pass 62 bits
is left to the pure one, whose integers have no bound.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Collection
from types import ModuleType
from typing import Protocol

from solver.countdown_search import Hand, HandSearch
from solver.expr import BinOp, Expr, Num

Tree = int | tuple[str, "Tree", "Tree"]  # the compiled search's expressions: numbers are ints


class Search(Protocol):
    """What the scan in solver.countdown asks of a hand's search (see HandSearch)."""

    full: int
    low: int

    def ceiling(self, enough: int) -> int: ...
    def build_parts(self) -> None: ...
    def reaches(self, m: int, w: int) -> bool: ...
    def window(self, m: int, lo: int, hi: int) -> Collection[int]: ...
    def expression(self, m: int, w: int) -> Expr | Tree: ...


def load() -> tuple[ModuleType | None, str]:
    """The compiled search and why (not) it answers."""
    if os.environ.get("SOLVER_PURE") == "1":
        return None, "not in use (SOLVER_PURE=1)"
    try:
        module = importlib.import_module("solver.native._countdown")
    except ImportError as error:
        return None, f"not in use (not built: {error})"
    return module, "in use"


NATIVE, STATUS = load()


def new_search(hand: Hand, subset: bool) -> Search:
    """The compiled search of the hand when it is in use and the hand's values fit, else the
    pure one."""
    if NATIVE is not None:
        try:
            search: Search = NATIVE.Search(hand, subset)
            return search
        except OverflowError:
            pass
    return HandSearch(hand, subset)


def as_expr(tree: Expr | Tree) -> Expr:
    """An expression tree from either search's answer."""
    if isinstance(tree, int):
        return Num(tree)
    if isinstance(tree, tuple):
        op, left, right = tree
        return BinOp(op, as_expr(left), as_expr(right))
    return tree
