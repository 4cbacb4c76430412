"""The project's solver beside the public native solvers, in the same run (issues 19 and 28).

Each work is run in paired runs, project and references one after the other (the order flips
every other run, so a drift of the busy machine falls on both sides); a ratio is project /
reference within a pair, and the table shows medians. The project runs in its own process
(bench/project_worker.py) and times its work after the interpreter's start and the imports,
which get their own row; inrust and Numbers are driven the same way by drivers built outside
the repository; 24GamePro reads hands interactively, so it is timed as a whole process (its
start-up is about a millisecond). Peak memory is each process's own max RSS (os.wait4).
The batch row times `python -m solver batch`'s own loop (solver.cli) in a worker of this file
(`--batch-worker`): reading the hands from a file, solving, writing the JSON lines to a file.
The bot's six-number round (deal and analysis, bot.play.games.twentyfour.rules through the project's
worker) is timed warm (one process, the caches the bot keeps) and cold (the first round of a
fresh process). Each row carries its goal (issue 28 where it set one, else issue 19's).
The references are found through BENCH_24GAMEPRO, BENCH_INRUST and BENCH_NUMBERS (or the
options below); without them their columns read "not built".
`python bench/bench_references.py [--quick] [--eight] [--repeat N]`.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.references import (  # noqa: E402
    ENV_VARS,
    GAMEPRO_MAX_NUMBERS,
    Job,
    ask,
    gamepro_counts,
    gamepro_input,
    parse_reply,
    run_process,
)

WORKER = ROOT / "bench" / "project_worker.py"
FOURS: list[Job] = [(24, *h) for h in itertools.combinations_with_replacement(range(1, 14), 4)]
SEVEN: Job = (24, 1, 2, 3, 4, 5, 6, 7)
EIGHT: Job = (24, 1, 2, 3, 4, 5, 6, 7, 8)
MiB = 1 << 20


def six_hands(count: int, seed: int = 2406) -> list[Job]:
    """Seeded six-number hands of the bot's cards 1..13, for 24."""
    rng = random.Random(seed)
    return [(24, *(rng.randint(1, 13) for _ in range(6))) for _ in range(count)]


def tv_deals(count: int, seed: int) -> list[Job]:
    """TV Countdown deals, target first: 0-4 of 25 50 75 100, the rest from two each of 1..10,
    a target 101..999."""
    rng = random.Random(seed)
    small = [n for n in range(1, 11) for _ in range(2)]
    deals: list[Job] = []
    for _ in range(count):
        large = rng.randint(0, 4)
        numbers = rng.sample([25, 50, 75, 100], large) + rng.sample(small, 6 - large)
        deals.append((rng.randint(101, 999), *numbers))
    return deals


@dataclass(frozen=True)
class Outcome:
    """One run of one program: its work's seconds (whole process for 24GamePro), its peak
    memory in bytes (or at most `floor`, see references.Run), one result and one time per job,
    and its trailer figures."""

    seconds: float
    peak: int
    floor: int
    results: list[int]
    job_seconds: list[float]
    figures: dict[str, str]


Measure = Callable[[], Outcome]


@dataclass
class Side:
    """One program's runs of one work. `note` says why it has none, or how it was timed."""

    name: str
    note: str = ""
    runs: list[Outcome] = field(default_factory=list)

    @property
    def ran(self) -> bool:
        return bool(self.runs)

    @property
    def results(self) -> list[int]:
        return self.runs[0].results

    def record(self, outcome: Outcome) -> None:
        if self.runs and outcome.results != self.results:
            raise SystemExit(f"{self.name}: different results from one run to the next")
        self.runs.append(outcome)

    def median(self, memory: bool = False) -> float:
        return statistics.median(run.peak if memory else run.seconds for run in self.runs)

    @property
    def peak_known(self) -> bool:
        return all(run.peak > run.floor for run in self.runs)

    def peak_text(self) -> str:
        """The median peak, or the bound it lies under when it did not rise above the floor."""
        if self.peak_known:
            return show_peak(self.median(memory=True))
        return "<= " + show_peak(max(run.floor for run in self.runs))


