"""The demo prints a rich message's mathematics as a person writes it (issue 73): the LaTeX the
bot sends for Telegram's math blocks read back into the solver's tree, so each line means what
its fraction meant, in the digits of the words around it; LaTeX the bot does not write is shown
as it came."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.play.words.latex import solution_latex
from demo.mathematics import in_digits_of, readable
from solver import evaluate, parse, solve, to_text

HANDS = [([3, 8, 3, 8], 24), ([1, 5, 5, 5], 24), ([3, 14, 15, 16, 5], 100),
         ([2, 8, 25, 50, 75, 100], 863), ([1, 2, 8, 45], 24), ([0, 1, 9, 9], 10)]


def read_back(shown: str) -> str:
    return shown.replace("÷", "/").replace("×", "*").replace("−", "-")


@pytest.mark.parametrize(("hand", "target"), HANDS)
def test_each_solution_reads_as_the_tree_its_latex_was(hand: list[int], target: int):
    solutions = solve(hand, target)
    assert solutions
    for solution in solutions[:200]:
        shown = readable(solution_latex(solution, target))
        left, right = shown.split(" = ")
        assert "\\" not in shown and right == str(target)
        assert to_text(parse(read_back(left))) == to_text(parse(solution)), (solution, shown)
        assert evaluate(parse(read_back(left))) == Fraction(target)


def test_the_first_example_reads_as_a_person_writes_it():
    assert readable(r"\frac{8}{3 - \frac{8}{3}} = 24") == "8÷(3−8÷3) = 24"
    assert readable(r"3 \times \left(14 + 16\right) + 15 - 5 = 100") == "3×(14+16)+15−5 = 100"


def test_in_the_digits_of_the_words_around_it():
    latex = r"\frac{8}{3 - \frac{8}{3}} = 24"
    assert readable(latex, "۳ ۸ ۳ ۸ ← ۲۴: ۱ راه‌حل") == "۸÷(۳−۸÷۳) = ۲۴"
    assert readable(latex, "३ ८ ३ ८ → २४") == "८÷(३−८÷३) = २४"
    assert readable(latex, "3 8 3 8 → 24") == readable(latex, "no digits") == "8÷(3−8÷3) = 24"
    assert in_digits_of("10", "٠") == "١٠"


@pytest.mark.parametrize("latex", [r"\sqrt{2} = 24", r"\frac{8}{3", "8 = ", r"\left(1 + 2 = 3",
                                   "x + 1 = 2", r"\frac{1}{2}} = 3", ""])
def test_what_the_bot_never_writes_is_shown_as_it_came(latex: str):
    assert readable(latex) == latex
