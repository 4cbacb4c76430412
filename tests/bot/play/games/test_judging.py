"""Answers judged in the event loop (issue 28, item 1): the games' judges are pure, and the reader
bounds what they see (solver.parser: MAX_LENGTH characters, MAX_DEPTH nested parentheses), so a
worst-case answer is judged or refused right there, with no trip to the solver pool."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.play.games import GAMES
from bot.play.games.countdown.rules import judge as countdown_judge
from bot.play.games.twentyfour.rules import judge as judge_24
from bot.play.rules.records import (
    IGNORED,
    BadStep,
    Near,
    Right,
    Unreadable,
    Wrong,
    WrongNumbers,
    WrongValue,
)
from bot.store.records import Round
from solver.parser import MAX_DEPTH, MAX_LENGTH
from tests.bot.conftest import Harness

GROUP = -2801
ANN = {"id": 81, "is_bot": False, "first_name": "Ann"}


def nested(depth: int, inner: str = "1+2+3+4") -> str:
    return "(" * depth + inner + ")" * depth


def test_the_reader_bounds_depth_and_length():
    assert isinstance(judge_24(nested(MAX_DEPTH), (1, 2, 3, 4), 10, True), Right)
    too_deep = judge_24(nested(MAX_DEPTH + 1), (1, 2, 3, 4), 10, True)
    assert isinstance(too_deep, Unreadable) and too_deep.error == "too_deep"
    longest = "+".join(["1"] * ((MAX_LENGTH + 1) // 2))
    assert len(longest) == MAX_LENGTH - 1
    judged = judge_24(longest, (1, 1, 1, 1), 24, True)
    assert isinstance(judged, Wrong) and isinstance(judged.reason, WrongNumbers)
    too_long = judge_24(longest + "+1", (1, 1, 1, 1), 24, True)
    assert isinstance(too_long, Unreadable) and too_long.error == "too_long"
    assert judge_24("x" * 5000, (1, 1, 1, 1), 24, False) == IGNORED  # chatter


NINES, TENS = int("9" * 99), int("9" * 100)
# Worst cases whose numbers are the hand's, so the judge does the arithmetic (the number check
# passes) and says the exact value: (answer, hand, its value)
WORST = [
    (f"{NINES}*{TENS}", (NINES, TENS), Fraction(NINES * TENS)),  # the largest product
    ("1/" * 99 + "1", (1,) * 100, Fraction(1)),  # the longest chain of divisions
    (nested(MAX_DEPTH, "1-2*3/4"), (1, 2, 3, 4), Fraction(-1, 2)),  # the deepest nesting
]


@pytest.mark.parametrize(("answer", "hand", "value"), WORST, ids=["product", "chain", "depth"])
def test_worst_case_answers_are_judged_exactly(answer, hand, value):
    assert len(answer) <= MAX_LENGTH
    verdict = judge_24(answer, hand, 24, True)
    assert verdict == Wrong(verdict.expression, WrongValue(str(value)))  # type: ignore[union-attr]
    right = judge_24(answer, hand, value.numerator, True) if value.denominator == 1 else None
    assert right is None or isinstance(right, Right)


def test_countdown_worst_cases_are_judged_exactly():
    product = countdown_judge(f"{NINES}*{TENS}", (NINES, TENS, 1, 2, 3, 4), 831, True)
    assert product == Near(product.expression, str(NINES * TENS),  # type: ignore[union-attr]
                           NINES * TENS - 831)
    chain = countdown_judge("1/" * 99 + "1", (1,) * 100, 1, True)
    assert isinstance(chain, Right) and chain.value == "1"  # every step 1÷1 = 1: whole
    fraction = countdown_judge(nested(MAX_DEPTH, "1-2*3/4"), (1, 2, 3, 4, 5, 6), 831, True)
    assert fraction == Wrong(fraction.expression, BadStep("6/4", "fraction"))  # type: ignore


def test_the_games_judge_without_the_pool():
    record = Round(1, GROUP, "24", (3, 3, 8, 8), 24, "hard", 30, "en", None, 0.0, 60.0, "open",
                   False)
    verdict = GAMES["24"].rules.judge(record, "8/(3-8/3)", True)  # no pool to hand it: none used
    assert isinstance(verdict, Right)
    tiles = Round(2, GROUP, "countdown", (1, 3, 7, 10, 25, 50), 831, "2", 10, "en", None, 0.0,
                  60.0, "open", False)
    assert GAMES["countdown"].rules.judge(tiles, "10*(3*25+1+7)", True) == \
        Near("10*(3*25+1+7)", "830", 1)


async def test_a_worst_case_answer_in_a_chat_is_refused_in_words(harness: Harness):
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, ANN, "/a " + nested(MAX_DEPTH + 5))
    assert "too many nested parentheses" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, ANN, "/a " + "1+" * 1500 + "1")
    assert "too long (at most 200 characters)" in (await harness.telegram.reply(GROUP)).text
    assert harness.services.rounds.open_round(GROUP) is not None
