"""Answers judged in the event loop (issue 28, item 1): the games' judges are pure, and the reader
bounds what they see (solver.parser: MAX_LENGTH characters, MAX_DEPTH nested parentheses), so a
worst-case answer is judged or refused right there, with no trip to the solver pool."""

from __future__ import annotations

import pytest

from bot.play.games import GAMES
from bot.play.games.countdown import judge as countdown_judge
from bot.play.games.twentyfour import judge as judge_24
from bot.store.records import Round
from solver.parser import MAX_DEPTH, MAX_LENGTH
from tests.bot.conftest import Harness

GROUP = -2801
ANN = {"id": 81, "is_bot": False, "first_name": "Ann"}


def nested(depth: int, inner: str = "1+2+3+4") -> str:
    return "(" * depth + inner + ")" * depth


def test_the_reader_bounds_depth_and_length():
    assert judge_24(nested(MAX_DEPTH), (1, 2, 3, 4), 10, True).kind == "right"
    too_deep = judge_24(nested(MAX_DEPTH + 1), (1, 2, 3, 4), 10, True)
    assert (too_deep.kind, too_deep.error) == ("unreadable", "too_deep")
    longest = "+".join(["1"] * ((MAX_LENGTH + 1) // 2))
    assert len(longest) == MAX_LENGTH - 1
    assert judge_24(longest, (1, 1, 1, 1), 24, True).kind == "wrong_numbers"
    too_long = judge_24(longest + "+1", (1, 1, 1, 1), 24, True)
    assert (too_long.kind, too_long.error) == ("unreadable", "too_long")
    assert judge_24("x" * 5000, (1, 1, 1, 1), 24, False).kind == "ignore"  # chatter


@pytest.mark.parametrize("answer", [
    "9" * 99 + "*" + "9" * 100,  # the largest product the length allows: exact, and quick
    "1/" * 99 + "1",  # the longest chain of divisions
    nested(MAX_DEPTH, "1-2*3/4"),
])
def test_worst_case_answers_are_judged_exactly(answer):
    verdict = judge_24(answer, (1, 2, 3, 4), 24, True)
    assert verdict.kind in ("wrong_numbers", "wrong_value")
    tiles = countdown_judge(answer, (1, 3, 7, 10, 25, 50), 831, True)
    assert tiles.kind in ("wrong_numbers", "not_whole", "close")


def test_the_games_judge_without_the_pool():
    record = Round(1, GROUP, "24", (3, 3, 8, 8), 24, "hard", 30, "en", None, 0.0, 60.0, "open",
                   False)
    verdict = GAMES["24"].judge(record, "8/(3-8/3)", True)  # no pool to hand it: none used
    assert verdict.kind == "right"
    tiles = Round(2, GROUP, "countdown", (1, 3, 7, 10, 25, 50), 831, "2", 10, "en", None, 0.0,
                  60.0, "open", False)
    verdict = GAMES["countdown"].judge(tiles, "10*(3*25+1+7)", True)
    assert (verdict.kind, verdict.distance) == ("close", 1)


async def test_a_worst_case_answer_in_a_chat_is_refused_in_words(harness: Harness):
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, ANN, "/a " + nested(MAX_DEPTH + 5))
    assert "too many nested parentheses" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, ANN, "/a " + "1+" * 1500 + "1")
    assert "too long (at most 200 characters)" in (await harness.telegram.reply(GROUP)).text
    assert harness.services.rounds.open_round(GROUP) is not None
