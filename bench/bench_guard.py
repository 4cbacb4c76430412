"""The check after a change to a round's path (`make bench-guard`): this tree's bot against the
commit before it, on the figures a change to the path moves — the burst (updates a second), the
CPU an update in it, and the p99 delivery -> reply at half the bot's own burst rate — and the
burst against the bare python-telegram-bot application (the old floor, 0.9x).

REF (`--against`; by default HEAD when bot/ or solver/ have uncommitted changes, else HEAD~1) is
checked out in a temporary git worktree, with a compiled solver core of its own (a run on the
pure-Python solver would not be a fair comparison), and its own bench/run_bot.py runs its own
bot. Three processes start once (the bare app, REF's bot, this tree's); each of --runs turns
bursts all three and runs each bot's steady load, REF and this tree taking turns at going
first, so a slow spell of the shared machine meets both. The figures are the medians of the
turns' own after/before ratios; the exit status is 1 when one lost more than --tolerance (5 %)
or the burst fell under --floor of the bare app's. A benchmark, not a test: loopback only,
every wait bounded, and the load average printed at both ends.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_bot_load import (  # noqa: E402
    BASELINE,
    OURS,
    PLAYERS,
    Run,
    burst,
    chats,
    postgres_databases,
    start,
    steady,
    stop,
    warm,
)

FLOOR = 0.9  # this tree's burst against the bare app's, at least
TOLERANCE = 0.05  # the most a figure may lose against REF
WATCHED = ("bot", "solver")  # uncommitted changes here are what the guard compares by default
TIMEOUT = 120.0  # seconds a burst or a steady run may take before it counts as lost

Results = dict[str, dict[str, float]]  # a bot's turn: {"burst": burst(...), "half": steady(...)}


@dataclass(frozen=True)
class Figure:
    """A figure the guard compares, how it is read from a bot's turn, and the words for it."""

    name: str
    unit: str
    digits: int
    higher_is_better: bool
    worse: str  # the word for a change that costs ("slower")
    better: str  # and for one that gains ("faster")
    read: Callable[[Results], float]


FIGURES = (
    Figure("burst", "updates/s", 1, True, "slower", "faster",
           lambda found: found["burst"]["rate"]),
    Figure("CPU an update", "ms", 2, False, "more", "less",
           lambda found: found["burst"]["cpu_ms"]),
    Figure("half-load p99", "ms", 1, False, "higher", "lower",
           lambda found: found["half"]["p99"] * 1000),
)


@dataclass(frozen=True)
class Verdict:
    """One check's plain line, and whether it failed (a figure lost more than the tolerance,
    or the burst fell under the floor)."""

    line: str
    failed: bool


def judge(figure: Figure, ratio: float, tolerance: float = TOLERANCE) -> Verdict:
    """The verdict on one figure from after/before (the median of the turns' ratios)."""
    change = ratio - 1.0
    loss = round(-change if figure.higher_is_better else change, 9)  # 0.95 is a loss of 5 %
    percent, limit = abs(change) * 100, f"{tolerance * 100:g} %"
    if loss > tolerance:
        return Verdict(f"{figure.name}: after LOST {percent:.1f} % against before "
                       f"(more than {limit})", True)
    if loss > 0:
        return Verdict(f"{figure.name}: after is {percent:.1f} % {figure.worse} than before "
                       f"(within {limit})", False)
    if loss < 0:
        return Verdict(f"{figure.name}: after is {percent:.1f} % {figure.better} than before",
                       False)
    return Verdict(f"{figure.name}: after is the same as before", False)


assert judge(FIGURES[0], 0.969).line == "burst: after is 3.1 % slower than before (within 5 %)"
assert judge(FIGURES[1], 1.072).line == ("CPU an update: after LOST 7.2 % against before "
                                         "(more than 5 %)")


def disagreement(figure: Figure, each: list[float], tolerance: float = TOLERANCE) -> str | None:
    """A note when the turns' ratios of a figure lie past the tolerance on both sides of 1: the
    machine's noise is then larger than what is judged, and the verdict needs another run."""
    low, high = min(each), max(each)
    if low >= 1 - tolerance or high <= 1 + tolerance:
        return None
    return (f"note: {figure.name}'s turns disagree ({low:.2f} to {high:.2f} after/before): "
            f"the noise is larger than {tolerance * 100:g} % here; run again (more --runs, a "
            "quieter machine) before reading its verdict")


