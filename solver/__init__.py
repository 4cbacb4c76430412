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

Difficulty as people feel it (solver.rating; 1 to 6 numbers, any target):
    rate(numbers, target=24) -> float          higher is harder; 0 when a player cannot go wrong
    level(numbers, target=24) -> str           "easy" | "medium" | "hard" (LEVELS)
    rating_of(numbers, target=24) -> Rating    both at once: Rating(difficulty, level), frozen
    An unsolvable hand raises UnsolvableError (an InputError, code "unsolvable"). Over the 1362
    solvable hands of 1..13 to 24 the levels split about 40 / 35 / 25 %.

What every solution of a hand needs (`from solver.themes import themes`: not re-exported here,
where the name would hide the module; 1 to 5 numbers, a whole target above 0):
    themes(numbers, target=24) -> Themes       the needed THEMES ("fraction", "beyond", ...),
                                               factor pairs, an example each (docs/themes.md)

The answers come from a compiled core (solver.native, C) when it is built, and from the
pure-Python solver otherwise, or with SOLVER_PURE=1, or for a hand whose values pass 64 bits:
the same solutions in the same order, the same first solution (`python -m solver --version`
says which answers).

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
    MistakenSignError,
    NumbersMismatchError,
    NumeralError,
    ParseError,
    SolverError,
    StyledCharacterError,
    TimeLimitError,
    TooDeepError,
    TooLargeError,
    TooLongError,
    UnaryMinusError,
    UnbalancedParenthesesError,
    UnknownCharacterError,
    UnsolvableError,
)
from solver.expr import BinOp, Expr, Num, Value, prettify, to_text
from solver.parser import parse
from solver.rating import LEVELS, Rating, level, rate, rating_of
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
    "LEVELS",
    "BinOp",
    "DivisionByZeroError",
    "EmptyExpressionError",
    "Expr",
    "ImplicitMultiplicationError",
    "InputError",
    "MissingOperandError",
    "MistakenSignError",
    "Num",
    "NumbersMismatchError",
    "NumeralError",
    "ParseError",
    "Rating",
    "SolverError",
    "StyledCharacterError",
    "TimeLimitError",
    "TooDeepError",
    "TooLargeError",
    "TooLongError",
    "UnaryMinusError",
    "UnbalancedParenthesesError",
    "UnknownCharacterError",
    "UnsolvableError",
    "Value",
    "canonical",
    "check_numbers",
    "evaluate",
    "first_solution",
    "first_step",
    "is_solvable",
    "level",
    "parse",
    "prettify",
    "rate",
    "rating_of",
    "solve",
    "to_text",
    "validate_hand",
]