class Programs:
    """The commands of the project's worker and of each reference (None: not built)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.python = args.python
        self.paths: dict[str, str | None] = {}
        self.notes: dict[str, str] = {}
        for name, env in ENV_VARS.items():
            path: str = getattr(args, name.lower()) or os.environ.get(env, "")
            built = bool(path) and os.access(path, os.X_OK)
            self.paths[name] = path if built else None
            if not built:
                self.notes[name] = f"not built ({env} unset)" if not path else \
                    f"not built ({env}: no program at {path})"

    def project(self, mode: str, jobs: Sequence[Job]) -> Measure:
        return lambda: _protocol([self.python, str(WORKER), mode], jobs)

    def driven(self, name: str, jobs: Sequence[Job]) -> Measure | None:
        path = self.paths[name]
        return None if path is None else lambda: _protocol([path], jobs)

    def gamepro(self, jobs: Sequence[Job]) -> Measure | None:
        path = self.paths["24GamePro"]
        if path is None or max(len(job) - 1 for job in jobs) > GAMEPRO_MAX_NUMBERS:
            return None
        goal = jobs[0][0]
        if any(job[0] != goal for job in jobs):
            raise ValueError("24GamePro takes one goal per process")
        return lambda: _gamepro(path, goal, [job[1:] for job in jobs])


    def batch(self, jobs: Sequence[Job]) -> Measure:
        return lambda: _protocol([self.python, str(Path(__file__).resolve()), "--batch-worker"],
                                 jobs)


def batch_worker() -> None:
    """The project's side of the batch row, a protocol program: `python -m solver batch`'s own
    loop on the jobs' hands (one goal), from a file to a file, timed after the imports and the
    reading of the jobs; each job's result is its count of solutions (its time is not split)."""
    import json
    import tempfile
    import time

    from solver import cli

    jobs = [line.split() for line in sys.stdin if line.strip()]
    goals = {job[0] for job in jobs}
    if len(goals) > 1:
        raise SystemExit("the batch worker takes one goal")
    args = argparse.Namespace(target=int(goals.pop()) if goals else 24, integer_only=False,
                              timeout=None)
    with tempfile.TemporaryFile("w+") as given, tempfile.TemporaryFile("w+") as out:
        given.write("".join(" ".join(job[1:]) + "\n" for job in jobs))
        given.seek(0)
        shown, sys.stdout = sys.stdout, out
        try:
            start = time.perf_counter()
            cli._batch_command(args, given)
            elapsed = time.perf_counter() - start
        finally:
            sys.stdout = shown
        out.seek(0)
        counts = [json.loads(line)["count"] for line in out]
    print("".join(f"{count} 0\n" for count in counts) + f"elapsed {elapsed:.9f}")


def _protocol(command: list[str], jobs: Sequence[Job]) -> Outcome:
    reply, run = ask(command, jobs)
    return Outcome(reply.elapsed, run.max_rss, run.floor, reply.results, reply.seconds,
                   reply.figures)


def _gamepro(path: str, goal: int, hands: list[Sequence[int]]) -> Outcome:
    run = run_process([path], gamepro_input(goal, hands))
    return Outcome(run.wall, run.max_rss, run.floor, gamepro_counts(run.stdout, len(hands)),
                   [], {})


def paired(repeat: int, sides: Sequence[tuple[Side, Measure | None]]) -> None:
    """Run each program that is built `repeat` times, in turns, flipping the order each turn."""
    built = [(side, run) for side, run in sides if run is not None]
    for turn in range(repeat):
        for side, run in built if turn % 2 == 0 else reversed(built):
            side.record(run())


