"""The load and fairness benchmarks of issue 18, run small: they must run to the end and lose
nothing. Their figures are not judged here (speed lives in bench/, never in a test); what is
checked is what a broken bot would change whatever the machine: every deal and reply arrived."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow


def bench(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, f"bench/{script}", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_fairness_benchmark_answers_every_deal_in_every_phase():
    out = bench("bench_fairness.py", "--seconds", "2", "--rate", "5")
    rows = {line.split()[0]: line for line in out.splitlines()
            if line.startswith(("idle", "rare deals", "one user's", "two trolls"))}
    assert set(rows) == {"idle", "rare", "one", "two"}, out
    for line in rows.values():
        answered, sent = map(int, re.search(r"(\d+)/(\d+)", line).groups())
        assert answered == sent > 0, line


def test_the_load_benchmark_measures_both_bots_and_loses_no_reply():
    out = bench("bench_bot_load.py", "--chats", "10", "--limited-chats", "5",
                "--group-burst", "5", "--rate", "20")
    assert re.search(r"a\. burst: updates handled per second\s+[\d.]+\s+[\d.]+\s+[\d.]+", out), out
    assert len(re.findall(r"every reply arrived\s+yes", out)) == 2, out
    # the half load's replies by kind: each chat's deal, and each round's result
    assert re.search(r"a deal \(/play\)\s+10 x", out), out
    assert re.search(r"a result \(a reply\)\s+10 x", out), out
    assert re.search(r"replies / expected\s+15/15\s+none lost", out), out
