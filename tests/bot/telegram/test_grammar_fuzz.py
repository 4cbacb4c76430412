"""Every reader of what players type, fuzzed: the only outcomes are a value or the typed "usage"
(None) or error result, never an exception; numbers are ASCII digits (or full-width ones), and a
superscript, a circled number or another script's digit is refused, never read as another number.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.play.games import GAMES
from bot.play.games.countdown import rules as countdown_game
from bot.play.games.countdown.asking import parse_countdown
from bot.play.games.twentyfour import rules as twentyfour_game
from bot.play.games.twentyfour.asking import parse_play
from bot.play.games.yahtzee import rules as yahtzee_game
from bot.play.games.yahtzee.rules import parse_dice
from bot.play.rules import PlayOptions
from bot.play.rules.records import Verdict
from bot.telegram.grammar import (
    CLOSEST_MAX_NUMBER,
    CLOSEST_MAX_TARGET,
    SOLVE_MAX_NUMBER,
    SOLVE_MAX_NUMBERS,
    SOLVE_MAX_TARGET,
    SolveRequest,
    parse_solve,
    parse_top,
)
from solver import Num, ParseError, StyledCharacterError, parse
from solver.digits import plain_digits, script_digit
from solver.expr import BinOp, Expr

# How many examples each reader is fuzzed with (docs/reliability.md); half free text, half
# pieces of commands (digits of every kind, the words the readers know).
EXAMPLES = 1000
pytestmark = pytest.mark.slow  # fuzzing: thousands of inputs a test (make test runs them)

FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# Pieces that reach the deep paths of the readers: digits of every kind, the words they know.
TRICKY_DIGITS = ["²", "¹", "³", "⁴", "₅", "⑳", "½", "Ⅻ", "ⅹ", "٣", "३", "５", "０", "𝟗", "🔟"]
WORDS = ["easy", "hard", "medium", "难", "all", "全部", "24", "countdown", "yahtzee", "--closest",
         "-c", "=", "= ", "-", ",", "，", "＝", "(", ")", "+", "*", "/", "÷", "×", "−", "x"]
pieces = st.one_of(
    st.integers(0, 10**7).map(str),
    st.integers(-10, 2000).map(str),
    st.sampled_from(TRICKY_DIGITS),
    st.sampled_from(WORDS),
    st.sampled_from([" ", "  ", "\t", "\u3000", "\u00a0", "\n"]),
    st.text(max_size=3),
)
commandish = st.lists(pieces, max_size=14).map("".join)
any_text = st.text(max_size=60)
texts = st.one_of(any_text, commandish)


def _check_solve_request(request: SolveRequest) -> None:
    """What reaches the pool is within the limits the usage line states."""
    assert 1 <= len(request.numbers) <= SOLVE_MAX_NUMBERS
    if request.closest:
        assert all(1 <= n <= CLOSEST_MAX_NUMBER for n in request.numbers)
        assert 1 <= request.target <= CLOSEST_MAX_TARGET
    else:
        assert all(0 <= n <= SOLVE_MAX_NUMBER for n in request.numbers)
        assert abs(request.target) <= SOLVE_MAX_TARGET


def _ascii_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"[0-9]+", plain_digits(text))]


# --- the crashes of issue 9 and their neighbours ----------------------------------------------

@pytest.mark.parametrize("arguments", ["²", "4 ¹", "¹ 4", "= ²", "4 = ²³", "⑳", "𝟓", "5 = 𝟑𝟔"])
def test_play_refuses_styled_digits(arguments):
    assert parse_play(arguments) is None


@pytest.mark.parametrize("arguments", ["²", "¹", "⑳", "𝟑", "3 8 3 ²", "1 2 3 4 5 6 = ²"])
def test_countdown_refuses_styled_digits(arguments):
    assert parse_countdown(arguments) is None


@pytest.mark.parametrize("arguments", ["3 8 3 ²", "3 8 3 8 = ²⁴", "𝟑 𝟖 𝟑 𝟖", "三 8 3 8",
                                       "፫ 8 3 8", "--closest 1 3 7 10 25 ⑳ = 765"])
def test_solve_refuses_styled_digits(arguments):
    assert parse_solve(arguments) is None


def test_full_width_digits_are_read_as_in_answers():
    assert parse_solve("３ ８ ３ ８") == SolveRequest((3, 8, 3, 8), 24)
    assert parse_solve("１，２，３，４，５ ＝ １００") == SolveRequest((1, 2, 3, 4, 5), 100)
    assert parse_play("５ ＝ ３６") == PlayOptions(count=5, target=36)
    assert parse_countdown("３") == PlayOptions(large=3)


def test_giant_numbers_are_the_usage_line():
    giant = "9" * 5000
    assert parse_solve(f"3 8 3 {giant}") is None
    assert parse_solve(f"3 8 3 8 = {giant}") is None
    assert parse_countdown(f"1 2 3 4 5 {giant} = 100") is None
    assert parse_play(f"4 = {giant}") is None
    assert parse_play(giant) is None
    assert parse_countdown(giant) is None


@pytest.mark.parametrize(("answer", "plain"), [("3²", "2"), ("⑳+4", "20"), ("2*½", "1⁄2"),
                                               ("3﹢4", "+"), ("3ⅹ8", "x"), ("(3+3)*⁴", "4")])
def test_answers_refuse_styled_characters(answer, plain):
    with pytest.raises(StyledCharacterError) as caught:
        parse(answer)
    assert caught.value.code == "styled_character"
    assert caught.value.params["plain"] == plain


def test_answers_keep_full_width_and_unicode_operators():
    assert parse("８÷（３－８÷３）") == parse("8/(3-8/3)")
    assert parse("３×８") == parse("3 ｘ 8") == parse("3*8")
    assert parse("3\u2002*\u00a08") == parse("3*8")  # any space is a space


def test_a_giant_answer_is_too_long_and_not_echoed():
    with pytest.raises(ParseError) as caught:
        parse("9" * 5000 + "+1")
    assert caught.value.code == "too_long" and "9999" not in str(caught.value)


# --- fuzzing ------------------------------------------------------------------------------------

@FUZZ
@given(texts)
def test_fuzz_parse_play(arguments):
    options = parse_play(arguments)
    assert options is None or isinstance(options, PlayOptions)
    if options is not None and options.target is not None:
        assert 1 <= options.target <= 999
        assert options.target in _ascii_numbers(arguments)


@FUZZ
@given(texts)
def test_fuzz_parse_countdown(arguments):
    request = parse_countdown(arguments)
    assert request is None or isinstance(request, (PlayOptions, SolveRequest))
    if isinstance(request, SolveRequest):
        _check_solve_request(request)
        assert [*request.numbers, request.target] == _ascii_numbers(arguments)
    elif isinstance(request, PlayOptions) and request.large is not None:
        assert 0 <= request.large <= 4


@FUZZ
@given(texts, st.booleans())
def test_fuzz_parse_solve(arguments, closest):
    request = parse_solve(("--closest " if closest else "") + arguments)
    assert request is None or isinstance(request, SolveRequest)
    if request is not None:
        _check_solve_request(request)
        read = _ascii_numbers(arguments)
        assert list(request.numbers) == read[:len(request.numbers)]


@FUZZ
@given(texts)
def test_fuzz_parse_top(arguments):
    wanted = parse_top(arguments)
    assert wanted is None or (isinstance(wanted[0], bool)
                              and wanted[1] in (None, *GAMES))  # a game the registry knows


def test_top_names_every_game_in_any_case():
    """The fuzz above found `MAKE10` only by chance once Make 10 and Krypto were games: each is
    read here, whatever its case, with or without `all`."""
    for name in GAMES:
        assert parse_top(name.upper()) == (False, name)
        assert parse_top(f"all {name}") == (True, name)


dice_texts = st.one_of(texts, st.lists(st.sampled_from([*"123456", " ", ",", "²", "٣", "７", "0"]),
                                       min_size=60, max_size=70).map("".join))


@FUZZ
@given(dice_texts)
def test_fuzz_parse_dice(text):
    rolls = parse_dice(text)
    assert rolls is None or (len(rolls) == 13 and all(
        len(roll) == 5 and all(1 <= d <= 6 for d in roll) for roll in rolls))


def _numbers_of(expr: Expr) -> list[int]:
    if isinstance(expr, Num):
        return [expr.value]
    assert isinstance(expr, BinOp)
    return _numbers_of(expr.left) + _numbers_of(expr.right)


answer_pieces = st.one_of(pieces, st.sampled_from([*"()+-*/", "（", "）", "－", "﹢", "⁺", "ｘ"]))
answers = st.one_of(any_text, st.lists(answer_pieces, max_size=14).map("".join))


@FUZZ
@given(answers)
def test_fuzz_the_answer_parser(text):
    """A tree whose numbers are exactly the text's digit runs (ASCII, full-width or any script's
    own digits), or a typed ParseError: no other exception, and no styled character ever read as
    a digit."""
    try:
        expr = parse(text)
    except ParseError as error:
        assert error.code and str(error)
        return
    assert _numbers_of(expr) == _ascii_numbers(text)
    assert not any(not ch.isascii() and unicodedata.digit(ch, None) is not None
                   and not "０" <= ch <= "９" and script_digit(ch) is None for ch in text)


@FUZZ
@given(answers, st.booleans())
def test_fuzz_judging_answers(text, explicit):
    """The three games' judges on any text: a verdict, never an exception."""
    for verdict in (twentyfour_game.judge(text, (3, 3, 8, 8), 24, explicit),
                    countdown_game.judge(text, (1, 3, 7, 10, 25, 50), 765, explicit),
                    yahtzee_game.judge(text, 111, (40, 380), explicit)):
        assert isinstance(verdict, Verdict)