def ratio(project: Side, reference: Side, memory: bool = False) -> float:
    """The median over pairs of project / reference (time, or peak memory)."""
    pick = (lambda run: run.peak) if memory else (lambda run: run.seconds)
    return statistics.median(pick(a) / pick(b)
                             for a, b in zip(project.runs, reference.runs, strict=True))


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def show_time(seconds: float) -> str:
    return f"{seconds:.3f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"


def show_peak(peak: float) -> str:
    return f"{peak / MiB:,.0f} MiB"


@dataclass
class Line:
    """One line of the table: a work, the project's median, a reference's, their ratio."""

    work: str
    project: str
    reference: str = ""
    theirs: str = ""
    ratio: float | None = None
    goal: str = ""
    met: bool | None = None

    def text(self) -> str:
        ratio = "" if self.ratio is None else f"{self.ratio:.2f}x"
        met = "" if self.met is None else ("yes" if self.met else "no")
        return (f"{self.work:<32}{self.project:>11}  {self.reference:<28}{self.theirs:>11}"
                f"{ratio:>9}{self.goal:>10}{met:>5}")


HEADER = Line("work", "project", "reference", "reference").text()[:-24] + \
    f"{'ratio':>9}{'goal':>10}{'met':>5}"


def compare(work: str, project: Side, references: Sequence[tuple[Side, float | None]],
            memory: bool = False) -> list[Line]:
    """The table's lines for one work, one a reference (shown without a goal if it has none)."""
    if not project.ran:
        return [Line(work, project.note)]
    mine = project.peak_text() if memory else show_time(project.median())
    lines: list[Line] = []
    for side, goal in references:
        label = "" if lines else work
        wanted = "" if goal is None else f"<= {goal:g}x"
        if not side.ran:
            lines.append(Line(label, mine, side.name, side.note.split(" (")[0], goal=wanted))
            continue
        name = side.name + (f" ({side.note})" if side.note else "")
        theirs = side.peak_text() if memory else show_time(side.median())
        value = ratio(project, side, memory)
        exact = not memory or (project.peak_known and side.peak_known)
        lines.append(Line(label, mine, name, theirs, value if exact else None, wanted,
                          None if goal is None or not exact else value <= goal))
    return lines


def solutions_note(side: Side) -> str:
    if not side.ran:
        return f"{side.name} {side.note}"
    solvable = sum(1 for n in side.results if n)
    hands = f" ({solvable} of {len(side.results)} hands solvable)" if len(side.results) > 1 \
        else ""
    return f"{side.name} {sum(side.results)} solutions{hands}, peak {side.peak_text()}"


def countdown_note(side: Side, deals: Sequence[Job], project: Side) -> str:
    if not side.ran:
        return f"{side.name} {side.note}"
    exact = sum(1 for deal, value in zip(deals, side.results, strict=True) if value == deal[0])
    text = f"{side.name} {exact} exact"
    if side is not project and project.ran:
        same = sum(1 for deal, a, b in zip(deals, side.results, project.results, strict=True)
                   if abs(a - deal[0]) == abs(b - deal[0]))
        text += f", as near as the project on {same} of {len(deals)}"
    aborted = side.runs[0].figures.get("aborted", "0")
    if aborted != "0":
        text += f", {aborted} searches cut short (its table of operations full)"
    return text + f", peak {side.peak_text()}"