def judge_floor(ratio: float, floor: float = FLOOR) -> Verdict:
    """The verdict on this tree's burst against the bare app's."""
    passed = ratio >= floor
    return Verdict(f"burst against the bare PTB app: {ratio:.2f}x, floor {floor:.2f}x: "
                   f"{'ok' if passed else 'TOO SLOW'}", not passed)


def git(repo: Path, *arguments: str) -> str:
    """A git command's output in `repo`; its error message ends the guard."""
    done = subprocess.run(["git", "-C", str(repo), *arguments], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(arguments)}: {done.stderr.strip()}")
    return done.stdout


def has_changes(repo: Path, paths: tuple[str, ...] = WATCHED) -> bool:
    """Whether the working tree holds uncommitted changes (new files too) under `paths`."""
    return bool(git(repo, "status", "--porcelain", "--", *paths).strip())


def default_ref(changed: bool) -> tuple[str, str]:
    """What to compare against, and why: the uncommitted change against HEAD, or the last
    commit against the one before it."""
    if changed:
        return "HEAD", ("the working tree has uncommitted changes to bot/ or solver/, so they "
                        "are compared against HEAD")
    return "HEAD~1", ("bot/ and solver/ are as committed, so HEAD is compared against the "
                      "commit before it (HEAD~1)")


@contextmanager
def worktree(repo: Path, ref: str) -> Iterator[Path]:
    """REF checked out (detached) in a temporary folder, and removed when the block ends, by an
    error or Ctrl-C too: nothing of it is left in the repository's list of worktrees."""
    folder = Path(tempfile.mkdtemp(prefix="bench-guard-")).resolve()
    tree = folder / "tree"
    try:
        git(repo, "worktree", "add", "--quiet", "--detach", str(tree), ref)
        yield tree
    finally:
        removed = subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force",
                                  str(tree)], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
        if removed.returncode != 0:  # added only in part: its entry, if any, points nowhere
            subprocess.run(["git", "-C", str(repo), "worktree", "prune"], capture_output=True)


def native_sources(root: Path) -> dict[str, bytes]:
    """What the compiled core is built from in a checkout: setup.py and solver/native's C."""
    files = [root / "setup.py", *sorted((root / "solver" / "native").glob("*.[ch]"))]
    return {str(path.relative_to(root)): path.read_bytes() for path in files if path.is_file()}


def built_core(root: Path) -> list[Path]:
    """The compiled core's extension files in a checkout, for this interpreter."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return sorted((root / "solver" / "native").glob(f"*{suffix}"))


def give_core(tree: Path, root: Path = ROOT) -> str:
    """Put a compiled core into REF's worktree: this tree's files when REF builds it from the
    same sources, else one built from REF's (build_core). Says which."""
    built = built_core(root)
    if built and native_sources(tree) == native_sources(root):
        for path in built:
            shutil.copy2(path, tree / "solver" / "native" / path.name)
        return (f"the compiled core copied from this tree ({len(built)} files): REF's setup.py "
                "and solver/native are the same")
    output = build_core(tree)
    if not any(path.name.startswith("_core.") for path in built_core(tree)):
        raise SystemExit("REF's compiled core could not be built (`python setup.py build_ext "
                         f"--inplace` of its setup.py and solver/native):\n{output[-3000:]}")
    why = "they differ from this tree's" if built else "this tree has no built core to copy"
    return f"the compiled core built from REF's setup.py and solver/native ({why})"


def build_core(tree: Path) -> str:
    """Build REF's extensions with this Python from its setup.py and solver/native, copied to
    a scratch folder, and put the files built into the worktree; the build's output. Apart
    from REF's pyproject.toml on purpose: it holds the package's metadata only, and asks for a
    newer setuptools (pip's isolated build brings it) than the venv may have, whose reading of
    it then fails before anything is compiled."""
    with tempfile.TemporaryDirectory(prefix="bench-guard-core-") as scratch:
        folder = Path(scratch)
        shutil.copy2(tree / "setup.py", folder / "setup.py")
        shutil.copytree(tree / "solver" / "native", folder / "solver" / "native",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                              cwd=folder, capture_output=True, text=True)
        for path in built_core(folder):
            shutil.copy2(path, tree / "solver" / "native" / path.name)
    return done.stdout + done.stderr


PROBE = """import json, bot, solver.native as native
print(json.dumps({"bot": bot.__file__, "core": getattr(native.CORE, "__file__", None),
                  "status": native.STATUS}))"""


