"""`batch`'s lean loops write what json.dumps of `_batch_line`'s objects wrote, byte for byte.

Before the lean loop, every line went through `_batch_line` and json.dumps (the path a line with
a time limit, or one the loop does not read itself, still takes); the 1,820 hands of 1..13 gave
an output whose MD5 was ba61e06bad6dca262fd51a7452df3ce5 on the day the loop came (the solver's
answers, not the loop, decide that sum, so it is not pinned here). Both paths are compared on
those hands, on odd lines, on other targets and with --integer-only, in process (the compiled
loop solver/native/batch.c, the Python one, and both with the pure solver) and through
`python -m solver batch`.
"""

from __future__ import annotations

import io
import itertools
import json
from argparse import Namespace
from contextlib import redirect_stdout

import pytest

from solver import cli, native
from solver.normal import canonical_key
from tests.solver.test_solver_cli import run

HANDS = "".join(" ".join(map(str, hand)) + "\n"
                for hand in itertools.combinations_with_replacement(range(1, 14), 4))
ODD = ("1 2 3 4\n\n  \n1,2,3,4\n+1 2 3 4\n007 8 3 3\n1 2 3 4 5 6 7 8 9\n2000000 1 1 1\n x y\n"
       "1000000 1 1 1\n1 1 1 1\n\u0663 8 3 8\n\u00b2 3 4 5\n3 8 3 8 \t\n0 0 0 0\n1\n24\n"
       "1 1 1 1 1 1 1 1\n" + "9" * 101 + " 1\n12345678 1\n-1 2 3 4\n3\u20038 3 8\n")


def reference(text: str, target: int = 24, integer_only: bool = False) -> str:
    """The output as it was written before the lean loop: json.dumps of each line's object."""
    return "".join(json.dumps(cli._batch_line(line, target, integer_only)) + "\n"
                   for line in io.StringIO(text) if line.strip())


def lean(text: str, target: int = 24, integer_only: bool = False) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        args = Namespace(target=target, integer_only=integer_only, timeout=None)
        assert cli._batch_command(args, io.StringIO(text)) == 0
    return out.getvalue()


@pytest.fixture(params=["compiled loop", "python loop"])
def loop(request, monkeypatch):
    """Each lean loop in turn: solver/native/batch.c, then the Python one."""
    if request.param == "python loop":
        monkeypatch.setattr(cli, "BATCH", None)
    elif cli.BATCH is None:
        pytest.fail("solver/native/batch.c is not built (pip install -e . builds it)")
    return request.param


def test_every_four_card_hand_is_written_as_before(loop):
    assert lean(HANDS) == reference(HANDS)


@pytest.mark.parametrize(("target", "integer_only"), [(24, False), (24, True), (10, False),
                                                      (0, False), (-24, False), (1, True),
                                                      (10**30, False)])
def test_odd_lines_and_other_targets_are_written_as_before(loop, target, integer_only):
    assert lean(ODD, target, integer_only) == reference(ODD, target, integer_only)


def test_a_hand_past_64_bits_is_written_as_before(loop):
    """The core overflows midway on this hand (its values pass 64 bits): batch.c hands the line
    to the Python path, whose solve goes pure, and the bytes are the same."""
    hand = (1, 999_961, 999_979, 999_983, 1_000_000)
    if native.CORE is not None:
        with pytest.raises(OverflowError):
            native.CORE.solve(hand, 1, False, canonical_key)
    lines = "1 2 3 4\n" + " ".join(map(str, reversed(hand))) + "\n3 3 8 8\n"
    assert lean(lines, 1) == reference(lines, 1)
    assert json.loads(lean(lines, 1).splitlines()[1])["count"] > 0


def test_the_pure_solver_is_written_as_before(loop, monkeypatch):
    """Without the compiled core the loops ask the pure solver; hands of 1..6, a few."""
    monkeypatch.setattr(native, "CORE", None)
    hands = HANDS[:300] + ODD
    assert lean(hands) == reference(hands)


def test_the_command_writes_the_same_bytes():
    hands = HANDS[:2000] + ODD
    result = run("batch", stdin=hands)
    assert result.returncode == 0
    assert result.stdout == reference(hands)
