"""`python -m solver yahtzee`: UVa 10149 input (13 rolls of five dice per game) to best scorings."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from solver.errors import SolverError
from solver.yahtzee import ROLLS, best_assignment


def _roll(line: str, number: int) -> list[int]:
    try:
        dice = [int(w) for w in line.split()]
    except ValueError:
        raise SolverError(f"line {number}: a roll is five dice from 1 to 6") from None
    if len(dice) != 5 or any(not 1 <= d <= 6 for d in dice):
        raise SolverError(f"line {number}: a roll is five dice from 1 to 6")
    return dice


def main(argv: list[str], stdin: TextIO = sys.stdin) -> int:
    """Entry point for `python -m solver yahtzee`."""
    parser = argparse.ArgumentParser(prog="python -m solver yahtzee")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv[1:])
    lines = [(i, line) for i, line in enumerate(stdin, 1) if line.strip()]
    status = 0
    for start in range(0, len(lines), ROLLS):
        group = lines[start:start + ROLLS]
        try:
            rolls = [_roll(line, number) for number, line in group]  # a bad roll is named first
            if len(group) < ROLLS:
                raise SolverError(f"line {group[-1][0]}: the game is cut short "
                                  f"({len(group)} of {ROLLS} rolls)")
            result = best_assignment(rolls)
        except SolverError as error:
            if args.json:
                print(json.dumps({"numbers": None, "error": str(error)}))
            else:
                print(str(error), file=sys.stderr)
                status = 2
            continue
        if args.json:
            print(json.dumps({"rolls": rolls, "scores": list(result.scores),
                              "bonus": result.bonus, "total": result.total}))
        else:
            print(" ".join(map(str, (*result.scores, result.bonus, result.total))))
    return status