def check_imports(root: Path) -> None:
    """That a process started as the guard starts a bot (cwd and PYTHONPATH `root`) imports
    `root`'s bot and a compiled core of `root`'s: else the comparison would be of other code."""
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=env, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(f"the import probe in {root} failed:\n{done.stderr[-1500:]}")
    found = json.loads(done.stdout)
    if not Path(found["bot"]).resolve().is_relative_to(root):
        raise SystemExit(f"a bot started in {root} would import {found['bot']}")
    if found["core"] is None or not Path(found["core"]).resolve().is_relative_to(root):
        raise SystemExit(f"a bot started in {root} would not use its compiled core: "
                         f"{found['core']}, {found['status']}")


def check_mapped_core(run: Run, root: Path) -> None:
    """That the running bot process has `root`'s compiled core loaded (its memory map)."""
    maps = Path(f"/proc/{run.process.pid}/maps").read_text().splitlines()
    cores = {line.split(maxsplit=5)[5].removesuffix(" (deleted)") for line in maps
             if "/solver/native/_core" in line}
    if not cores or any(not Path(core).is_relative_to(root) for core in cores):
        raise SystemExit(f"the bot from {root} runs with the compiled core(s) {sorted(cores)}")


@dataclass(frozen=True)
class Turn:
    """One turn of the guard: each bot's burst and half-load run, and the bare app's burst."""

    bare: dict[str, float]
    before: Results
    after: Results
    before_first: bool


@asynccontextmanager
async def running(folder: Path, workers: int, program: list[str], root: Path = ROOT,
                  **env: str) -> AsyncIterator[Run]:
    """A bot (or the bare app) up on an emulator of its own, warmed, and stopped after."""
    folder.mkdir()
    run = await start(False, workers, folder, program, root=root, **env)
    try:
        await warm(run)
        yield run
    finally:
        await stop(run)


@asynccontextmanager
async def databases(postgres: bool) -> AsyncIterator[dict[str, dict[str, str]]]:
    """Each bot's database settings: SQLite in its own folder, or PostgreSQL's, one apiece."""
    if not postgres:
        yield {"before": {}, "after": {}}
        return
    async with postgres_databases(("before", "after")) as found:
        yield found


async def take_turn(number: int, bare: Run, bots: dict[str, Run], chats_count: int) -> Turn:
    """The bare app's burst, then each bot's, then each bot's steady load at half its own burst
    rate (new chats); REF goes first in the first, third, ... turns, this tree in the others."""
    ids = chats(100 + number * 10_000, chats_count)
    order = ["before", "after"] if number % 2 == 0 else ["after", "before"]
    bare_burst = await burst(bare, ids, TIMEOUT)
    bursts = {side: await burst(bots[side], ids, TIMEOUT) for side in order}
    steady_ids = chats(5_100 + number * 10_000, chats_count)
    halves = {side: await steady(bots[side], steady_ids, bursts[side]["rate"] / 2, TIMEOUT)
              for side in order}
    if not bare_burst["complete"] or not all(found["complete"] for found in
                                             [*bursts.values(), *halves.values()]):
        raise SystemExit(f"turn {number + 1}: a reply did not arrive")
    return Turn(bare_burst, {"burst": bursts["before"], "half": halves["before"]},
                {"burst": bursts["after"], "half": halves["after"]}, number % 2 == 0)


async def measure(tree: Path, chats_count: int, runs: int, workers: int,
                  postgres: bool) -> list[Turn]:
    """The three processes started once, then `runs` turns."""
    ref_bot = [str(tree / "bench" / "run_bot.py")]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        async with databases(postgres) as settings, AsyncExitStack() as stack:
            bare = await stack.enter_async_context(running(folder / "bare", workers, BASELINE))
            bots = {"before": await stack.enter_async_context(
                        running(folder / "before", workers, ref_bot, tree, **settings["before"])),
                    "after": await stack.enter_async_context(
                        running(folder / "after", workers, OURS, ROOT, **settings["after"]))}
            check_mapped_core(bots["before"], tree)
            check_mapped_core(bots["after"], ROOT)
            return [await take_turn(number, bare, bots, chats_count) for number in range(runs)]


def ratios(turns: list[Turn], figure: Figure) -> list[float]:
    """Each turn's after/before of a figure."""
    return [figure.read(turn.after) / figure.read(turn.before) for turn in turns]


def bare_ratios(turns: list[Turn], side: str) -> list[float]:
    """Each turn's burst of a bot ("before" or "after") against the bare app's."""
    return [getattr(turn, side)["burst"]["rate"] / turn.bare["rate"] for turn in turns]


