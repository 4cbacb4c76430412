"""`python -m solver solve|batch|console`: the 24 engine from a shell.

`solve` and `batch` are a contract other tools read (see README); the console is for people.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import TextIO

from solver import native
from solver.cli_numbers import read_whole, read_wholes, whole_argument
from solver.errors import SolverError, TimeLimitError
from solver.normal import canonical_key
from solver.search import Hand
from solver.solutions import MAX_NUMBER, MAX_NUMBERS, solve
from solver.timed import TimedRunner

USAGE_HAND = "numbers are whole numbers from 0 to 1,000,000, between 1 and 8 of them"


def _load_batch() -> ModuleType | None:
    """The compiled lean loop of `batch` (solver/native/batch.c), None when it is not built."""
    try:
        return importlib.import_module("solver.native._batch")
    except ImportError:
        return None


BATCH = _load_batch()


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
    if not args.timeout:
        write = sys.stdout.write
        for row in batch_rows(stdin, args.target, args.integer_only):
            write(row)
        sys.stdout.flush()
        return 0
    with TimedRunner(args.timeout) as runner:
        for line in stdin:
            if line.strip():
                print(json.dumps(_batch_line(line, args.target, args.integer_only, runner)),
                      flush=True)
    return 0


def batch_rows(lines: Iterable[str], target: int, integer_only: bool) -> Iterator[str]:
    """The output line of each non-blank input line, newline included, without a time limit.

    The lean loop of `batch`: a line of at most MAX_NUMBERS plain ASCII numbers in range is read
    and written by solver/native/batch.c when it is built (else by str.split, int and an
    f-string, the solutions' texts through json's own string encoder), its hand solved by the
    core straight away (batch.c calls the core's solve itself); any other line goes through
    `_batch_line` and json.dumps, which the lean paths equal byte for byte
    (tests/solver/test_batch_output.py).
    """
    shown = str(target)
    tail = f'], "target": {shown}, "count": '
    text = json.encoder.encode_basestring_ascii  # what json.dumps writes a str with
    solve_hand = _hand_solver(target, integer_only)
    fast = None if BATCH is None else BATCH.row
    core = native.CORE
    # batch.c's call: the core's solve with its arguments (past 64 bits it answers None and the
    # line takes the Python path), else the pure solver
    solver, solver_args = ((core.solve, (target, integer_only, canonical_key)) if core is not None
                           else (solve_hand, ()))
    for line in lines:
        if fast is not None:
            row = fast(line, shown, solver, *solver_args)
            if row is not None:
                yield row
                continue
        words = line.split()
        if not words:
            continue
        if (len(words) <= MAX_NUMBERS and "," not in line
                and all(word.isdigit() and word.isascii() and len(word) <= 7 for word in words)):
            numbers = [int(word) for word in words]
            if max(numbers) <= MAX_NUMBER:
                found = solve_hand(tuple(sorted(numbers)))
                yield (f'{{"numbers": [{", ".join(map(str, numbers))}{tail}{len(found)}, '
                       f'"solutions": [{", ".join(map(text, found))}]}}\n')
                continue
        yield json.dumps(_batch_line(line, target, integer_only)) + "\n"


def _hand_solver(target: int, integer_only: bool) -> Callable[[Hand], list[str]]:
    """solve(hand, target) for a hand already read, checked and sorted: the compiled core's
    answer straight away (solve's own dispatch, less its checks), else the pure solver's."""
    core = native.CORE

    def pure(hand: Hand) -> list[str]:
        return solve(hand, target, integer_only=integer_only)

    if core is None:
        return pure

    def compiled(hand: Hand) -> list[str]:
        try:
            return list(core.solve(hand, target, integer_only, canonical_key))
        except OverflowError:  # a value past 64 bits: Python's integers never wrap
            return pure(hand)

    return compiled


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
