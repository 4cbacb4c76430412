"""The project's side of the bench protocol (bench/references.py): jobs on stdin, results out.

`python bench/project_worker.py MODE` imports the solver first (and for "bot" the bot's game
module), reads every job, and only then starts the clock, so "elapsed" is the work alone, as the
references' drivers report theirs.
Modes: "24" (GOAL N1..Nk: every distinct solution, their count), "countdown" (TARGET N1..N6:
TV rules as the bot plays them, the nearest value), "bot" (SEED: a six-number round of the bot,
the count of solutions shown at its end). The solver is whichever `import solver` finds, so
PYTHONPATH or another interpreter's venv points this worker at another worktree's code.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence

import solver
from solver import solve
from solver.countdown import solve_countdown

ROUND_PARTS: list[tuple[float, float]] = []  # (deal and rating, all solutions) of each bot round


def solutions_24(job: Sequence[int]) -> int:
    """How many distinct solutions the hand has for the goal."""
    goal, *hand = job
    return len(solve(hand, goal))


def countdown_nearest(job: Sequence[int]) -> int:
    """The value nearest the target (ties lower), as the bot's Countdown reveals it."""
    target, *hand = job
    return solve_countdown(hand, target, "subset").nearest


def bot_round(job: Sequence[int], count: int = 6, target: int = 24) -> int:
    """Deal and rate a hand as the bot does (its own deal, imported), then find every solution
    for the reveal."""
    from bot.play.games.twentyfour.rules import deal, solutions  # the bot's dependencies, only here

    began = time.perf_counter()
    # no time budget: the bot's (DEAL_SECONDS) would make the hand depend on the machine's load
    dealt = deal(job[0], count=count, target=target, budget=float("inf"))
    if dealt is None:
        raise SystemExit(f"seed {job[0]}: no solvable hand dealt")
    dealt_at = time.perf_counter()
    found = len(solutions(dealt.hand, dealt.target))
    ROUND_PARTS.append((dealt_at - began, time.perf_counter() - dealt_at))
    return found


MODES: dict[str, Callable[[Sequence[int]], int]] = {
    "24": solutions_24, "countdown": countdown_nearest, "bot": bot_round}


def main() -> None:
    if len(sys.argv) != 2 or sys.argv[1] not in MODES:
        raise SystemExit(f"usage: project_worker.py {{{','.join(MODES)}}} < jobs")
    work = MODES[sys.argv[1]]
    if sys.argv[1] == "bot":  # the bot's modules (~180 ms of imports) load before the clock too
        import bot.play.games.twentyfour.rules  # noqa: F401
    jobs = [[int(word) for word in line.split()] for line in sys.stdin if line.strip()]
    out = []
    start = time.perf_counter()
    for job in jobs:
        began = time.perf_counter()
        result = work(job)
        out.append(f"{result} {time.perf_counter() - began:.9f}")
    elapsed = time.perf_counter() - start
    trailer = [f"elapsed {elapsed:.9f}", f"solver {solver.__file__}",
               f"compiled {' '.join(compiled_modules()) or 'none'}"]
    if ROUND_PARTS:
        trailer += [f"deal_median {statistics.median(deal for deal, _ in ROUND_PARTS):.9f}",
                    f"solve_median {statistics.median(found for _, found in ROUND_PARTS):.9f}"]
    print("\n".join([*out, *trailer]))


def compiled_modules() -> list[str]:
    """The solver's modules loaded from compiled extensions: whether a native core did the work."""
    return sorted(name for name, module in sys.modules.items()
                  if name.split(".")[0] == "solver"
                  and str(getattr(module, "__file__", "")).endswith((".so", ".pyd")))


if __name__ == "__main__":
    main()
