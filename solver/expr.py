"""Expression trees: numbers and binary operations, their exact value and their text.

Values are exact: `int` while a value is whole, `fractions.Fraction` otherwise, never floats.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from solver.errors import DivisionByZeroError

Value = int | Fraction
OPERATORS = "+-*/"
PRETTY = {"*": "×", "/": "÷", "-": "−"}


@dataclass(frozen=True, slots=True)
class Num:
    """A number of the hand, a non-negative integer."""

    value: int


@dataclass(frozen=True, slots=True)
class BinOp:
    """`left op right` with op one of + - * /."""

    op: str
    left: Expr
    right: Expr


Expr = Num | BinOp


def exact(value: Value) -> Value:
    """The same value as an `int` when it is whole (ints are much faster than Fractions)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def divide(a: Value, b: Value) -> Value:
    """a / b exactly; the caller guarantees b != 0."""
    if isinstance(a, int) and isinstance(b, int):
        return a // b if a % b == 0 else Fraction(a, b)
    return exact(Fraction(a) / b)


def apply(op: str, a: Value, b: Value) -> Value:
    """The exact result of `a op b`; raises DivisionByZeroError for a division by zero."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise DivisionByZeroError("That divides by zero.")
    return divide(a, b)


def value(expr: Expr) -> Value:
    """The exact value of an expression."""
    if isinstance(expr, Num):
        return expr.value
    return apply(expr.op, value(expr.left), value(expr.right))


def numbers(expr: Expr) -> list[int]:
    """The numbers an expression uses, sorted."""
    return sorted(leaf.value for leaf in _leaves(expr))


def _leaves(expr: Expr) -> Iterator[Num]:
    if isinstance(expr, Num):
        yield expr
    else:
        yield from _leaves(expr.left)
        yield from _leaves(expr.right)


def _precedence(expr: Expr) -> int:
    if isinstance(expr, Num):
        return 3
    return 1 if expr.op in "+-" else 2


def to_text(expr: Expr, pretty: bool = False) -> str:
    """Infix text with only the parentheses the value needs; `pretty` uses × ÷ − for chats."""
    if isinstance(expr, Num):
        return str(expr.value)
    prec = _precedence(expr)
    left = to_text(expr.left, pretty)
    if _precedence(expr.left) < prec:
        left = f"({left})"
    right = to_text(expr.right, pretty)
    right_prec = _precedence(expr.right)
    if right_prec < prec or (right_prec == prec and expr.op in "-/"):
        right = f"({right})"
    op = PRETTY.get(expr.op, expr.op) if pretty else expr.op
    return f"{left}{op}{right}"


def prettify(text: str) -> str:
    """ASCII solution text with × ÷ − in place of * / -, for people to read."""
    return "".join(PRETTY.get(ch, ch) for ch in text)


def first_step(expr: Expr) -> Expr:
    """The first operation on two plain numbers, reading left to right: a hint's first step."""
    if isinstance(expr, Num):
        return expr
    if isinstance(expr.left, Num) and isinstance(expr.right, Num):
        return expr
    if isinstance(expr.left, BinOp):
        return first_step(expr.left)
    return first_step(expr.right)


assert to_text(BinOp("/", Num(8), BinOp("-", Num(3), BinOp("/", Num(8), Num(3))))) == "8/(3-8/3)"
assert value(BinOp("/", Num(8), BinOp("-", Num(3), BinOp("/", Num(8), Num(3))))) == 24
