"""Every command parser bounds a number's length before `int()` (issue 18): Python refuses to read
4,301 digits and more, and such an argument must get a short usage reply, never an error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.play.games.countdown.asking import parse_countdown, read_countdown
from bot.play.games.twentyfour.asking import parse_play, read_play
from bot.telegram.grammar import (
    UsageError,
    parse_match,
    parse_solve,
    parse_top,
    read_arguments,
    read_match,
    read_solve,
    read_top,
)
from tests.bot.conftest import Harness

GROUP = -3201
ANN = {"id": 61, "is_bot": False, "first_name": "Ann", "language_code": "en"}
HUGE = "9" * 4301  # int() raises ValueError on this many digits


def test_match_bounds_the_number_before_reading_it():
    assert parse_match(HUGE) is None
    with pytest.raises(UsageError) as refused:
        read_match(HUGE)
    assert refused.value.code == "number_range"
    assert len(str(refused.value.params["number"])) <= 21  # quoted clipped, with its "…"
    with pytest.raises(UsageError) as refused:
        read_match("50")
    assert refused.value.code == "number_range"
    assert read_match("007") == 7 and read_match("20") == 20 and read_match("") == 10


@pytest.mark.parametrize(("parse", "read"), [(parse_play, read_play), (parse_solve, read_solve),
                                             (parse_countdown, read_countdown),
                                             (parse_top, read_top), (parse_match, read_match)])
@pytest.mark.parametrize("argument", [HUGE, f"= {HUGE}", f"1 2 3 {HUGE}", f"4 = {HUGE}",
                                      "-" + HUGE, f"{HUGE} = 24", "0" * 5000 + "5"])
def test_no_parser_reads_a_huge_number(parse, read, argument):
    """Each is refused with a reason the usage reply names (a ValueError from int() was the
    defect), and the reason quotes the number clipped."""
    assert parse(argument) is None
    refused = read_arguments(read, argument)
    assert isinstance(refused, UsageError) and refused.code
    assert all(len(str(value)) <= 21 for value in refused.params.values())


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 6000), st.sampled_from(["", "-", "+", "= "]))
def test_match_never_raises_on_long_digits(length, sign):
    assert parse_match(sign + "1" * length) in (None, *range(2, 21), 10)


async def test_a_huge_match_count_gets_a_short_reply(harness: Harness):
    await harness.send(GROUP, ANN, f"/match {HUGE}")
    said = (await harness.telegram.reply(GROUP)).text
    assert "out of range" in said and "Usage: /match" in said
    assert len(said) < 400
    assert harness.services.rounds.open_round(GROUP) is None
    assert not [c for c in harness.telegram.sent if "went wrong" in c.text]