class Bench:
    """The works of the table, one after another; each adds its lines and a note of its counts."""

    def __init__(self, programs: Programs) -> None:
        self.programs = programs
        self.lines: list[Line] = []
        self.notes: list[str] = []
        self.solver = "?"  # where the worker's `import solver` found it

    def reference(self, name: str) -> Side:
        return Side(name, self.programs.notes.get(name, ""))

    def twenty_four(self, work: str, jobs: Sequence[Job], repeat: int,
                    goals: dict[str, float | None], memory_goal: float | None = None) -> None:
        """Every distinct solution of each hand, against 24GamePro (up to six numbers) and
        inrust."""
        project, gamepro, inrust = Side("project"), self.reference("24GamePro"), \
            self.reference("inrust")
        gamepro_run = self.programs.gamepro(jobs) if "24GamePro" in goals else None
        if gamepro_run is not None:
            gamepro.note = "whole process"
        paired(repeat, [(project, self.programs.project("24", jobs)), (gamepro, gamepro_run),
                        (inrust, self.programs.driven("inrust", jobs))])
        shown = [(side, goals[side.name]) for side in (gamepro, inrust) if side.name in goals]
        self.lines += compare(work, project, shown)
        if memory_goal is not None:
            self.lines += compare("  peak memory", project, [(inrust, memory_goal)], memory=True)
        self.notes.append(f"{work} ({plural(len(project.runs), 'run')}): " + "; ".join(
            solutions_note(side) for side in (project, *(side for side, _ in shown))))

    def batch(self, work: str, jobs: Sequence[Job], repeat: int, goal: float) -> None:
        """`python -m solver batch` on the hands (start-up apart), against inrust's solving."""
        project, inrust = Side("project"), self.reference("inrust")
        paired(repeat, [(project, self.programs.batch(jobs)),
                        (inrust, self.programs.driven("inrust", jobs))])
        self.lines += compare(work, project, [(inrust, goal)])
        self.notes.append(f"{work} ({plural(len(project.runs), 'run')}): " + "; ".join(
            solutions_note(side) for side in (project, inrust)))

    def countdown(self, work: str, deals: Sequence[Job], repeat: int, goal: float) -> None:
        """solve_countdown on each deal, as the bot's Countdown reveals it, against Numbers."""
        project, numbers = Side("project"), self.reference("Numbers")
        paired(repeat, [(project, self.programs.project("countdown", deals)),
                        (numbers, self.programs.driven("Numbers", deals))])
        self.lines += compare(work, project, [(numbers, goal)])
        self.notes.append(f"{work} ({plural(len(project.runs), 'run')}): " + "; ".join(
            countdown_note(side, deals, project) for side in (project, numbers)))

    def no_exact(self, count: int, seed: int = 1906) -> list[Job]:
        """`count` TV deals with no exact answer; the project's worker picks them, untimed."""
        found: list[Job] = []
        while len(found) < count:
            seed += 1
            deals = tv_deals(20 * count, seed)
            reply, _ = ask([self.programs.python, str(WORKER), "countdown"], deals)
            found += [deal for deal, value in zip(deals, reply.results, strict=True)
                      if value != deal[0]]
        return found[:count]

    def bot_rounds(self, rounds: int, cold: int, goal_ms: float = 10.0,
                   cold_goal_ms: float = 20.0) -> None:
        """The bot's six-number round (deal with its rating, every solution): the median round
        in one process (warm), and the median first round of `cold` fresh processes."""
        project = Side("project")
        project.record(self.programs.project("bot", [(seed,) for seed in range(rounds)])())
        run = project.runs[0]
        median = statistics.median(run.job_seconds)
        self.lines.append(Line("bot: six-number round, warm", show_time(median),
                               goal=f"<= {goal_ms:g} ms", met=median * 1000 <= goal_ms))
        firsts = [self.programs.project("bot", [(10_000 + seed,)])().job_seconds[0]
                  for seed in range(cold)]
        first = statistics.median(firsts)
        self.lines.append(Line("bot: six-number round, cold", show_time(first),
                               goal=f"<= {cold_goal_ms:g} ms", met=first * 1000 <= cold_goal_ms))
        parts = {name: show_time(float(run.figures.get(f"{name}_median", "nan")))
                 for name in ("deal", "solve")}
        self.notes.append(f"bot rounds ({rounds} seeded rounds, one process): median "
                          f"{statistics.median(run.results):g} solutions, median deal with its "
                          f"ratings {parts['deal']}, median solve {parts['solve']}, slowest "
                          f"round {show_time(max(run.job_seconds))}; cold: the first round of "
                          f"{cold} fresh processes, slowest {show_time(max(firsts))}")

    def start_up(self, repeat: int) -> None:
        """The project's start: the worker given no job (interpreter, imports), beside a bare
        interpreter; the work rows leave it out."""
        worker = [self.programs.python, str(WORKER), "24"]
        bare = [self.programs.python, "-c", "pass"]
        runs = [run_process(worker, "") for _ in range(repeat)]
        figures = parse_reply(runs[0].stdout, 0).figures
        self.solver = f"{figures.get('solver', '?')}, compiled: {figures.get('compiled', '?')}"
        starts = [run.wall for run in runs]
        bares = [run_process(bare, "").wall for _ in range(repeat)]
        self.lines.append(Line("start-up: interpreter + imports",
                               show_time(statistics.median(starts))))
        self.notes.append(f"start-up ({repeat} runs): the worker with no job "
                          f"{show_time(statistics.median(starts))}, a bare interpreter "
                          f"{show_time(statistics.median(bares))}")

    def skipped(self, work: str, why: str) -> None:
        self.lines.append(Line(work, "", why))


