"""Every game that declares a daily has one of its own (Make 10's and Krypto's beside 24's): its
own deck, worked out by the game and kept in its folder; its own days, drawn apart from the other
games'; its own hand live for everyone all day; /daily <game>, /top daily <game>, its deep link
and its Share line; its results kept apart, so that solving one game's daily solves no other's.
Through the real handlers, on a clock and a date each test sets."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from bot.play.daily.daily import daily_number
from bot.play.daily.puzzle import daily_deck as real_deck
from bot.play.daily.puzzle import daily_puzzle, day_start, deck_key, secret_key
from bot.play.games import DAILY_GAME, DAILY_GAMES, GAMES
from bot.play.games.krypto.daily import eligible_deals
from bot.play.games.krypto.rules import DECK as KRYPTO_DECK
from bot.play.games.make10.daily import eligible_hands as make10_hands
from bot.text.i18n import texts_for
from solver import is_solvable, solve
from tests.bot.conftest import ON_BOTH_BACKENDS, TEST_DAILY, Clock, Harness

ANN = {"id": 461, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 462, "is_bot": False, "first_name": "Ben"}
GROUP = -4601
DAY = "2030-03-01"
KEY = secret_key("a bot's secret")
DAYS = [f"2030-03-{day:02d}" for day in range(1, 29)]


@pytest.fixture
def today(harness: Harness) -> Clock:
    clock = Clock(day_start(DAY) + 3600)
    harness.services.community.daily.clock = clock
    harness.services.community.daily.hands.clock = clock
    return clock


async def said(h: Harness, user: dict, text: str, chat: int | None = None,
               kind: str = "private"):
    chat = user["id"] if chat is None else chat
    await h.send(chat, user, text, kind=kind)
    return await h.telegram.reply(chat)


def numbers_of(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text.split("→")[0].split(":")[-1])]


def target_of(text: str) -> int:
    return int(re.findall(r"→ (\d+)", text)[0])


def test_make10_and_krypto_declare_a_daily_and_24_stays_the_first():
    assert [game.name for game in DAILY_GAMES] == ["24", "make10", "krypto"]
    assert DAILY_GAME.name == "24"


def test_make10_s_table_is_what_its_rule_makes():
    deck = real_deck("make10")
    assert deck.hands == make10_hands() and deck.target == 10 and not deck.targets
    for hand in deck.hands:
        assert len(hand) == 4 and all(0 <= digit <= 9 for digit in hand)
        assert is_solvable(list(hand), 10)
        digits = [digit for digit in hand if digit]
        assert sum(digits) != 10 and eval("*".join(map(str, digits)) or "0") != 10
    assert len(set(deck.hands)) == len(deck.hands) > 500


def test_krypto_s_table_is_what_its_rule_makes():
    """A year of deals off the real deck, each its own target, solvable, none twice."""
    deck = real_deck("krypto")
    assert tuple(zip(deck.hands, deck.targets, strict=True)) == eligible_deals()
    assert deck.target is None and len(deck.hands) == 365
    cards = Counter(KRYPTO_DECK)
    for hand, target in zip(deck.hands, deck.targets, strict=True):
        assert len(hand) == 5 and not Counter([*hand, target]) - cards  # six cards of the deck
        assert is_solvable(list(hand), target) and sum(hand) != target
    assert len(set(zip(deck.hands, deck.targets, strict=True))) == 365
    assert len(set(deck.targets)) > 15  # the target changes from day to day


def test_each_game_draws_its_days_apart():
    """With one secret, each deck's days are drawn with a key of its own (24's as it always
    was): two games' orders share nothing, and a deck's day is its own deal."""
    keys = {game.name: deck_key(KEY, real_deck(game.name)) for game in DAILY_GAMES}
    assert keys["24"] == KEY and len(set(keys.values())) == len(keys)
    for game in ("make10", "krypto"):
        deck = real_deck(game)
        drawn = [daily_puzzle(day, KEY, deck) for day in DAYS]
        assert len({tuple(sorted(hand)) for hand, _ in drawn}) == len(DAYS)  # none twice
        for hand, target in drawn:
            index = deck.hands.index(tuple(sorted(hand)))
            assert deck.puzzle(index) == (tuple(sorted(hand)), target)
        assert [daily_puzzle(day, KEY, deck) for day in DAYS] == drawn  # date and key decide
        as_24 = [daily_puzzle(day, KEY, dataclasses.replace(deck, draws="")) for day in DAYS]
        assert as_24 != drawn  # drawn with 24's key, its days would be others'
        assert sum(a == b for a, b in zip(as_24, drawn, strict=True)) < 3


def test_a_deck_has_one_target_for_all_or_one_for_each():
    from bot.play.games.game import DailyDeck

    with pytest.raises(ValueError):
        DailyDeck(((1, 2, 3, 4),), None, "")
    with pytest.raises(ValueError):
        DailyDeck(((1, 2, 3, 4),), 10, "", targets=(10,))
    with pytest.raises(ValueError):
        DailyDeck(((1, 2, 3, 4), (1, 2, 3, 5)), None, "", targets=(10,))
    with pytest.raises(ValueError):
        DailyDeck((), 10, "")


@ON_BOTH_BACKENDS
@pytest.mark.parametrize("game", ["make10", "krypto"])
async def test_a_game_s_daily_is_shown_answered_and_ranked_apart(harness: Harness, today: Clock,
                                                                game: str):
    daily = harness.services.community.daily
    [hand], targets = TEST_DAILY[game]
    target = targets[0] if targets else GAMES[game].daily.target  # type: ignore[union-attr]
    assert sorted(daily.hand_of(DAY, game)) == sorted(hand) and daily.target_of(DAY, game) == \
        target
    shown = await said(harness, ANN, f"/daily {game}")
    assert sorted(numbers_of(shown.text)) == sorted(hand) and target_of(shown.text) == target
    assert f"/daily {game}" in shown.text and DAY in shown.text

    wrong = await said(harness, ANN, f"/daily {game} {'+'.join(map(str, hand))}")
    assert "❌" in wrong.text and f"/daily {game}" in wrong.text
    assert await harness.stores.daily.daily_result(DAY, game, ANN["id"]) is None

    today.now += 30
    solution = solve(list(hand), target)[0]
    right = await said(harness, ANN, f"/daily {game} {solution}")
    assert "Solved" in right.text and "#1 of 1" in right.text, right.text
    kept = await harness.stores.daily.daily_result(DAY, game, ANN["id"])
    assert kept is not None and kept.seconds == 3630
    for other in DAILY_GAMES:  # no other game's daily is solved by it
        if other.name != game:
            assert await harness.stores.daily.daily_result(DAY, other.name, ANN["id"]) is None
    again = await said(harness, ANN, "/daily")  # 24's: still to solve
    assert "→" in again.text and sorted(numbers_of(again.text)) == sorted(TEST_DAILY["24"][0][0])
    if GAMES[game].rated:  # a right daily answer rates its player in that game
        assert await harness.stores.ratings.player_ratings(ANN["id"], game)

    board = await said(harness, BEN, f"/top daily {game}", GROUP, "group")
    assert "Ann" in board.text and "1 solved" in board.text
    assert solution not in board.html
    empty = await said(harness, BEN, "/top daily", GROUP, "group")
    assert "Nobody has solved" in empty.text and "Ann" not in empty.text

    button = next(b for row in right.reply_markup["inline_keyboard"] for b in row
                  if "switch_inline_query_chosen_chat" in b)
    query = button["switch_inline_query_chosen_chat"]["query"]
    assert query == f"daily {game}"
    [result] = (await harness.inline(ANN, query)).results
    line = result["input_message_content"]["message_text"]
    assert f"#{daily_number(DAY)}" in line and "01:00:30" in line
    assert solution not in line and not re.search(r"\d\s*[-+*/×÷]\s*\(?\s*\d", line)
    assert texts_for("en").game(game) in line
    assert (await harness.inline(ANN, "daily")).results == []  # 24's: not solved


@ON_BOTH_BACKENDS
async def test_a_game_s_daily_is_live_for_everyone_all_day(harness: Harness, today: Clock):
    """Neither /solve nor a game's own command solves a game's daily hand while its day lasts
    (the next day's is 24's test: test_daily.py)."""
    for game in ("make10", "krypto"):
        [hand], targets = TEST_DAILY[game]
        target = targets[0] if targets else 10
        words = " ".join(map(str, hand))
        refused = await said(harness, BEN, f"/solve {words} = {target}")
        assert "daily puzzle" in refused.text and f"/daily {game}" in refused.text
        refused = await said(harness, BEN, f"/{GAMES[game].command} {words}"
                             + (f" = {target}" if targets else ""))
        assert "daily puzzle" in refused.text, refused.text


@ON_BOTH_BACKENDS
async def test_a_game_s_daily_from_a_group_and_its_deep_link(harness: Harness, today: Clock):
    shown = await said(harness, ANN, "/daily krypto", GROUP, "group")
    [[button]] = shown.reply_markup["inline_keyboard"]
    assert button["url"].endswith("?start=daily_krypto")
    assert "/top daily krypto" in shown.text
    deep = await said(harness, ANN, "/start daily_krypto")
    assert sorted(numbers_of(deep.text)) == sorted(TEST_DAILY["krypto"][0][0])
    for payload in ("daily_countdown", "daily_nothing", "daily_"):  # no daily: a greeting
        greeted = await said(harness, ANN, f"/start {payload}")
        assert "→" not in greeted.text


@ON_BOTH_BACKENDS
async def test_a_game_without_a_daily_is_refused_in_the_shape_of_every_refusal(
        harness: Harness, today: Clock):
    for asked in ("/daily countdown", "/daily YAHTZEE 1+2"):
        refused = await said(harness, ANN, asked)
        assert refused.text.startswith("❌") and "Usage: /daily [24|make10|krypto]" in \
            refused.text and "/daily 24" in refused.text
    refused = await said(harness, BEN, "/top daily yahtzee", GROUP, "group")
    assert refused.text.startswith("❌")
    for game in ("MAKE10", "Krypto"):  # a game's word in any case
        shown = await said(harness, ANN, f"/daily {game}")
        assert "→" in shown.text


@ON_BOTH_BACKENDS
async def test_a_private_daily_names_the_other_games_dailies(harness: Harness, today: Clock):
    """Where the other dailies are, under the hand in a private chat (each a command to copy);
    a group's hand stays as short as it was."""
    for asked, others in (("/daily", "/daily make10 · /daily krypto"),
                          ("/daily krypto", "/daily · /daily make10")):
        shown = await said(harness, ANN, asked)
        assert f"Today's puzzles of the other games: {others}" in shown.text, shown.text
        assert f"<code>{others.split(' · ')[0]}</code>" in shown.html
    in_group = await said(harness, ANN, "/daily", GROUP, "group")
    assert "other games" not in in_group.text
