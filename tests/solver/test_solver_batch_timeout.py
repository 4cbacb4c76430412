"""`python -m solver batch --timeout`: a hand that takes too long gets a typed error line and the
batch goes on; the time limit kills the work; a giant number is "too large" and never echoed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from solver import SolverError, TimeLimitError
from solver.cli_numbers import MAX_DIGITS, read_whole, read_wholes
from solver.timed import TimedRunner
from tests.conftest import ROOT

GIANT = "9" * 5000


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_a_slow_hand_times_out_and_the_batch_goes_on():
    # 1..8 takes minutes; the other hands take milliseconds, far inside the limit
    result = run("batch", "--timeout", "4",
                 stdin=f"1 2 3 4\n1 2 3 4 5 6 7 8\n3 8 3 8\nfoo\n1 2 {GIANT}\n3 3 8 8\n")
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["numbers"] for r in rows] == [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6, 7, 8],
                                            [3, 8, 3, 8], None, None, [3, 3, 8, 8]]
    assert rows[0]["count"] == 3 and rows[2]["solutions"] == ["8/(3-8/3)"]
    assert rows[1] == {"numbers": [1, 2, 3, 4, 5, 6, 7, 8], "target": 24,
                       "error": "no answer within 4 s", "code": "timeout"}
    assert "error" in rows[3] and "'foo'" in rows[3]["error"]
    assert rows[4]["code"] == "too_large" and "too large" in rows[4]["error"]
    assert rows[5]["solutions"] == ["8/(3-8/3)"]  # the killed worker was replaced
    assert "9999" not in result.stdout + result.stderr


def test_batch_without_timeout_keeps_its_contract():
    result = run("batch", stdin=f"3 8 3 8\n1 2 {GIANT}\n")
    good, giant = (json.loads(line) for line in result.stdout.splitlines())
    assert good == {"numbers": [3, 8, 3, 8], "target": 24, "count": 1,
                    "solutions": ["8/(3-8/3)"]}
    assert giant["numbers"] is None and "too large" in giant["error"]
    assert "9999" not in result.stdout


@pytest.mark.parametrize("seconds", ["0", "-1", "soon", "inf"])
def test_timeout_must_be_a_positive_number(seconds):
    result = run("batch", "--timeout", seconds)
    assert result.returncode == 2 and "--timeout" in result.stderr


@pytest.mark.parametrize("args", [
    ("solve", "1", "2", "3", GIANT), ("solve", "--target", GIANT, "1"),
    ("rate", "1", "2", "3", GIANT), ("batch", "--target", GIANT)])
def test_giant_arguments_are_too_large_and_not_echoed(args):
    result = run(*args)
    assert result.returncode == 2
    assert "too large" in result.stderr and "9999" not in result.stderr + result.stdout


def test_rate_lines_with_giant_or_styled_numbers():
    result = run("rate", stdin=f"1 2 3 {GIANT}\n1 2 3 ²\n3 8 3 8\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert "too large" in rows[0]["error"] and "9999" not in result.stdout
    assert rows[1]["numbers"] is None and "'²' is not a whole number" in rows[1]["error"]
    assert rows[2]["level"] == "hard"


def test_reading_whole_numbers():
    assert read_wholes(" 3, 8 -3 +8 ") == [3, 8, -3, 8]
    assert read_whole("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    for word in ("²", "٣", "1_000", "3.0", "0x10", "１"):
        with pytest.raises(SolverError, match="is not a whole number"):
            read_whole(word)
    with pytest.raises(SolverError) as caught:
        read_whole("9" * (MAX_DIGITS + 1))
    assert caught.value.code == "too_large" and "999" not in str(caught.value)
    with pytest.raises(SolverError) as caught:
        read_whole("x" * 5000)
    assert len(str(caught.value)) < 60  # a long word is cut short


# --- the runner itself: the time limit really stops the work ------------------------------------

def _spin() -> None:
    while True:
        pass


def _pid() -> int:
    return os.getpid()


def _refuse(text: str) -> None:
    raise SolverError(text)


def test_the_runner_kills_a_call_past_its_limit_and_starts_afresh():
    with TimedRunner(3) as runner:  # generous for the quick calls, on a loaded machine too
        first = runner.run(_pid)
        assert first != os.getpid() and runner.run(_pid) == first  # one child, reused
        with pytest.raises(TimeLimitError) as caught:
            runner.run(_spin)
        assert caught.value.code == "timeout"
        with pytest.raises(ProcessLookupError):
            os.kill(first, 0)  # the spinning child is gone, not left running
        second = runner.run(_pid)
        assert second != first
        with pytest.raises(SolverError, match="no such hand"):
            runner.run(_refuse, "no such hand")
        assert runner.run(_pid) == second  # an error does not cost the child
    with pytest.raises(ProcessLookupError):
        os.kill(second, 0)  # closing the runner ends its child
