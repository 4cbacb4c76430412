"""`python -m solver countdown`: the seed's game.in/game.out from a shell, or one game."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from solver.cli_numbers import read_wholes, whole_argument
from solver.countdown import CountdownResult, solve_countdown
from solver.errors import SolverError


def _read_line(line: str) -> tuple[list[int], int]:
    values = read_wholes(line)
    if len(values) < 2:
        raise SolverError("a line holds the numbers, then the target")
    return values[:-1], values[-1]


def _as_json(result: CountdownResult) -> str:
    return json.dumps({"numbers": list(result.numbers), "target": result.target,
                       "best": result.best, "nearest": result.nearest,
                       "expression": result.expression})


def _as_text(result: CountdownResult) -> str:
    if result.best is None:
        return f"none\n(nothing at most {result.target}; nearest {result.nearest}: " \
               f"{result.nearest_expression})"
    return f"{result.best}\n{result.expression}"


def main(argv: list[str], stdin: TextIO = sys.stdin) -> int:
    """Entry point for `python -m solver countdown`."""
    parser = argparse.ArgumentParser(prog="python -m solver countdown")
    parser.add_argument("--rules", choices=("all", "subset"), default="all")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--target", type=whole_argument)
    parser.add_argument("numbers", nargs="*", type=whole_argument)
    args = parser.parse_args(argv[1:])
    if args.numbers or args.target is not None:
        if args.target is None or not args.numbers:
            parser.error("give --target T and the numbers")
        lines = [(1, " ".join(map(str, [*args.numbers, args.target])))]
    else:
        lines = [(i, line) for i, line in enumerate(stdin, 1) if line.strip()]
    status = 0
    for number, line in lines:
        try:
            numbers, target = _read_line(line)
            result = solve_countdown(numbers, target, args.rules)
        except SolverError as error:
            if args.json:
                print(json.dumps({"numbers": None, "error": f"line {number}: {error}"}))
            else:
                print(f"line {number}: {error}", file=sys.stderr)
                status = 2
            continue
        print(_as_json(result) if args.json else _as_text(result), flush=True)
    return status
