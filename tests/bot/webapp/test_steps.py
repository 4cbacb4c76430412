"""The taps turned into an expression (bot.webapp.steps): for any hand and any steps the page can
post, the rebuilt expression reads, with the project's own parser, as the same exact value the
steps make, uses the hand's numbers, and has no bracket the order does not need; steps the page
could not have made are refused. Where steps must be whole (Countdown's page), what the page lets
through is exactly what the game's own judge accepts as a typed answer, and a step it refuses is
one the judge refuses too; a guess is read as the number typed."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.play.games.countdown import rules as countdown
from bot.play.rules.records import BadStep, DivisionByZero, Near, Right, Wrong
from bot.webapp.steps import (
    OPERATIONS,
    NotWhole,
    Step,
    StepError,
    chosen,
    play,
    read_guess,
    read_steps,
    rebuild,
)
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


CARDS = st.sampled_from((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25, 50, 75, 100))


def made(a: Fraction, op: str, b: Fraction) -> Fraction | None:
    if op == "/" and b == 0:
        return None
    return a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a / b


@st.composite
def whole_steps(draw: st.DrawFn) -> tuple[list[int], list[Step], int, int]:
    """A Countdown hand, some steps each making a whole number above zero (stopping anywhere),
    the tile chosen, and a target."""
    numbers = draw(st.lists(CARDS, min_size=2, max_size=6))
    values = [Fraction(n) for n in numbers]
    steps = []
    while len(values) > 1 and draw(st.booleans()):
        left = draw(st.integers(0, len(values) - 1))
        right = draw(st.integers(0, len(values) - 2))
        right += right >= left
        ops = [o for o in OPERATIONS
               if (v := made(values[left], o, values[right])) is not None
               and v.denominator == 1 and v > 0]  # + always is
        op = draw(st.sampled_from(ops))
        value = made(values[left], op, values[right])
        assert value is not None
        values = [v for i, v in enumerate(values) if i not in (left, right)] + [value]
        steps.append(Step(left, op, right))
    return numbers, steps, draw(st.integers(0, len(values) - 1)), draw(st.integers(101, 999))


@given(whole_steps())
def test_whole_steps_are_answers_the_game_accepts(case):
    """The chosen tile's expression, judged as a typed Countdown answer, is valid and worth
    the tile's value: the page refuses nothing the game would take as a step."""
    numbers, steps, index, target = case
    tile = chosen(numbers, steps, index, whole=True)
    verdict = countdown.judge(tile.text, tuple(numbers), target, explicit=True)
    assert isinstance(verdict, Right | Near), (tile.text, verdict)
    assert Fraction(verdict.value) == tile.value


@given(whole_steps(), st.data())
def test_a_step_that_is_not_whole_is_refused_as_the_game_refuses_it(case, data):
    """A last step making a fraction, zero or less is refused by the page's steps (NotWhole),
    and the same expression typed is refused by the game (a bad step or a division by zero)."""
    numbers, steps, _, target = case
    values = [t.value for t in play(numbers, steps)]
    if len(values) < 2:
        return
    pairs = [(i, op, j) for i in range(len(values)) for j in range(len(values)) if i != j
             for op in OPERATIONS
             if (v := made(values[i], op, values[j])) is None or v.denominator != 1 or v <= 0]
    if not pairs:
        return
    bad = Step(*data.draw(st.sampled_from(pairs)))
    with pytest.raises(StepError) as refused:
        play(numbers, [*steps, bad], whole=True)
    if made(values[bad.left], bad.op, values[bad.right]) is not None:
        assert isinstance(refused.value, NotWhole)
        text = play(numbers, [*steps, bad])[-1].text
        verdict = countdown.judge(text, tuple(numbers), target, explicit=True)
        assert isinstance(verdict, Wrong) and isinstance(verdict.reason, BadStep | DivisionByZero)


def test_the_chosen_tile():
    """Any tile left may be chosen where not every number need be used (an index among them),
    the only one left needs no index; anything else is refused."""
    hand, steps = [100, 6, 3, 75, 50, 25], [Step(0, "+", 1), Step(4, "*", 0)]
    assert [chosen(hand, steps, i).text for i in range(4)] == ["75", "50", "25", "(100+6)*3"]
    assert chosen([8, 3], [Step(0, "*", 1)], None).text == "8*3"
    for tile in (None, 4, -1, True, 1.0, "1"):
        with pytest.raises(StepError):
            chosen(hand, steps, tile)
    with pytest.raises(NotWhole):
        chosen([3, 6], [Step(0, "/", 1)], None, whole=True)
    with pytest.raises(NotWhole):
        chosen([3, 3], [Step(0, "-", 1)], None, whole=True)


@pytest.mark.parametrize(("raw", "read"), [("212", "212"), (" 7 ", "7"), (212, "212"),
                                            ("0042", "42"), (0, "0"), ("٢١٢", "212"),
                                            ("۲۱۲", "212"), ("२१२", "212")])
def test_a_guess_is_the_number_typed(raw: object, read: str):
    assert read_guess(raw) == read


@pytest.mark.parametrize("raw", ["", "2.5", "-3", "1e3", "12 3", "1234567", 10 ** 6, -1, 2.0,
                                 True, None, [212], "𝟑", "三"])
def test_anything_else_is_no_guess(raw: object):
    with pytest.raises(StepError):
        read_guess(raw)
