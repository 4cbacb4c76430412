"""The benchmarks' protocol with solvers in other processes (bench/references.py), and the
project's side of it (bench/project_worker.py). No reference program is needed: the programs
here are Python one-liners and the project's own worker."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.references import (
    ProtocolError,
    ask,
    encode_jobs,
    gamepro_counts,
    gamepro_input,
    parse_reply,
    run_process,
)
from tests.conftest import ROOT

WORKER = str(ROOT / "bench" / "project_worker.py")


def test_a_reply_gives_results_times_and_trailer():
    reply = parse_reply("3 0.5\n0 0.25\n\nelapsed 0.8\naborted 2\nsolver /a b/c.py\n", 2)
    assert reply.results == [3, 0]
    assert reply.seconds == [0.5, 0.25]
    assert reply.elapsed == 0.8
    assert reply.figures == {"aborted": "2", "solver": "/a b/c.py"}


@pytest.mark.parametrize("text, why", [
    ("3 0.5\nelapsed 1\n", "results for 2 jobs"),  # one result missing
    ("3 0.5\n4 0.1\n", "no 'elapsed'"),
    ("3 0.5\nelapsed 1\n4 0.1\n", "after the trailer"),
    ("3 fast\n4 0.1\nelapsed 1\n", "not a time"),
    ("3 -0.5\n4 0.1\nelapsed 1\n", "negative"),
    ("3\n4 0.1\nelapsed 1\n", "a name and a value"),
    ("3 0.5\n4 0.1\nelapsed nan\n", "negative"),
])
def test_a_broken_reply_is_refused(text, why):
    with pytest.raises(ProtocolError, match=why):
        parse_reply(text, 2)


def test_jobs_are_lines_of_integers():
    assert encode_jobs([(24, 1, 2, 3, 4), (7,)]) == "24 1 2 3 4\n7\n"
    assert encode_jobs([]) == ""


TRANSCRIPT = (
    " 24 game pro version 1.0 by Read Alps\n\n"
    " Please input the target non-negative integer to make [default 24]:"
    " Do you want to log details in workflow.log? [y/n, default n]:\n"
    " Please input several (at most 6) non-negative integers separated by comma to make 24 or q"
    " to quit: 1. (1+3)*(2+4)\n 2. 1*2*3*4\n 3. 4*(1+2+3)\n Used time(ms): 0.\n\n"
    " Please input several (at most 6) non-negative integers separated by comma to make 24 or q"
    " to quit: From 1,1,1,1, there is no solution to make 24 by using +-*/ and ().\n"
    " Used time(ms): 12.\n\n"
    " Please input several (at most 6) non-negative integers separated by comma to make 24 or q"
    " to quit: 1. 8/(3-8/3)\n Used time(ms): 1.\n\n"
    " Please input several (at most 6) non-negative integers separated by comma to make 24 or q"
    " to quit: \n"
)


def test_24gamepro_transcript_gives_a_count_per_hand():
    assert gamepro_counts(TRANSCRIPT, 3) == [3, 0, 1]
    with pytest.raises(ProtocolError, match="2 hands of 3"):
        gamepro_counts(TRANSCRIPT.replace(" Used time(ms): 1.", ""), 3)


def test_24gamepro_input_answers_its_questions_then_quits():
    assert gamepro_input(24, [(1, 2, 3, 4), (3, 3, 8, 8)]) == "24\nn\n1,2,3,4\n3,3,8,8\nq\n"


CHILD_PEAKS = """
import resource, sys
from bench.references import run_process
size = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 + 64 * 2**20
grow = f"b = bytearray({size}); b[::4096] = b'x' * len(b[::4096]); print('ok')"
run = run_process([sys.executable, "-c", grow], "")
assert run.stdout == "ok\\n"
assert run.peak_known
assert run.max_rss >= size
small = run_process([sys.executable, "-c", "pass"], "")
assert not small.peak_known
assert small.max_rss < run.max_rss
print("checked")
"""


def test_a_child_peak_above_the_floor_is_its_own():
    """A child starts at this process's peak (the floor): only what rises above it is known.
    Checked in a process of its own: the floor counts every child ever waited for, and other
    tests' children (a browser, the bot) end at times of their own."""
    done = subprocess.run([sys.executable, "-c", CHILD_PEAKS], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.stdout.strip() == "checked", done.stderr


def test_a_failing_child_is_reported():
    with pytest.raises(RuntimeError, match="exited with 3"):
        run_process([sys.executable, "-c", "import sys; sys.exit(3)"], "")


def test_the_project_worker_speaks_the_protocol():
    reply, run = ask([sys.executable, WORKER, "24"], [(24, 1, 2, 3, 4), (24, 1, 1, 1, 1),
                                                      (10, 2, 5)])
    assert reply.results == [3, 0, 1]
    assert reply.elapsed <= run.wall
    assert reply.figures["solver"].endswith("__init__.py")
    assert reply.figures["compiled"]  # "none", or the extension modules that did the work
    reply, _ = ask([sys.executable, WORKER, "countdown"], [(952, 25, 50, 75, 100, 3, 6),
                                                           (999, 1, 1, 2, 2, 3, 3)])
    assert reply.results == [952, 81]  # 999 is out of reach: (1+2)*(1+2)*3*3 is the most


def test_the_batch_worker_speaks_the_protocol():
    """bench_references' batch row: `python -m solver batch`'s loop, one count per hand."""
    bench = str(ROOT / "bench" / "bench_references.py")
    jobs = [(24, 1, 2, 3, 4), (24, 1, 1, 1, 1), (24, 3, 3, 8, 8)]
    reply, run = ask([sys.executable, bench, "--batch-worker"], jobs)
    assert reply.results == [3, 0, 1]
    assert reply.elapsed <= run.wall
    with pytest.raises(RuntimeError, match="one goal"):
        ask([sys.executable, bench, "--batch-worker"], [(24, 1, 2, 3, 4), (10, 2, 5)])
