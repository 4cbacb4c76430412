"""Solutions written as mathematics (bot.play.words.latex): every block's LaTeX, read back by a
reader of just the LaTeX the bot writes (fractions, ×, +, −, brackets, "=": demo.mathematics),
is exactly its solution's value — with fractions, never floats — over every solution of a few
hands."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.play.solving.paging import page_count, page_of
from bot.play.words.latex import solution_latex
from bot.text.i18n import texts_for
from demo.mathematics import sides_of
from solver import evaluate, solve, to_text

HANDS = [((3, 3, 8, 8), 24), ((1, 5, 5, 5), 24), ((3, 3, 7, 7), 24), ((1, 1, 1, 2, 2, 8), 24),
         ((1, 2, 3, 4, 5), 100)]


def read_back(latex: str) -> tuple[Fraction, Fraction]:
    """Both sides of a block's equation, exactly, as the reader of just the LaTeX the bot writes
    (demo.mathematics: the demo's terminal reads every block so) makes them; anything else is
    a ValueError."""
    left, right = sides_of(latex)
    return Fraction(evaluate(left)), Fraction(evaluate(right))


def infix_of(latex: str) -> str:
    """A mathematical block's left side as the infix a player would type (what a test that looks
    for solutions in what the bot sent reads a mathematical block as): \\frac{8}{3 -
    \\frac{8}{3}} = 24 gives 8/(3-8/3)."""
    return to_text(sides_of(latex)[0])


@pytest.mark.parametrize(("hand", "target"), HANDS, ids=lambda h: str(h))
def test_every_block_reads_back_to_its_exact_value(hand: tuple[int, ...], target: int):
    found = solve(hand, target)
    assert found, "a hand with solutions"
    for solution in found:
        left, right = read_back(solution_latex(solution, target))
        assert left == Fraction(evaluate(solution)) == right == target, solution


@pytest.mark.parametrize(("hand", "target"), HANDS, ids=lambda h: str(h))
def test_every_page_holds_its_solutions_as_mathematics(hand: tuple[int, ...], target: int):
    """The blocks a rich message carries (a page's formulas) over every page: each solution
    once, in order, and each one exact."""
    found = solve(hand, target)
    texts = texts_for("en")
    formulas = [f for index in range(page_count(len(found)))
                for f in page_of(texts, hand, target, found, index).formulas]
    assert formulas == [solution_latex(s, target) for s in found]
    assert all(read_back(f)[0] == target for f in formulas)


def test_the_writer_keeps_the_brackets_the_value_needs():
    """Another order, another bracket: subtraction and addition on the right keep theirs, a
    product needs none around a fraction, and a fraction's bar groups without brackets."""
    cases = {"8/(3-8/3)": r"\frac{8}{3 - \frac{8}{3}}", "(5-1/5)*5": None,
             "12-(3+4)": None, "12-(3-4)": None, "2*(3+4)": None, "(1+2)/(3+4)": None,
             "1-(2*3)": None, "(2+3)*(4-1)": None}
    for text, expected in cases.items():
        written = solution_latex(text, 0).removesuffix(" = 0")
        if expected is not None:
            assert written == expected
        left, _ = read_back(written + " = 0")
        assert left == Fraction(evaluate(text)), (text, written)


def test_a_block_reads_as_the_infix_a_player_types():
    for solution in solve((3, 3, 8, 8)) + solve((1, 1, 1, 2, 2, 8)):
        assert evaluate(infix_of(solution_latex(solution, 24))) == 24


def test_the_reader_refuses_what_the_writer_never_writes():
    for bad in (r"8 \div 3 = 24", "8 / 3 = 24", r"\frac{8}{3 = 24", "3.5 = 24"):
        with pytest.raises(ValueError):
            read_back(bad)
