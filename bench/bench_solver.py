"""Benchmark of the 24 engine and Countdown's search: compiled beside pure, whole processes.

Every measurement runs in a fresh child process (SOLVER_PURE=1 for the pure side), so caches
start cold; the child times only the work, after its imports, and the parent reads the child's
peak resident memory (os.wait4). Native and pure runs are paired, one after the other; the
table shows medians of --repeat pairs and issue 19's goals. Start-up (interpreter and
`import solver`) is measured apart.

    python bench/bench_solver.py [--repeat N] [--eight] [--eight-pure]

--eight adds 1 2 3 4 5 6 7 8 -> 24 on the core (once; seconds); --eight-pure on the pure side too
(minutes). The last row is Countdown: solver/native/countdown.c beside solver.countdown_search.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALL_FOUR = [list(h) for h in itertools.combinations_with_replacement(range(1, 14), 4)]
SIX = [[89, 67, 34, 5, 6, 87], [1, 2, 3, 4, 5, 6], [2, 3, 5, 7, 11, 13], [23, 45, 67, 89, 34, 66],
       [1, 1, 3, 8, 8, 13]]
SEVEN = [1, 2, 3, 4, 5, 6, 7]
EIGHT = [1, 2, 3, 4, 5, 6, 7, 8]


def timed(fn) -> float:
    """Seconds one call takes (bench_levels and bench_rating time their work with it)."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def tv_deals(count: int, seed: int = 7) -> list[list[int]]:
    """TV Countdown deals, target first (as bench_references deals them)."""
    rng = random.Random(seed)
    small = [n for n in range(1, 11) for _ in range(2)]
    deals = []
    for _ in range(count):
        large = rng.randint(0, 4)
        numbers = rng.sample([25, 50, 75, 100], large) + rng.sample(small, 6 - large)
        deals.append([rng.randint(101, 999), *numbers])
    return deals


def child(job: dict) -> None:
    """Run one job (in the child process) and print the seconds its work took, as JSON."""
    from solver import countdown_native, first_solution, native, solve
    from solver.countdown import solve_countdown

    if job["work"] == "countdown":  # hands are deals, target first; count the exact ones
        start = time.perf_counter()
        results = [solve_countdown(deal[1:], deal[0]) for deal in job["hands"]]
        seconds = time.perf_counter() - start
        print(json.dumps({"seconds": seconds, "count": sum(r.exact for r in results),
                          "native": countdown_native.NATIVE is not None}))
        return
    work = {"solve": solve, "first": first_solution}[job["work"]]
    start = time.perf_counter()
    answers = [work(hand, job["target"]) for hand in job["hands"]]
    seconds = time.perf_counter() - start
    count = sum(len(a) if isinstance(a, list) else a is not None for a in answers)
    print(json.dumps({"seconds": seconds, "count": count, "native": native.CORE is not None}))


def run_child(job: dict, pure: bool) -> tuple[float, float, int]:
    """(seconds of work, peak RSS in MB, answers found) of one job in a fresh process."""
    env = {**os.environ, "SOLVER_PURE": "1"} if pure else {
        k: v for k, v in os.environ.items() if k != "SOLVER_PURE"}
    process = subprocess.Popen([sys.executable, __file__, "--child", json.dumps(job)], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"the child failed on {job['work']} ({'pure' if pure else 'native'})")
    result = json.loads(output)
    if result["native"] == pure:
        raise SystemExit("the native core is not built: run `make test` (pip install -e .)")
    return result["seconds"], usage.ru_maxrss / 1024, result["count"]


def paired(job: dict, repeat: int, sides: tuple[bool, ...] = (False, True)) -> dict:
    """Median seconds, peak MB and count per side (False: native, True: pure)."""
    runs: dict[bool, list[tuple[float, float, int]]] = {side: [] for side in sides}
    for _ in range(repeat):
        for side in sides:
            runs[side].append(run_child(job, side))
    return {side: (statistics.median(r[0] for r in rs), max(r[1] for r in rs), rs[0][2])
            for side, rs in runs.items()}


def start_up(repeat: int) -> tuple[float, float]:
    """Median wall seconds of `python -c pass` and of `python -c "import solver"`."""
    def wall(code: str) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
            times.append(time.perf_counter() - start)
        return statistics.median(times)
    return wall("pass"), wall("import solver")


def row(label: str, native: float, pure: float | None, goal: float | None, unit: str) -> None:
    scale = 1000 if unit == "ms" else 1
    cells = [f"{native * scale:>10.3f}", f"{pure * scale:>10.3f}" if pure else f"{'-':>10}",
             f"{pure / native:>8.1f}x" if pure else f"{'':>9}",
             f"{goal:>8g}" if goal else f"{'':>8}"]
    print(f"{label:<44}{unit:>4}" + "".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--eight", action="store_true")
    parser.add_argument("--eight-pure", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(json.loads(args.child))
        return

    bare, imported = start_up(max(args.repeat, 5))
    print(f"start-up: python -c pass {bare:.3f} s; python -c 'import solver' {imported:.3f} s "
          f"(imports {imported - bare:.3f} s), not counted below\n")
    print(f"{'work (whole processes, cold, medians)':<44}{'':>4}{'native':>10}{'pure':>10}"
          f"{'pure/nat':>9}{'goal':>8}")

    four = paired({"work": "solve", "hands": ALL_FOUR, "target": 24}, args.repeat)
    row("all 1820 hands of 1..13 -> 24, all solutions", four[False][0], four[True][0], 0.1, "s")
    first = paired({"work": "first", "hands": ALL_FOUR, "target": 24}, args.repeat)
    row("all 1820 hands -> 24, first solution", first[False][0], first[True][0], None, "s")

    six = [paired({"work": "solve", "hands": [hand], "target": 24}, args.repeat) for hand in SIX]
    six_first = [paired({"work": "first", "hands": [hand], "target": 24}, args.repeat)
                 for hand in SIX]
    for name, runs in (("six numbers -> 24, all solutions (median)", six),
                       ("six numbers -> 24, first solution (median)", six_first)):
        row(name, statistics.median(r[False][0] for r in runs),
            statistics.median(r[True][0] for r in runs), None, "ms")

    seven = paired({"work": "solve", "hands": [SEVEN], "target": 24}, args.repeat)
    row("1 2 3 4 5 6 7 -> 24, all solutions", seven[False][0], seven[True][0], 0.9, "s")
    row("1 2 3 4 5 6 7 -> 24, peak RSS", seven[False][1], seven[True][1], 70, "MB")
    if args.eight or args.eight_pure:
        sides = (False, True) if args.eight_pure else (False,)
        eight = paired({"work": "solve", "hands": [EIGHT], "target": 24}, 1, sides)
        pure = eight.get(True)
        row("1 2 3 4 5 6 7 8 -> 24, all solutions (once)", eight[False][0],
            pure[0] if pure else None, 40, "s")
        row("1 2 3 4 5 6 7 8 -> 24, peak RSS", eight[False][1], pure[1] if pure else None,
            1700, "MB")
        print(f"({eight[False][2]} distinct solutions of 1..8)")
    deals = tv_deals(300)
    countdown = paired({"work": "countdown", "hands": deals, "target": 0}, args.repeat)
    row("Countdown, 300 TV deals (solve_countdown)", countdown[False][0], countdown[True][0],
        None, "s")
    print(f"\n({four[False][2]} distinct solutions over the 1820 hands; six-number hands: "
          f"{', '.join(str(r[False][2]) for r in six)}; seven: {seven[False][2]}; Countdown: "
          f"{countdown[False][2]} of 300 deals exact)")


if __name__ == "__main__":
    main()
