"""Errors the solver raises for bad input, kept in one module.

Every error carries a stable `code` and `params` so that a front end (the bot, in two languages) can
word it itself; `str(error)` is a short English sentence a user understands.
"""

from __future__ import annotations

from typing import Any


class SolverError(ValueError):
    """Base class: bad input to the solver, never a bug in it."""

    code = "invalid"

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params


class InputError(SolverError):
    """The hand or the target is outside what the solver accepts."""

    code = "bad_input"


class UnsolvableError(InputError):
    """The hand cannot make the target, so it has no difficulty (solver.rating)."""

    code = "unsolvable"


class ParseError(SolverError):
    """An answer could not be read as an arithmetic expression."""

    code = "parse"


class EmptyExpressionError(ParseError):
    code = "empty"


class TooLongError(ParseError):
    code = "too_long"


class TooDeepError(ParseError):
    code = "too_deep"


class UnknownCharacterError(ParseError):
    code = "unknown_character"


class UnbalancedParenthesesError(ParseError):
    code = "unbalanced"


class ImplicitMultiplicationError(ParseError):
    code = "implicit_multiplication"


class UnaryMinusError(ParseError):
    code = "unary_minus"


class MissingOperandError(ParseError):
    code = "missing_operand"


class DivisionByZeroError(SolverError):
    """The expression divides by a sub-expression whose value is exactly zero."""

    code = "division_by_zero"


class NumbersMismatchError(SolverError):
    """The expression does not use each number of the hand exactly once.

    `missing` lists numbers of the hand it leaves out, `extra` numbers it uses that the hand does
    not have (or uses too often); both sorted.
    """

    code = "numbers_mismatch"

    def __init__(self, message: str, missing: list[int], extra: list[int]) -> None:
        super().__init__(message, missing=missing, extra=extra)
        self.missing = missing
        self.extra = extra
