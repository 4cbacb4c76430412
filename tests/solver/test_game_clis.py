"""`python -m solver countdown` and `python -m solver yahtzee`: formats and bad input."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_countdown_game_out_format():
    result = run("countdown", stdin="1 2 3 4 7 25 573\n")
    best, expression = result.stdout.splitlines()
    assert best == "573" and result.returncode == 0
    assert "25" in expression


def test_countdown_json_and_bad_lines_go_on():
    result = run("countdown", "--rules", "subset", "--json",
                 stdin="1 3 7 10 25 50 831\nfoo bar\n1 3 7 10 25 50 765\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[0]["best"] == 830 and rows[0]["nearest"] == 830
    assert rows[1]["numbers"] is None and "line 2" in rows[1]["error"]
    assert rows[2]["best"] == 765 and rows[2]["expression"]


def test_countdown_bad_line_without_json_exits_2():
    result = run("countdown", stdin="1 2 3 0 573\n")
    assert result.returncode == 2 and "line 1" in result.stderr


def test_countdown_odd_and_giant_numbers_are_named_not_crashed():
    giant = "9" * 5000
    result = run("countdown", "--json", stdin=f"1 2 3 \u00b2\n1 2 {giant}\n1 2 3 4 7 25 573\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "not a whole number" in rows[0]["error"]
    assert "too large" in rows[1]["error"] and giant[:50] not in result.stdout
    assert rows[2]["best"] == 573


def test_countdown_one_game_by_arguments():
    result = run("countdown", "--rules", "subset", "--target", "219",
                 "10", "16", "58", "80", "99", "99")
    assert result.stdout.splitlines()[0] == "219"


def test_yahtzee_sample(shared_dir):
    sample = (shared_dir / "data" / "yahtzee" / "sample.in").read_text()
    lines = run("yahtzee", stdin=sample).stdout.splitlines()
    assert [int(line.split()[-1]) for line in lines] == [90, 327]
    assert all(len(line.split()) == 15 for line in lines)


def test_yahtzee_bad_input():
    game = "1 2 3 4 5\n" * 12
    result = run("yahtzee", stdin=game + "1 2 3 4 9\n")
    assert result.returncode == 2 and "line 13" in result.stderr
    result = run("yahtzee", stdin=game)
    assert result.returncode == 2 and "cut short" in result.stderr
    result = run("yahtzee", stdin="1 2 3 4 5\n1 1 1\n")  # short, but the bad roll comes first
    assert result.returncode == 2 and "line 2: a roll is five dice" in result.stderr
    rows = run("yahtzee", "--json", stdin=game + "6 6 6 6 6\n" + "x\n").stdout.splitlines()
    assert json.loads(rows[0])["total"] > 0 and json.loads(rows[1])["numbers"] is None
