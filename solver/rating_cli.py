"""`python -m solver rate`: the difficulty of hands from a shell, one JSON object per line.

A line that is not a hand gives {"numbers": null, "error": ...}; a hand without a solution gives
its numbers and an error; either way the batch goes on.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from solver.cli_numbers import read_wholes, whole_argument
from solver.errors import SolverError, UnsolvableError
from solver.rating import rating_of


def rate_line(line: str, target: int, number: int = 1) -> dict:
    """The JSON object for one line of input (`number` is the line's number, for errors)."""
    numbers = None
    try:
        numbers = read_wholes(line)
        result = rating_of(numbers, target)
    except UnsolvableError as error:
        return {"numbers": numbers, "error": f"line {number}: {error}"}
    except SolverError as error:
        return {"numbers": None, "error": f"line {number}: {error}"}
    return {"numbers": numbers, "difficulty": round(result.difficulty, 3), "level": result.level}


def main(argv: list[str], stdin: TextIO = sys.stdin) -> int:
    """Entry point for `python -m solver rate [--target T] [numbers...]`."""
    parser = argparse.ArgumentParser(
        prog="python -m solver rate",
        description="Rate hands read from stdin (one per line), or the one hand given.")
    parser.add_argument("--target", type=whole_argument, default=24)
    parser.add_argument("numbers", nargs="*", type=whole_argument)
    args = parser.parse_args(argv[1:])
    if args.numbers:
        row = rate_line(" ".join(map(str, args.numbers)), args.target)
        print(json.dumps(row))
        return 2 if "error" in row else 0
    for number, line in enumerate(stdin, 1):
        if line.strip():
            print(json.dumps(rate_line(line, args.target, number)))
    sys.stdout.flush()
    return 0
