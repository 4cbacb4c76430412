"""The demo in a group under Bot API 10.3 (issue 59): what one person asks is printed as seen by
that person alone, solutions as mathematics; a round's deal and result are public; with the
group's answers unseen, Bob's wrong /a is seen by Bob only."""

from __future__ import annotations

from pathlib import Path

from tests.demo.test_demo import run

SCRIPT = """/help
/stats
/solve 3 8 3 8
/settings
/press /a unseen → on
/play
/user Bob
/a 1+1+1+1
/user Ann
/reveal
"""


def test_the_demo_marks_what_one_person_alone_sees(tmp_path: Path):
    done = run(tmp_path, SCRIPT, "--demo")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()

    def answer_to(said: str) -> str:
        return lines[lines.index(said) + 1]

    for command in ("Ann: /help", "Ann: /stats", "Ann: /solve 3 8 3 8", "Ann: /settings"):
        assert answer_to(command).startswith("Twenty-Four to Ann (only Ann sees this): "), command
    assert "\n    8÷(3−8÷3) = 24\n" in done.stdout  # a mathematical block, as written
    assert "Twenty-Four (edited, only Ann sees this): " in done.stdout  # the panel's step
    deal = answer_to("Ann: /play")
    assert deal.startswith("Twenty-Four: ") and "only" not in deal  # the group's
    assert answer_to("Bob: /a 1+1+1+1").startswith("Twenty-Four to Bob (only Bob sees this): ")
    result = answer_to("Ann: /reveal")
    assert result.startswith("Twenty-Four: ") and "only" not in result
