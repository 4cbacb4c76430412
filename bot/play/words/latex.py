"""A solution written as mathematics: the LaTeX of an expression, for a rich message's
mathematical block (bot.telegram.bot_api_10). Divisions become fractions, so 8/(3-8/3) reads
\\frac{8}{3-\\frac{8}{3}}; only the brackets the value needs are written. Pure: no Telegram.
"""

from __future__ import annotations

from solver import Expr, Num, parse

__all__ = ["latex", "solution_latex"]

SIGNS = {"+": "+", "-": "-", "*": r"\times"}


def _weight(expr: Expr) -> int:
    """How tightly an operand holds together: a number or a fraction never needs brackets."""
    if isinstance(expr, Num) or expr.op == "/":
        return 3
    return 2 if expr.op == "*" else 1


def _bracketed(text: str) -> str:
    return rf"\left({text}\right)"


def latex(expr: Expr) -> str:
    """The LaTeX of an expression tree (Num and BinOp of + - * /)."""
    if isinstance(expr, Num):
        return str(expr.value)
    if expr.op == "/":
        return rf"\frac{{{latex(expr.left)}}}{{{latex(expr.right)}}}"
    weight = _weight(expr)
    left, right = latex(expr.left), latex(expr.right)
    if _weight(expr.left) < weight:
        left = _bracketed(left)
    if _weight(expr.right) < weight or (_weight(expr.right) == weight and expr.op == "-"):
        right = _bracketed(right)
    return f"{left} {SIGNS[expr.op]} {right}"


def solution_latex(solution: str, target: int) -> str:
    """A solution as the solver writes it ("8/(3-8/3)") and its target: `... = 24`."""
    return f"{latex(parse(solution))} = {target}"


assert solution_latex("8/(3-8/3)", 24) == r"\frac{8}{3 - \frac{8}{3}} = 24"
assert latex(parse("(5-1/5)*5")) == r"\left(5 - \frac{1}{5}\right) \times 5"
