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


class StyledCharacterError(ParseError):
    """A character that only looks like a digit or a sign: a superscript, a circled number, a
    fraction. Unicode folding would read `3²` as 32 and `⑳` as 20, so it is refused instead."""

    code = "styled_character"


class NumeralError(ParseError):
    """A numeral that is not a decimal digit (Chinese 三, Ethiopic ፫, Roman Ⅻ): named, never
    guessed at, so that the player types the digits their keyboard has."""

    code = "numeral"


class MistakenSignError(ParseError):
    """A sign that looks like division but is not (the Arabic percent ٪ and decimal separator ٫,
    the percent sign %): named, so that a player divides with / or ÷ instead."""

    code = "mistaken_sign"


class UnbalancedParenthesesError(ParseError):
    code = "unbalanced"


class ImplicitMultiplicationError(ParseError):
    code = "implicit_multiplication"


class UnaryMinusError(ParseError):
    code = "unary_minus"


class MissingOperandError(ParseError):
    code = "missing_operand"


class TooLargeError(InputError):
    """A number with more digits than anything the solver takes; never echoed back (it could be
    thousands of digits, and Python refuses to read more than 4300)."""

    code = "too_large"


class TimeLimitError(SolverError):
    """A solver call took longer than its time limit and was stopped (the batch CLI's --timeout)."""

    code = "timeout"


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
