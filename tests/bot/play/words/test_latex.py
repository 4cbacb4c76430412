"""Solutions written as mathematics (bot.play.words.latex): every block's LaTeX, read back by a
reader of just the LaTeX the bot writes (fractions, ×, +, −, brackets, "="), is exactly its
solution's value — with fractions, never floats — over every solution of a few hands."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from bot.play.solving.paging import page_count, page_of
from bot.play.words.latex import solution_latex
from bot.text.i18n import texts_for
from solver import evaluate, solve

TOKEN = re.compile(r"\s*(\\frac|\\left\(|\\right\)|\\times|[0-9]+|[{}+\-=])")
HANDS = [((3, 3, 8, 8), 24), ((1, 5, 5, 5), 24), ((3, 3, 7, 7), 24), ((1, 1, 1, 2, 2, 8), 24),
         ((1, 2, 3, 4, 5), 100)]


class LatexReader:
    """A recursive-descent reader of the bot's LaTeX; anything else is an error."""

    def __init__(self, text: str) -> None:
        self.tokens: list[str] = []
        at = 0
        while at < len(text.rstrip()):
            found = TOKEN.match(text, at)
            if found is None:
                raise ValueError(f"unexpected LaTeX at {text[at:]!r}")
            self.tokens.append(found.group(1))
            at = found.end()
        self.at = 0

    def take(self, expected: str | None = None) -> str:
        token = self.tokens[self.at] if self.at < len(self.tokens) else ""
        if expected is not None and token != expected:
            raise ValueError(f"expected {expected!r}, found {token!r}")
        self.at += 1
        return token

    def peek(self) -> str:
        return self.tokens[self.at] if self.at < len(self.tokens) else ""

    def equation(self) -> tuple[Fraction, Fraction]:
        left = self.sum()
        self.take("=")
        sign = -1 if self.peek() == "-" and self.take() else 1
        right = sign * Fraction(int(self.take()))
        if self.at != len(self.tokens):
            raise ValueError("trailing LaTeX")
        return left, right

    def sum(self) -> Fraction:
        value = self.product()
        while self.peek() in ("+", "-"):
            value = value + self.product() if self.take() == "+" else value - self.product()
        return value

    def product(self) -> Fraction:
        value = self.factor()
        while self.peek() == r"\times":
            self.take()
            value *= self.factor()
        return value

    def factor(self) -> Fraction:
        token = self.take()
        if token.isdigit():
            return Fraction(int(token))
        if token == r"\frac":
            self.take("{")
            numerator = self.sum()
            self.take("}")
            self.take("{")
            denominator = self.sum()
            self.take("}")
            return numerator / denominator
        if token == r"\left(":
            value = self.sum()
            self.take(r"\right)")
            return value
        raise ValueError(f"unexpected {token!r}")


def read_back(latex: str) -> tuple[Fraction, Fraction]:
    return LatexReader(latex).equation()


class InfixWriter(LatexReader):
    """The same reader, writing the left side back as the infix a player would type (what a
    test that looks for solutions in what the bot sent reads a mathematical block as)."""

    def text(self) -> str:
        written = self.sum_text()
        self.take("=")
        return written

    def sum_text(self) -> str:
        written = self.product_text()
        while self.peek() in ("+", "-"):
            sign = self.take()
            written += sign + self.product_text()
        return written

    def product_text(self) -> str:
        written = self.factor_text()
        while self.peek() == r"\times":
            self.take()
            written += "*" + self.factor_text()
        return written

    def factor_text(self) -> str:
        token = self.take()
        if token.isdigit():
            return token
        if token == r"\frac":
            self.take("{")
            numerator = self.sum_text()
            self.take("}")
            self.take("{")
            denominator = self.sum_text()
            self.take("}")
            return f"({numerator})/({denominator})"
        if token == r"\left(":
            inside = self.sum_text()
            self.take(r"\right)")
            return f"({inside})"
        raise ValueError(f"unexpected {token!r}")


def infix_of(latex: str) -> str:
    """A mathematical block's left side as infix text: \\frac{8}{3 - \\frac{8}{3}} = 24 gives
    (8)/(3-(8)/(3))."""
    return InfixWriter(latex).text()


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
        left, _ = LatexReader(written + " = 0").equation()
        assert left == Fraction(evaluate(text)), (text, written)


def test_a_block_reads_as_the_infix_a_player_types():
    for solution in solve((3, 3, 8, 8)) + solve((1, 1, 1, 2, 2, 8)):
        assert evaluate(infix_of(solution_latex(solution, 24))) == 24


def test_the_reader_refuses_what_the_writer_never_writes():
    for bad in (r"8 \div 3 = 24", "8 / 3 = 24", r"\frac{8}{3 = 24", "3.5 = 24"):
        with pytest.raises(ValueError):
            read_back(bad)
