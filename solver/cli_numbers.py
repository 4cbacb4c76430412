"""Whole numbers as the command-line tools read them: ASCII digits only, giant ones refused.

`int()` also reads other scripts' digits and underscores, and past 4300 digits raises a ValueError
that is easy to report as "not a whole number" with the word in it. Here a word that is not a
number is named (cut short), and a giant one is "too large" and never echoed.
"""

from __future__ import annotations

import argparse
import re

from solver.errors import SolverError, TooLargeError

MAX_DIGITS = 100  # far beyond any number or target the solvers take
WHOLE = re.compile(r"[+-]?[0-9]+")
SHOWN = 20  # at most this many characters of a word that is not a number are echoed


def read_whole(word: str) -> int:
    """One whole number; SolverError naming the word when it is not one, TooLargeError past
    MAX_DIGITS digits."""
    if not WHOLE.fullmatch(word):
        shown = word if len(word) <= SHOWN else word[:SHOWN] + "…"
        raise SolverError(f"{shown!r} is not a whole number", word=shown)
    if len(word.lstrip("+-")) > MAX_DIGITS:
        raise TooLargeError(f"a number is too large (more than {MAX_DIGITS} digits)",
                            limit=MAX_DIGITS)
    return int(word)


def read_wholes(line: str) -> list[int]:
    """The whole numbers of a line, separated by spaces or commas."""
    return [read_whole(word) for word in line.replace(",", " ").split()]


def whole_argument(text: str) -> int:
    """An argparse `type`: like `int`, but ASCII only and never echoing a giant number."""
    try:
        return read_whole(text)
    except SolverError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
