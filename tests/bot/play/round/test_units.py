"""The round's room stays in small units (issue 44, item 7): no module of bot/play/round passes
MOST_LINES lines, and no function or method there passes MOST_BODY lines (from its `def` to its
last line), so that each reads without scrolling and a new concern finds its own module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

ROUND = ROOT / "bot" / "play" / "round"
MODULES = sorted(ROUND.glob("*.py"))
MOST_LINES = 400
MOST_BODY = 40


def too_long(source: str) -> list[str]:
    """The functions and methods of a module longer than MOST_BODY lines, with their length."""
    return [f"{node.name}: {node.end_lineno - node.lineno + 1} lines"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > MOST_BODY]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_a_round_module_stays_small(path: Path):
    source = path.read_text(encoding="utf-8")
    lines = len(source.splitlines())
    assert lines <= MOST_LINES, f"{path.name} has {lines} lines (at most {MOST_LINES})"
    assert not too_long(source), f"{path.name}: {too_long(source)}"


def test_the_check_catches_a_long_function():
    """The check itself: a function of MOST_BODY + 1 lines is caught, one of MOST_BODY is not."""
    def function(lines: int) -> str:
        return "async def f():\n" + "    pass\n" * (lines - 1)

    assert too_long(function(MOST_BODY + 1)) == [f"f: {MOST_BODY + 1} lines"]
    assert not too_long(function(MOST_BODY))
    assert MODULES, "bot/play/round holds no module"
