"""`python -m solver solve|batch|console`: the 24 engine from a shell.

`solve` and `batch` are a contract other tools read (see README); the console is for people.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import nullcontext
from typing import TextIO

from solver.cli_numbers import read_whole, read_wholes, whole_argument
from solver.errors import SolverError, TimeLimitError
from solver.solutions import solve
from solver.timed import TimedRunner

USAGE_HAND = "numbers are whole numbers from 0 to 1,000,000, between 1 and 8 of them"


def _solve_command(args: argparse.Namespace) -> int:
    try:
        solutions = solve(args.numbers, args.target, integer_only=args.integer_only)
    except SolverError as error:
        print(f"error: {error} ({USAGE_HAND})", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"numbers": args.numbers, "target": args.target,
                          "count": len(solutions), "solutions": solutions}))
    elif not solutions:
        print("No solution")
    else:
        print("\n".join(solutions))
        print(f"{len(solutions)} solution{'s' if len(solutions) != 1 else ''}")
    return 0


def _solutions(numbers: list[int], target: int, integer_only: bool) -> list[str]:
    """solve() with positional arguments, as the timed runner passes them."""
    return solve(numbers, target, integer_only=integer_only)


def _batch_line(line: str, target: int, integer_only: bool,
                runner: TimedRunner | None = None) -> dict:
    """The JSON object for one line: its solutions, or why there are none to give.

    A line that can't be read (or a hand the solver refuses) has "numbers": null; a hand that ran
    out of time keeps its numbers, with "error" and "code": "timeout".
    """
    try:
        numbers = read_wholes(line)
        if runner is None:
            solutions = solve(numbers, target, integer_only=integer_only)
        else:
            solutions = runner.run(_solutions, numbers, target, integer_only)
    except TimeLimitError as error:
        return {"numbers": numbers, "target": target, "error": str(error), "code": error.code}
    except SolverError as error:
        return {"numbers": None, "error": str(error), "code": error.code}
    return {"numbers": numbers, "target": target, "count": len(solutions),
            "solutions": solutions}


def _batch_command(args: argparse.Namespace, stdin: TextIO = sys.stdin) -> int:
    with TimedRunner(args.timeout) if args.timeout else nullcontext() as runner:
        for line in stdin:
            if line.strip():
                row = _batch_line(line, args.target, args.integer_only, runner)
                print(json.dumps(row), flush=runner is not None)
    sys.stdout.flush()
    return 0


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("a number of seconds") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError("a number of seconds above 0")
    return seconds


def console(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Ask for a target, then solve hands until 'q' (or end of input)."""

    def ask(prompt: str) -> str | None:
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        return None if not line else line.strip()

    target = 24
    answer = ask("Target (Enter for 24): ")
    if answer is None:
        return 0
    if answer:
        try:
            target = read_whole(answer)
        except SolverError as error:
            stdout.write(f"{error}; using 24.\n")
    stdout.write(f"Type the numbers of a hand (e.g. 3 8 3 8), or q to quit. Target: {target}\n")
    while (line := ask("> ")) is not None:
        if line.lower() in ("q", "quit", "exit"):
            break
        if not line:
            continue
        try:
            solutions = solve(read_wholes(line), target)
        except SolverError as error:
            stdout.write(f"{error} ({USAGE_HAND})\n")
            continue
        for text in solutions:
            stdout.write(f"  {text} = {target}\n")
        stdout.write(f"{len(solutions)} distinct solution(s)\n" if solutions else "No solution\n")
    return 0


def main(argv: list[str]) -> int:
    """Entry point for `python -m solver solve|batch|console`."""
    parser = argparse.ArgumentParser(prog="python -m solver")
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("solve", help="every distinct solution of one hand")
    one.add_argument("numbers", nargs="+", type=whole_argument, metavar="NUMBER",
                     help="the hand: 1 to 8 whole numbers from 0 to 1,000,000")
    one.add_argument("--json", action="store_true",
                     help="one JSON object: numbers, target, count, solutions")
    many = commands.add_parser("batch", help="one hand per stdin line, one JSON object per line")
    commands.add_parser("console", help="interactive: a target, then hands until q")
    for command in (one, many):
        command.add_argument("--target", type=whole_argument, default=24,
                             help="the number to make (default 24)")
        command.add_argument("--integer-only", action="store_true",
                             help="every intermediate result must be a whole number")
    many.add_argument("--timeout", type=_positive_seconds, metavar="SECONDS",
                      help="stop a line after this many seconds (its line says so) and go on")
    args = parser.parse_args(argv)
    if args.command == "solve":
        return _solve_command(args)
    if args.command == "batch":
        return _batch_command(args)
    return console()
