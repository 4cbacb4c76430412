"""Game rules without Telegram or storage: deals, verdicts, requests, throttle, catalogs."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bot.play.games import GAMES
from bot.play.games.countdown import rules as countdown
from bot.play.games.countdown.asking import parse_countdown
from bot.play.games.twentyfour import rules as twentyfour
from bot.play.games.twentyfour.asking import parse_play
from bot.play.games.yahtzee import rules as yahtzee
from bot.play.games.yahtzee import words as yahtzee_words
from bot.play.games.yahtzee.rules import parse_dice
from bot.play.guards.throttle import Throttle
from bot.play.round.showing import hint_points
from bot.play.rules import PlayOptions
from bot.play.rules.records import BadStep, Near, Unreadable, Wrong, WrongNumbers, WrongValue
from bot.telegram.app import COMMANDS
from bot.telegram.grammar import SolveRequest, parse_solve, parse_top
from bot.text.catalogs import read_catalog
from bot.text.i18n import LANGUAGES, Texts, catalog, language_of
from solver import evaluate, is_solvable, solve
from solver.countdown import solve_countdown
from solver.rating import level
from solver.yahtzee import best_assignment
from tests.bot.verdicts import kind as kind_of


class Clock:
    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# --- 24 ------------------------------------------------------------------------------------------

def test_deal_draws_solvable_hands_of_every_level():
    seen = Counter()
    for seed in range(60):
        dealt = twentyfour.deal(seed)
        assert dealt is not None and len(dealt.hand) == 4
        assert all(1 <= n <= 13 for n in dealt.hand) and is_solvable(dealt.hand, 24)
        assert level(dealt.hand) == dealt.level
        assert dealt.points == twentyfour.LEVEL_POINTS[dealt.level]
        seen[dealt.level] += 1
    assert set(seen) == {"easy", "medium", "hard"}


@pytest.mark.parametrize("wanted", ["easy", "medium", "hard"])
def test_deal_of_a_level(wanted):
    for seed in range(5):
        dealt = twentyfour.deal(seed, wanted)
        assert dealt is not None and dealt.level == wanted and level(dealt.hand) == wanted


def test_deal_of_more_numbers_and_another_target():
    five = twentyfour.deal(1, None, 5, 24)
    assert five is not None and len(five.hand) == 5 and is_solvable(five.hand, 24)
    other = twentyfour.deal(2, None, 4, 36)
    assert other is not None and other.target == 36 and is_solvable(other.hand, 36)


@pytest.mark.parametrize(("text", "kind"), [
    ("8/(3-8/3)", "right"), ("8÷(3−8÷3) = 24", "right"), ("8*3", "wrong_numbers"),
    ("3*8+3-8", "wrong_value"), ("8/(3-3)*8", "division_by_zero"), ("8/(3-8/3", "unreadable"),
    ("2(3+4)", "unreadable"), ("-3+8+8+3", "unreadable"), ("3+3+8+8a", "unreadable")])
def test_judge_24(text, kind):
    assert kind_of(twentyfour.judge(text, (3, 3, 8, 8), 24, explicit=True)) == kind


def test_judge_24_says_what_is_wrong():
    verdict = twentyfour.judge("3*8+3", (3, 3, 8, 8), 24, explicit=True)
    assert verdict == Wrong("3*8+3", WrongNumbers(missing=(8,)))
    verdict = twentyfour.judge("3*8+3-8", (3, 3, 8, 8), 24, explicit=True)
    assert isinstance(verdict, Wrong) and verdict.reason == WrongValue("19")
    verdict = twentyfour.judge("3*(8+", (3, 3, 8, 8), 24, explicit=True)
    assert isinstance(verdict, Unreadable) and verdict.error == "unbalanced"


def test_plain_messages_are_ignored_unless_they_try_the_hand():
    hand = (3, 3, 8, 8)
    assert kind_of(twentyfour.judge("hello there", hand, 24, explicit=False)) == "ignore"
    assert kind_of(twentyfour.judge("1+1", hand, 24, explicit=False)) == "ignore"
    assert kind_of(twentyfour.judge("(3+3", hand, 24, explicit=False)) == "ignore"
    assert kind_of(twentyfour.judge("3+8", hand, 24, explicit=False)) == "ignore"  # partial working
    skips = twentyfour.judge("3*8", hand, 24, explicit=False)  # makes 24 with some of them:
    assert skips == Wrong("3*8", WrongNumbers(missing=(3, 8)))  # told what it skips
    assert kind_of(twentyfour.judge("3+3+8+8", hand, 24, explicit=False)) == "wrong_value"


# --- Countdown -----------------------------------------------------------------------------------

def test_countdown_draw_is_a_tv_draw():
    for seed in range(50):
        large = seed % 5
        dealt = countdown.draw(seed, large)
        cards = Counter(dealt.hand)
        assert len(dealt.hand) == 6 and 101 <= dealt.target <= 999
        assert sum(cards[n] for n in countdown.LARGE) == large
        assert all(cards[n] == 1 for n in countdown.LARGE if n in cards)
        assert all(cards[n] <= 2 for n in range(1, 11))


@pytest.mark.parametrize(("text", "kind", "distance"), [
    ("(50+25)*10+7*3", "close", 60), ("10*(3*25+1+7)", "close", 1), ("50*10", "close", 331),
    ("50/3", "not_whole", None), ("3-7+50", "not_whole", None), ("25*25", "wrong_numbers", None),
    ("50/(7-7)", "wrong_numbers", None), ("7/(10-10)", "wrong_numbers", None),
    ("((", "unreadable", None)])
def test_judge_countdown(text, kind, distance):
    verdict = countdown.judge(text, (1, 3, 7, 10, 25, 50), 831, explicit=True)
    assert kind_of(verdict) == kind
    assert (verdict.distance if isinstance(verdict, Near) else None) == distance


def test_countdown_exact_and_division_by_zero():
    hand = (1, 3, 7, 10, 25, 50)
    assert kind_of(countdown.judge("(50+25)*10+3*7", hand, 771, explicit=True)) == "right"
    zero_step = countdown.judge("50/(1-1)", (1, 1, 50), 50, explicit=True)  # 1-1 breaks first
    assert zero_step == Wrong("50/(1-1)", BadStep("1-1", "zero"))


def test_countdown_points_and_best():
    assert [countdown.points_for(d) for d in (0, 1, 5, 6, 10, 11)] == [10, 7, 7, 5, 5, 0]
    nearest, expression = countdown.best((1, 3, 7, 10, 25, 50), 831)
    assert nearest == 830 and evaluate(expression) == 830
    assert countdown.best((1, 3, 7, 10, 25, 50), 765)[0] == 765


# --- Yahtzee -------------------------------------------------------------------------------------

def test_yahtzee_deal_knows_the_best_total():
    dealt = yahtzee.roll_all(7)
    assert len(dealt.hand) == 13 and all(len(r) == 5 for r in dealt.hand)
    assert dealt.target == best_assignment(dealt.hand).total


def test_yahtzee_judge_and_dice():
    bounds = (40, 380)
    assert kind_of(yahtzee.judge("254", 254, bounds, explicit=True)) == "right"
    guess = yahtzee.judge(" 250 ", 254, bounds, explicit=False)
    assert guess == Near("", "250", 4)
    assert kind_of(yahtzee.judge("about 250", 254, bounds, explicit=False)) == "ignore"
    assert kind_of(yahtzee.judge("2+2", 254, bounds, explicit=True)) == "unreadable"
    assert kind_of(yahtzee.judge("3", 254, bounds, explicit=False)) == "ignore"  # out of range
    outside = yahtzee.judge("381", 254, bounds, explicit=True)
    assert isinstance(outside, Unreadable) and \
        outside.params == {"low": 40, "high": 380, "total": 381}
    rolls = parse_dice(" ".join(["12345"] * 13))
    assert rolls is not None and len(rolls) == 13 and rolls[0] == (1, 2, 3, 4, 5)
    assert parse_dice("1 2 3") is None and parse_dice("7" * 65) is None
    assert parse_dice("1" * 64) is None


# --- requests ------------------------------------------------------------------------------------

def test_parse_solve():
    assert parse_solve("3 8 3 8") == SolveRequest((3, 8, 3, 8), 24)
    assert parse_solve("1 2 3 4 5 = 100") == SolveRequest((1, 2, 3, 4, 5), 100)
    assert parse_solve("1,2,3,4=-5") == SolveRequest((1, 2, 3, 4), -5)
    assert parse_solve("--closest 1 3 7 10 25 50 = 831") == \
        SolveRequest((1, 3, 7, 10, 25, 50), 831, closest=True)
    for bad in ("", "a b", "1 2 3 4 5 6 7", "1 1000001", "1 2 =", "= 5", "1 2 --closest",
                "1 2 = 99999999999", "--closest 0 5 = 10", "9" * 5000):
        assert parse_solve(bad) is None, bad


def test_parse_play_countdown_top():
    assert parse_play("") == PlayOptions()
    assert parse_play("hard 5") == PlayOptions(level="hard", count=5)
    assert parse_play("4 = 36") == PlayOptions(count=4, target=36)
    assert parse_play("=36 困难") == PlayOptions(level="hard", target=36)
    for bad in ("7", "hard hard", "= 0", "= 1000", "= x", "please"):
        assert parse_play(bad) is None, bad
    assert parse_countdown("") == PlayOptions()
    assert parse_countdown("4") == PlayOptions(large=4)
    assert parse_countdown("1 3 7 10 25 50 = 765") == \
        SolveRequest((1, 3, 7, 10, 25, 50), 765, closest=True)
    for bad in ("5", "1 2 3", "1 2 3 = 0", "x"):
        assert parse_countdown(bad) is None, bad
    assert parse_top("") == (False, None)
    assert parse_top("all countdown") == (True, "countdown")
    assert parse_top("yahtzee") == (False, "yahtzee")
    assert parse_top("everything") is None


def test_hint_points_and_throttle():
    assert [hint_points(p) for p in (10, 20, 30)] == [5, 10, 15]
    clock = Clock()
    throttle = Throttle(burst=3, per_second=1.0, clock=clock)
    assert [throttle.allow(1, 1) for _ in range(5)] == [True, True, True, False, False]
    assert throttle.allow(1, 2) and throttle.allow(2, 1)  # others are not held up
    clock.now = 1.0
    assert throttle.allow(1, 1) and not throttle.allow(1, 1)


# --- languages -----------------------------------------------------------------------------------

# The catalogs' keys and placeholders: tests/bot/text/test_words.py.

def test_every_key_the_code_uses_is_in_the_catalogs():
    source = "\n".join(p.read_text() for p in Path("bot").rglob("*.py"))
    used = set(re.findall(r"texts\(\s*\"([a-z0-9_]+)\"", source))
    used |= {f"cmd_{command.names[0]}" for command in COMMANDS}
    used |= {f"game_{name}" for name in GAMES} | {f"level_{n}" for n in ("easy", "medium", "hard")}
    used |= set(yahtzee_words.CATEGORY_KEYS)
    assert used - set(catalog("en")) == set()
    assert len(used) > 60


def test_help_names_every_command_in_every_language():
    # /start is what Telegram sends on opening the chat, not a command a player looks up
    wanted = {command.names[0] for command in COMMANDS} - {"start"}
    for language in LANGUAGES:
        named = set(re.findall(r"/([a-z0-9]+)", catalog(language)["help"]))
        assert wanted - named == set(), language


def test_language_of_and_texts():
    assert language_of("zh-hans") == "zh" and language_of("en-GB") == "en"
    assert language_of(None) == "en" and language_of("nl") == "en" and language_of("de") == "de"
    assert Texts("zh")("level_hard") == "困难"
    assert Texts("nl").language == "en" and Texts("fr-CA").language == "fr"
    assert Texts("en").count(1) == "1 distinct solution"
    assert Texts("en").count(8, 5) == "8 distinct solutions, 5 shown"


def test_catalogs_are_gettext_files_in_the_package():
    for language in LANGUAGES:
        assert read_catalog(language).messages  # tests/bot/text/test_catalogs.py checks them whole


def test_solutions_the_rules_reveal_are_the_solvers():
    assert twentyfour.solutions((3, 3, 8, 8), 24) == solve([3, 3, 8, 8])
    assert countdown.best((2, 3), 7)[0] == solve_countdown([2, 3], 7).nearest
