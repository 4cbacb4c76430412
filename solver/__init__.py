"""Twenty-Four's solver: exact answers for the 24 game family. A pure package, no Telegram.

The 24 game (any count of numbers, any target):
    solve(numbers, target=24, *, integer_only=False, limit=None) -> list[str]
        every distinct solution, simplest first, as ASCII infix ("8/(3-8/3)")
    first_solution(numbers, target=24, *, integer_only=False) -> str | None
    is_solvable(numbers, target=24, *, integer_only=False) -> bool

Answers people type:
    parse(text) -> Expr                        an expression tree (Num / BinOp), never eval
    evaluate(text_or_expr, numbers=None) -> Fraction | int   exact; checks the hand if given
    canonical(text_or_expr) -> Hashable        equal iff two expressions are the same solution
    first_step(solution) -> str                a two-number step of a solution, for hints
    to_text(expr, pretty=False) -> str         minimal parentheses; × ÷ − when pretty

Errors are SolverError subclasses (solver.errors), each with a stable `code` and `params`.
Two solutions are the same when the rewrites of commutativity, associativity, folding - into + and
/ into *, avoiding negative values, identities judged by value (adding zero, multiplying by one)
and cancelling a value (A*X/X = A+X-X) turn one into the other (see solver.normal).
"""

from solver.errors import (
    DivisionByZeroError,
    EmptyExpressionError,
    ImplicitMultiplicationError,
    InputError,
    MissingOperandError,
    NumbersMismatchError,
    ParseError,
    SolverError,
    TooDeepError,
    TooLongError,
    UnaryMinusError,
    UnbalancedParenthesesError,
    UnknownCharacterError,
)
from solver.expr import BinOp, Expr, Num, Value, prettify, to_text
from solver.parser import parse
from solver.solutions import (
    canonical,
    check_numbers,
    evaluate,
    first_solution,
    first_step,
    is_solvable,
    solve,
    validate_hand,
)

__all__ = [
    "BinOp",
    "DivisionByZeroError",
    "EmptyExpressionError",
    "Expr",
    "ImplicitMultiplicationError",
    "InputError",
    "MissingOperandError",
    "Num",
    "NumbersMismatchError",
    "ParseError",
    "SolverError",
    "TooDeepError",
    "TooLongError",
    "UnaryMinusError",
    "UnbalancedParenthesesError",
    "UnknownCharacterError",
    "Value",
    "canonical",
    "check_numbers",
    "evaluate",
    "first_solution",
    "first_step",
    "is_solvable",
    "parse",
    "prettify",
    "solve",
    "to_text",
    "validate_hand",
]