def print_table(turns: list[Turn], chats_count: int) -> None:
    """The medians of before and after, the median of the turns' ratios, and each ratio."""
    firsts = ", ".join(str(n + 1) for n, turn in enumerate(turns) if turn.before_first)
    print(f"burst of {chats_count} chats x (deal + {PLAYERS} answers), then {chats_count} new "
          f"chats at half each bot's own burst rate; {len(turns)} turns, before first in turns "
          f"{firsts or '-'}")
    print(f"{'figure':<28}{'before':>10}{'after':>10}{'after/before':>14}   turns' ratios")
    for figure in FIGURES:
        before = statistics.median(figure.read(turn.before) for turn in turns)
        after = statistics.median(figure.read(turn.after) for turn in turns)
        each = ratios(turns, figure)
        print(f"{figure.name + ' (' + figure.unit + ')':<28}{before:>10.{figure.digits}f}"
              f"{after:>10.{figure.digits}f}{statistics.median(each):>14.3f}   "
              + " ".join(f"{r:.3f}" for r in each))
    offered = [statistics.median(getattr(turn, side)["half"]["offered"] for turn in turns)
               for side in ("before", "after")]
    print(f"{'half load offered (upd/s)':<28}{offered[0]:>10.1f}{offered[1]:>10.1f}")
    bare = statistics.median(turn.bare["rate"] for turn in turns)
    print(f"{'bare PTB app burst (upd/s)':<28}{bare:>10.1f}")
    for side in ("before", "after"):
        each = bare_ratios(turns, side)
        print(f"{side + ' / bare PTB app':<28}{statistics.median(each):>10.2f}x   "
              + " ".join(f"{r:.2f}" for r in each))


def load_average(when: str) -> None:
    print(f"load average {when}: " + " ".join(f"{x:.2f}" for x in os.getloadavg())
          + f" ({os.cpu_count()} cores)")


def interrupted(*_: object) -> None:
    raise KeyboardInterrupt


def main() -> int:
    parser = argparse.ArgumentParser(description="this tree's bot against a commit's: the "
                                     "burst, CPU an update and half-load p99, and the floor")
    parser.add_argument("--against", metavar="REF",
                        help="the commit to compare with (default: HEAD when bot/ or solver/ "
                             "have uncommitted changes, else HEAD~1)")
    parser.add_argument("--runs", type=int, default=5, help="turns (the median of each)")
    parser.add_argument("--chats", type=int, default=100,
                        help="chats in each burst and each steady run")
    parser.add_argument("--workers", type=int, default=2, help="each bot's solver workers")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE,
                        help="the largest loss against REF that passes (0.05: 5 %%)")
    parser.add_argument("--floor", type=float, default=FLOOR,
                        help="the lowest burst against the bare app's that passes")
    parser.add_argument("--postgres", action="store_true",
                        help="both bots on a PostgreSQL server of their own (a database each)")
    args = parser.parse_args()
    if not 1 <= args.chats <= 4_000 or args.runs < 1:
        parser.error("--chats 1..4000 (the turns' chats must not meet) and --runs at least 1")
    changed = has_changes(ROOT)
    ref, why = (args.against, "asked for") if args.against else default_ref(changed)
    commit = git(ROOT, "log", "-1", "--format=%h %<(60,trunc)%s", f"{ref}^{{commit}}", "--")
    print(f"before: {ref} = {commit.strip()} ({why})")
    print("after: this working tree, " + ("with" if changed else "without")
          + " uncommitted changes to bot/ or solver/")
    load_average("at the start")
    signal.signal(signal.SIGTERM, interrupted)  # a kill removes the worktree as Ctrl-C does
    with worktree(ROOT, ref) as tree:
        print(give_core(tree))
        check_imports(tree)
        check_imports(ROOT)
        print(f"REF's bot runs from {tree} (its bot package and compiled core, checked)")
        turns = asyncio.run(measure(tree, args.chats, args.runs, args.workers, args.postgres))
    print_table(turns, args.chats)
    load_average("at the end")
    verdicts = [judge(figure, statistics.median(ratios(turns, figure)), args.tolerance)
                for figure in FIGURES]
    verdicts.append(judge_floor(statistics.median(bare_ratios(turns, "after")), args.floor))
    for verdict in verdicts:
        print(verdict.line)
    for figure in FIGURES:
        note = disagreement(figure, ratios(turns, figure), args.tolerance)
        if note:
            print(note)
    failed = [verdict for verdict in verdicts if verdict.failed]
    print("bench-guard: " + (f"FAILED ({len(failed)} of {len(verdicts)} checks)" if failed
                             else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the bots are stopped and REF's worktree removed by now
        print("bench-guard: interrupted", file=sys.stderr)
        sys.exit(130)
