"""`python -m solver solve|batch|console`: the command-line contract other tools rely on."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from solver import native
from solver.__main__ import COMMANDS
from tests.conftest import ROOT


def run(*args: str, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env=None if env is None else {**os.environ, **env})


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
    result = run("fly")
    assert result.returncode == 2 and "unknown command 'fly'" in result.stderr
    assert "solve" in result.stderr  # with the list of commands


def test_numbers_alone_solve_the_hand():
    assert run("3", "8", "3", "8").stdout.splitlines() == ["8/(3-8/3)", "1 solution"]
    data = json.loads(run("--target", "10", "--json", "1", "2", "3", "4").stdout)
    assert data["target"] == 10 and data["count"] == len(data["solutions"]) > 0


def test_help_lists_every_command_with_one_line():
    for flag in ("--help", "-h"):
        result = run(flag)
        assert result.returncode == 0
        for name in COMMANDS:
            (line,) = [line for line in result.stdout.splitlines()
                       if re.match(rf"\s+{name}\s", line)]
            assert len(line.split()) > 2, line  # the name, then what it does


@pytest.mark.parametrize("command", ["solve", "batch"])
def test_every_flag_of_the_24_commands_has_help(command):
    result = run(command, "--help")
    options = result.stdout.split("options:")[1]
    flags = re.findall(r"^\s+(-[-\w]+)(?: [A-Z]+)?(?:, -[-\w]+)?\s*(.*)$", options, re.M)
    assert {flag for flag, _ in flags} >= {"-h", "--target", "--integer-only"}
    assert all(text.strip() for _, text in flags), flags
    if command == "solve":
        assert "NUMBER" in result.stdout.split("positional arguments:")[1]


def test_version_says_whether_the_native_core_answers():
    lines = run("--version").stdout.splitlines()
    assert re.fullmatch(r"twentyfour \d+\.\d+\.\d+", lines[0])
    assert lines[1] == f"native core: {native.STATUS}"
    pure = run("--version", env={"SOLVER_PURE": "1"}).stdout.splitlines()
    assert pure[1] == "native core: not in use (SOLVER_PURE=1)"
    missing = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['solver.native._core'] = None; "
         "from solver.__main__ import main; main(['--version']); "
         "from solver import solve; print(solve([3, 8, 3, 8]))"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={k: v for k, v in os.environ.items() if k != "SOLVER_PURE"})
    assert "native core: not in use (not built: " in missing.stdout
    assert missing.stdout.splitlines()[-1] == "['8/(3-8/3)']"


def test_pure_and_native_give_the_same_lines():
    args = ("solve", "--target", "10", "1", "2", "3", "4", "5")
    assert run(*args).stdout == run(*args, env={"SOLVER_PURE": "1"}).stdout
