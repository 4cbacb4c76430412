"""The taps turned into an expression (bot.webapp.steps): for any hand and any steps the page can
post, the rebuilt expression reads, with the project's own parser, as the same exact value the
steps make, uses the hand's numbers, and has no bracket the order does not need; steps the page
could not have made are refused."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.webapp.steps import OPERATIONS, Step, StepError, play, read_steps, rebuild
from solver import evaluate, parse
from solver.expr import BinOp, Expr, Num

hands = st.lists(st.integers(0, 30), min_size=1, max_size=6)


@st.composite
def hands_and_steps(draw: st.DrawFn) -> tuple[list[int], list[Step], Fraction]:
    """A hand, steps that combine it into one tile (no division by zero), and that tile's value
    worked out here on its own."""
    numbers = draw(hands)
    values = [Fraction(n) for n in numbers]
    steps = []
    while len(values) > 1:
        left = draw(st.integers(0, len(values) - 1))
        right = draw(st.integers(0, len(values) - 2))
        right += right >= left  # another tile
        op = draw(st.sampled_from([o for o in OPERATIONS if o != "/" or values[right] != 0]))
        a, b = values[left], values[right]
        made = a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a / b
        values = [v for i, v in enumerate(values) if i not in (left, right)] + [made]
        steps.append(Step(left, op, right))
    return numbers, steps, values[0]


@given(hands_and_steps())
def test_the_rebuilt_expression_is_worth_what_the_steps_make(case):
    numbers, steps, value = case
    tile = rebuild(numbers, steps)
    assert tile.value == value
    assert Fraction(evaluate(tile.text)) == value
    assert sorted(evaluate_numbers(tile.text)) == sorted(numbers)


@given(hands_and_steps())
def test_the_brackets_are_the_steps_order_and_no_more(case):
    """The parser reads the numbers back in the order of the tree the steps built (only sums
    and products are regrouped: a+(b-c) is written a+b-c), and dropping any one pair of
    brackets reads as another tree."""
    numbers, steps, _ = case
    text = rebuild(numbers, steps).text
    assert leaves(parse(text)) == leaves(tree(numbers, steps))
    for start in (i for i, c in enumerate(text) if c == "("):
        end = closing(text, start)
        assert parse(text[:start] + text[start + 1:end] + text[end + 1:]) != parse(text), text


def tree(numbers: list[int], steps: list[Step]) -> Expr:
    nodes: list[Expr] = [Num(n) for n in numbers]
    for step in steps:
        made = BinOp(step.op, nodes[step.left], nodes[step.right])
        nodes = [n for i, n in enumerate(nodes) if i not in (step.left, step.right)] + [made]
    return nodes[0]


def leaves(expr: Expr) -> list[int]:
    return [expr.value] if isinstance(expr, Num) else leaves(expr.left) + leaves(expr.right)


def closing(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    raise AssertionError(text)


def evaluate_numbers(text: str) -> list[int]:
    return [int(n) for n in "".join(c if c.isdigit() else " " for c in text).split()]


def test_the_classic():
    assert rebuild([8, 3, 8, 3], read_steps([[2, "/", 3], [1, "-", 2], [0, "/", 1]])).text == \
        "8/(3-8/3)"
    assert rebuild([1, 2, 3, 4], read_steps([[0, "-", 1], [0, "-", 1], [0, "*", 1]])).text == \
        "(1-2)*(3-4)"


@pytest.mark.parametrize(("raw", "numbers"), [
    ([[0, "/", 1]], [1, 0]),  # division by zero
    ([[0, "+", 0]], [1, 2]),  # one tile twice
    ([[0, "+", 5]], [1, 2]),  # a tile that is not there
    ([[0, "^", 1]], [1, 2]),  # not an operation
    ([[0, "+", 1], [0, "+", 1]], [1, 2]),  # too many steps
    ([], [1, 2]),  # two tiles left
    ("0+1", [1, 2]), ([[0.0, "+", 1]], [1, 2]), ([[True, "+", 1]], [1, 2]),
    ([[0, "+", 1]] * 17, [1] * 18),
])
def test_steps_the_page_could_not_make_are_refused(raw: object, numbers: list[int]):
    with pytest.raises(StepError):
        rebuild(numbers, read_steps(raw))


def test_tiles_left_in_order():
    assert [t.text for t in play([1, 2, 3], [Step(0, "+", 2)])] == ["2", "1+3"]
