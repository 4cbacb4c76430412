"""`python -m solver solve|batch|console`: the command-line contract other tools rely on."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_solve_prints_solutions_then_count():
    result = run("solve", "3", "8", "3", "8")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["8/(3-8/3)", "1 solution"]


def test_solve_no_solution_and_json():
    assert run("solve", "1", "1", "1", "1").stdout.strip() == "No solution"
    data = json.loads(run("solve", "--json", "--target", "10", "1", "2", "3", "4").stdout)
    assert data["numbers"] == [1, 2, 3, 4] and data["target"] == 10
    assert data["count"] == len(data["solutions"]) > 0


def test_solve_integer_only_and_bad_input():
    assert run("solve", "--integer-only", "3", "3", "8", "8").stdout.strip() == "No solution"
    result = run("solve", *["1"] * 9)
    assert result.returncode == 2 and "between 1 and 8" in result.stderr


def test_batch_one_object_per_line_and_goes_on_after_errors():
    result = run("batch", "--target", "24", stdin="1 2 3 4\nfoo\n3 8 3 8\n1 2 3 4 5 6 7 8 9\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["numbers"] for r in rows] == [[1, 2, 3, 4], None, [3, 8, 3, 8], None]
    assert rows[0]["count"] == 3 and rows[0]["target"] == 24
    assert rows[2]["solutions"] == ["8/(3-8/3)"]
    assert "error" in rows[1] and "error" in rows[3]


def test_console_reads_until_q():
    result = run(stdin="\n3 8 3 8\nabc\n1 1 1 1\nq\n")
    assert result.returncode == 0
    assert "8/(3-8/3) = 24" in result.stdout
    assert "'abc' is not a whole number" in result.stdout
    assert "No solution" in result.stdout


def test_console_other_target_and_end_of_input():
    result = run(stdin="10\n1 2 3 4\n")
    assert result.returncode == 0 and "= 10" in result.stdout


def test_unknown_command():
    assert run("fly").returncode == 2