def run(args: argparse.Namespace) -> Bench:
    bench = Bench(Programs(args))
    quick = args.quick
    repeat = args.repeat or (1 if quick else 5)
    bench.start_up(3 if quick else 10)
    bench.twenty_four("1820 hands of 1..13 -> 24", FOURS, repeat,
                      {"24GamePro": 1.0, "inrust": 3.0})
    bench.batch("  the same, solver batch", FOURS, repeat, 1.0)
    six = six_hands(3 if quick else 8)
    bench.twenty_four(f"six numbers, {len(six)} hands -> 24", six, repeat,
                      {"24GamePro": None, "inrust": 3.0})
    if quick:
        bench.skipped("1 2 3 4 5 6 7 -> 24", "skipped (--quick)")
    else:
        bench.twenty_four("1 2 3 4 5 6 7 -> 24", [SEVEN], args.repeat or 3, {"inrust": 2.0},
                          memory_goal=0.5)
    if args.eight:
        bench.twenty_four("1 2 3 4 5 6 7 8 -> 24", [EIGHT], 1, {"inrust": 2.0},
                          memory_goal=0.3)
    else:
        bench.skipped("1 2 3 4 5 6 7 8 -> 24", "not run (--eight)")
    deals = tv_deals(300 if quick else 3000, seed=7)
    bench.countdown(f"Countdown, {len(deals)} TV deals", deals, repeat, 0.5)
    misses = bench.no_exact(30 if quick else 300)
    bench.countdown(f"  {len(misses)} with no exact answer", misses, repeat, 1.0)
    bench.bot_rounds(5 if quick else 40, 3 if quick else 7)
    return bench


def main() -> None:
    if sys.argv[1:] == ["--batch-worker"]:
        batch_worker()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: one run each, fewer hands and deals, no seven")
    parser.add_argument("--eight", action="store_true",
                        help="also 1..8 -> 24, once (minutes, and GBs for inrust)")
    parser.add_argument("--repeat", type=int, help="paired runs per work (default 5, seven 3)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter that runs the project's worker (its solver)")
    for name, env in ENV_VARS.items():
        parser.add_argument(f"--{name.lower()}", metavar="PROGRAM",
                            help=f"the built {name} program (default: ${env})")
    args = parser.parse_args()
    bench = run(args)
    print("Project vs public native solvers, same run: medians of paired runs, "
          "ratio = project / reference")
    for name, path in bench.programs.paths.items():
        print(f"  {name}: {path or bench.programs.notes[name]}")
    print(f"  project: {args.python} {WORKER.relative_to(ROOT)}\n    solver: {bench.solver}")
    print(HEADER)
    print("\n".join(line.text() for line in bench.lines))
    print("\nWork done (counts differ by design where the rules of 'distinct' differ):")
    print("\n".join(f"- {note}" for note in bench.notes))


if __name__ == "__main__":
    main()
