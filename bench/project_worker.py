"""The project's side of the bench protocol (bench/references.py): jobs on stdin, results out.

`python bench/project_worker.py MODE` imports the solver first, reads every job, and only then
starts the clock, so "elapsed" is the work alone, as the references' drivers report theirs.
Modes: "24" (GOAL N1..Nk: every distinct solution, their count), "countdown" (TARGET N1..N6:
TV rules as the bot plays them, the nearest value), "bot" (SEED: a six-number round of the bot,
the count of solutions shown at its end). The solver is whichever `import solver` finds, so
PYTHONPATH or another interpreter's venv points this worker at another worktree's code.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import solver
from solver import is_solvable, solve
from solver.countdown import solve_countdown
from solver.rating import level

# The bot's six-number deal, as bot/games/twentyfour.deal draws it (mirrored, not imported, so
# the bench runs without the bot's dependencies): cards 1..13, a level drawn from the mix, up to
# DEAL_TRIES hands rated until one has that level, within DEAL_SECONDS.
CARDS = (1, 13)
LEVEL_MIX = (("easy", 40), ("medium", 35), ("hard", 25))
DEAL_TRIES = 300
DEAL_SECONDS = 1.0
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
    """Deal and rate a hand as the bot does, then find every solution for the reveal."""
    began = time.perf_counter()
    rng = random.Random(job[0])
    wanted = rng.choices([name for name, _ in LEVEL_MIX],
                         weights=[weight for _, weight in LEVEL_MIX])[0]
    dealt: list[int] | None = None
    deadline = time.monotonic() + DEAL_SECONDS
    for _ in range(DEAL_TRIES):
        drawn = [rng.randint(*CARDS) for _ in range(count)]
        if is_solvable(drawn, target):
            dealt = dealt or drawn
            if level(drawn, target) == wanted:
                dealt = drawn
                break
        if time.monotonic() >= deadline:
            break
    if dealt is None:
        raise SystemExit(f"seed {job[0]}: no solvable hand dealt")
    dealt_at = time.perf_counter()
    found = len(solve(dealt, target))
    ROUND_PARTS.append((dealt_at - began, time.perf_counter() - dealt_at))
    return found


MODES: dict[str, Callable[[Sequence[int]], int]] = {
    "24": solutions_24, "countdown": countdown_nearest, "bot": bot_round}


def main() -> None:
    if len(sys.argv) != 2 or sys.argv[1] not in MODES:
        raise SystemExit(f"usage: project_worker.py {{{','.join(MODES)}}} < jobs")
    work = MODES[sys.argv[1]]
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
