"""Every script's digits in the numbers of the bot's commands, guesses and plain-message answers
(the solver's own reading is tests/solver/test_script_digits.py, which must run without the bot)."""

from __future__ import annotations

import pytest

from bot.play.games.countdown.asking import parse_countdown
from bot.play.games.twentyfour.asking import parse_play
from bot.play.games.yahtzee.rules import parse_dice
from bot.play.rules.reading import read_expression
from bot.telegram.grammar import parse_solve
from bot.webapp.steps import read_guess
from solver import parse
from tests.solver.test_script_digits import in_script


@pytest.mark.parametrize("zero", ["۰", "٠", "०", "০"])
def test_commands_read_the_digits_of_every_script(zero):
    assert parse_solve(in_script("3 8 3 8", zero)) == parse_solve("3 8 3 8")
    assert parse_solve(in_script("1 2 3 4 5 = 100", zero)) == parse_solve("1 2 3 4 5 = 100")
    assert parse_solve(in_script("--closest 1 3 7 10 25 50 = 765", zero)) == \
        parse_solve("--closest 1 3 7 10 25 50 = 765")
    assert parse_play(in_script("5 = 36", zero)) == parse_play("5 = 36")
    assert parse_countdown(in_script("3", zero)) == parse_countdown("3")
    assert parse_countdown(in_script("1 3 7 10 25 50 = 765", zero)) == \
        parse_countdown("1 3 7 10 25 50 = 765")
    assert read_guess(in_script("245", zero)) == "245"
    assert parse_dice(in_script("12345 " * 13, zero)) == parse_dice("12345 " * 13)


def test_the_arabic_comma_separates_numbers():
    assert parse_solve("٣، ٨، ٣، ٨") == parse_solve("3, 8, 3, 8") == parse_solve("3 8 3 8")


def test_a_plain_message_in_persian_digits_is_an_answer_and_chatter_stays_chatter():
    assert read_expression("۸/(۳-۸/۳)", explicit=False) == parse("8/(3-8/3)")
    assert read_expression("٣×٨", explicit=False) == parse("3*8")
    assert not hasattr(read_expression("سلام ۳", explicit=False), "evaluate")
