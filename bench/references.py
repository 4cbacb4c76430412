"""How the benchmarks talk to solvers in other processes: the jobs protocol, and measured runs.

The protocol (the project's bench/project_worker.py and each reference's driver speak it):
stdin holds one job a line, integers separated by spaces ("GOAL N1 ... Nk" for the 24 game,
"TARGET N1 ... N6" for Countdown, "SEED" for a bot round). stdout holds one line a job,
"RESULT SECONDS" (an integer: solutions found, or the value reached; and that job's own time),
then trailer lines "NAME VALUE", of which "elapsed SECONDS" (all jobs, after start-up and after
reading the input) is required. Programs that cannot be driven so (24GamePro reads hands
interactively) are run as whole processes, with their own readers below. Stdlib only: tests of
the parsing run where only the solver is installed.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Job = Sequence[int]

# Where each reference's program is looked for, when no command-line option names it.
ENV_VARS = {"24GamePro": "BENCH_24GAMEPRO", "inrust": "BENCH_INRUST", "Numbers": "BENCH_NUMBERS"}


class ProtocolError(ValueError):
    """A reply that does not follow the protocol (a crashed or foreign program)."""


@dataclass(frozen=True)
class Reply:
    """What a program answered: one result and one time per job, and its trailer figures."""

    results: list[int]
    seconds: list[float]
    elapsed: float
    figures: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Run:
    """One whole process: its output, wall time from spawn to exit, and peak memory (bytes).

    A child's max RSS starts at its parent's peak (Linux carries the forked memory's high-water
    mark over exec), so a `max_rss` at or below `floor`, the bench's own peak at the spawn, only
    says "at most that"; above it, it is the child's own.
    """

    stdout: str
    wall: float
    max_rss: int
    floor: int

    @property
    def peak_known(self) -> bool:
        return self.max_rss > self.floor


def encode_jobs(jobs: Iterable[Job]) -> str:
    """The stdin of a protocol program: one job a line."""
    return "".join(" ".join(map(str, job)) + "\n" for job in jobs)


def parse_reply(text: str, jobs: int) -> Reply:
    """Read a protocol reply to `jobs` jobs; ProtocolError if it is not one."""
    results: list[int] = []
    seconds: list[float] = []
    figures: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split(None, 1)
        if not words:
            continue
        if len(words) != 2:
            raise ProtocolError(f"line {number}: expected a name and a value, got {line!r}")
        first, second = words[0], words[1].strip()
        if re.fullmatch(r"-?\d+", first):
            if figures:
                raise ProtocolError(f"line {number}: a result after the trailer")
            results.append(int(first))
            seconds.append(_seconds(second, number))
        else:
            figures[first] = second
    if len(results) != jobs:
        raise ProtocolError(f"{len(results)} results for {jobs} jobs")
    if "elapsed" not in figures:
        raise ProtocolError("no 'elapsed' line")
    return Reply(results, seconds, _seconds(figures.pop("elapsed"), 0), figures)


def _seconds(word: str, line: int) -> float:
    try:
        value = float(word)
    except ValueError:
        raise ProtocolError(f"line {line}: {word!r} is not a time in seconds") from None
    if not value >= 0:  # also rejects nan
        raise ProtocolError(f"line {line}: negative time {word}")
    return value


def run_process(command: Sequence[str], stdin: str, env: dict[str, str] | None = None) -> Run:
    """Run a command to its end with `stdin`, measuring its wall time and its own max RSS.

    os.wait4 reads the rusage of this one child: RUSAGE_CHILDREN would give the largest of all
    children so far, which hides a small run after a big one. Files, not pipes, carry the text,
    so no pipe fills while the clock runs.
    """
    with tempfile.TemporaryFile("w+") as given, tempfile.TemporaryFile("w+") as out, \
            tempfile.TemporaryFile("w+") as err:
        given.write(stdin)
        given.seek(0)
        floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        start = time.perf_counter()
        process = subprocess.Popen(list(command), stdin=given, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode:
            raise RuntimeError(f"{command[0]} exited with {process.returncode}: "
                               f"{err.read()[-2000:]}")
        return Run(out.read(), wall, usage.ru_maxrss * 1024, floor)  # ru_maxrss: KiB on Linux


def ask(command: Sequence[str], jobs: Sequence[Job],
        env: dict[str, str] | None = None) -> tuple[Reply, Run]:
    """Run a protocol program on the jobs: its reply and the measured process."""
    run = run_process(command, encode_jobs(jobs), env)
    return parse_reply(run.stdout, len(jobs)), run


# readalps/24GamePro: asks for the target, then whether to log, then reads hands "a,b,c" until
# "q", printing each hand's solutions numbered "1. ...", then " Used time(ms): N.".
GAMEPRO_MAX_NUMBERS = 6
_GAMEPRO_DONE = re.compile(r"Used time\(ms\): \d+\.")
_GAMEPRO_SOLUTION = re.compile(r"(?:^|:) (\d+)\. \S", re.MULTILINE)


def gamepro_input(goal: int, hands: Iterable[Sequence[int]]) -> str:
    """24GamePro's stdin for these hands: the target, "n" (no log file), the hands, "q"."""
    lines = [str(goal), "n", *(",".join(map(str, hand)) for hand in hands), "q"]
    return "\n".join(lines) + "\n"


def gamepro_counts(text: str, hands: int) -> list[int]:
    """How many solutions 24GamePro printed for each hand, in order."""
    parts = _GAMEPRO_DONE.split(text)
    if len(parts) != hands + 1:
        raise ProtocolError(f"24GamePro answered {len(parts) - 1} hands of {hands}")
    counts = []
    for part in parts[:-1]:
        numbers = [int(n) for n in _GAMEPRO_SOLUTION.findall(part)]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ProtocolError(f"24GamePro's solutions are not numbered 1..n: {numbers[:5]}")
        counts.append(len(numbers))
    return counts
