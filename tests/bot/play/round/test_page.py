"""The Mini App plays every game (issue 34, item 6): play describes each round's page
(bot.play.round.page) — tiles and a target, or the 13 rolls' table; every tile to the target
exactly, any tile with whole steps and the closest winning, or a sealed guess — with the page's
words from the catalogs in the user's language (issue 37); the face serves it and judges what
comes back as a typed answer: 24's taps, Countdown's steps to a tile of the player's choice,
Yahtzee's number. A guess on the page is told no more than the chat is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.play.games import GAMES
from bot.play.games.yahtzee.rules import COLUMNS, GUESSES, total_bounds
from bot.play.round.page import (
    LEFT_FOR_THE_PAGE,
    Combine,
    Guess,
    Rolls,
    Tiles,
    describe,
)
from bot.play.rules import PlayOptions
from bot.text.i18n import LANGUAGES, texts_for
from solver.yahtzee import category_score
from tests.bot.conftest import Clock, Harness
from tests.bot.webapp_support import (
    ANN,
    BEN,
    BEST,
    EVE,
    EXACT,
    GROUP,
    NEAR,
    ROLLS,
    SOLUTION,
    TARGET,
    TILES,
    deal_game,
    hand_clock,
    page_server,
    post,
    sent_to,
    signed_for,
)

SCRIPT = Path(__file__).resolve().parents[4] / "bot" / "webapp" / "static" / "app.js"
FIELD = re.compile(r"\{(\w+)\}")


@pytest.fixture
def clock(harness: Harness) -> Clock:
    return hand_clock(harness)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_page(name: str):
    """Each registered game's own deal has a page whose puzzle is its hand and whose form the
    page can draw: a game added with a page of another shape fails here."""
    rules = GAMES[name].rules
    make, args = rules.dealer(PlayOptions())
    dealt = make(20261128, *args)
    puzzle, form = rules.page(dealt.hand, dealt.target)
    assert isinstance(form, Combine | Guess)
    if isinstance(puzzle, Tiles):
        assert (puzzle.numbers, puzzle.target) == (tuple(dealt.hand), dealt.target)
    else:
        assert isinstance(puzzle, Rolls) and isinstance(form, Guess)
        assert puzzle.dice == tuple(tuple(sorted(roll)) for roll in dealt.hand)


async def test_each_games_page_is_its_puzzle_and_its_form(harness: Harness, clock: Clock):
    english = texts_for("en")
    twentyfour = describe(await deal_game(harness, "24"), english, clock() + 20)
    assert twentyfour.puzzle == Tiles((8, 3, 8, 3), 24)
    assert twentyfour.form == Combine(every=True, whole=False)
    assert (twentyfour.title, twentyfour.seconds_left) == ("24", 40)
    chosen = describe(await deal_game(harness, "countdown", -7702), english, clock())
    assert chosen.puzzle == Tiles(TILES, TARGET) and chosen.form == Combine(every=False,
                                                                             whole=True)
    rolled = describe(await deal_game(harness, "yahtzee", -7703), english, clock())
    assert rolled.form == Guess(*total_bounds(ROLLS), GUESSES) == Guess(104, 380, 3)
    assert isinstance(rolled.puzzle, Rolls)
    assert rolled.puzzle.heads == ("Σ", "3K", "4K", "5K", "SS", "LS", "FH")
    assert rolled.puzzle.dice == tuple(tuple(sorted(roll)) for roll in ROLLS)
    assert rolled.puzzle.scores == tuple(tuple(category_score(roll, c) for _, c in COLUMNS)
                                         for roll in ROLLS)
    assert rolled.puzzle.scores[3][:4] == (20, 20, 20, 50)  # 44444: five of a kind
    assert "BEST" not in str(rolled) and str(BEST) not in str(rolled.words)


def page_keys() -> set[str]:
    """Every word the page's script asks for."""
    return set(re.findall(r'word\("(\w+)"', SCRIPT.read_text(encoding="utf-8"))) | \
        {"not_whole", "zero"}  # asked for through a variable


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_page_has_every_word_it_shows_in_every_language(harness: Harness,
                                                                  clock: Clock, language: str):
    """For each game, every word the script asks for is there, as plain text (it is set as
    text, never as markup), with no field left but those the page fills itself; English shows
    only in English."""
    texts, english = texts_for(language), texts_for("en")
    for number, game in enumerate(("24", "countdown", "yahtzee")):
        current = await deal_game(harness, game, -7710 - number)
        words = describe(current, texts, clock()).words
        theirs = describe(current, english, clock()).words
        assert page_keys() <= set(words), page_keys() - set(words)
        for key, text in words.items():
            assert "<" not in text and "&" not in text and text.strip(), (key, text)
            assert set(FIELD.findall(text)) == set(LEFT_FOR_THE_PAGE.get(key, ())), (key, text)
            if language != "en" and key not in ("submit", "undo", "reset", "held"):
                assert text != theirs[key] or text.isdigit(), (language, key, text)


async def test_the_page_speaks_the_users_language(harness: Harness, clock: Clock):
    """The signed language_code, mapped to the nearest of the six (zh-hans Simplified, pt-PT
    Brazilian Portuguese, anything unknown English), and its tag for the page's lang."""
    current = await deal_game(harness, "24")
    cases = ((BEN, "zh", "凑出 24"), ({**EVE, "language_code": "pt-PT"}, "pt-BR", "Faça 24"),
             ({**EVE, "language_code": "zh-TW"}, "zh-Hant", "湊出 24"),
             ({**EVE, "language_code": "xx"}, "en", "Make 24"))
    async with page_server(harness) as base:
        for user, language, goal in cases:
            status, shown = await post(base, "api/round", {
                "init_data": signed_for(user, current, harness.telegram.token),
                "round": f"{GROUP}_0_{current.id}"})
            assert status == 200 and (shown["language"], shown["words"]["goal"]) == \
                (language, goal)


async def test_countdown_on_the_page(harness: Harness, clock: Clock):
    """The six tiles and the target; a tile short of the target, chosen with tiles left, is
    judged as the typed answer it makes; a step that is not whole is refused; the target
    reached wins the round."""
    current = await deal_game(harness, "countdown")
    data = signed_for(ANN, current, harness.telegram.token)
    ticket = f"{GROUP}_0_{current.id}"
    async with page_server(harness) as base:
        status, shown = await post(base, "api/round", {"init_data": data, "round": ticket})
        assert status == 200 and shown["puzzle"] == {"tiles": list(TILES), "target": TARGET}
        assert shown["answer"] == {"kind": "combine", "every": False, "whole": True}
        assert shown["words"]["goal"] == "Get as close to 952 as you can"
        status, judged = await post(base, "api/answer", {"init_data": data, "round": ticket,
                                                         "steps": NEAR, "tile": 3})
        assert status == 200 and not judged["right"]
        assert judged["expression"] == "(100+6)*3"
        assert judged["text"].startswith("📝 (100+6)×3 = 318: 634 away")
        status, refused = await post(base, "api/answer", {
            "init_data": data, "round": ticket, "steps": [[5, "/", 4]], "tile": 4})  # 3÷6
        assert status == 400 and refused["said"] == "Each step must make a whole number " \
                                                     "above zero."
        status, judged = await post(base, "api/answer", {"init_data": data, "round": ticket,
                                                         "steps": EXACT, "tile": 0})
    assert status == 200 and judged["right"] and "Ann" in judged["text"]
    assert (await harness.telegram.reply(GROUP)).text.startswith("✅ Ann")
    assert harness.services.table.of(GROUP) is None


async def test_a_countdown_answer_from_the_page_stands_under_the_deal(harness: Harness):
    """Dealt by /countdown (its deal a message), an answer from the page goes into the deal's
    status, as a typed one does: the chat sees the standings, not the page's player's words."""
    await harness.send(GROUP, ANN, "/countdown")
    await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None and current.message_id is not None
    first, second = current.hand[:2]
    async with page_server(harness) as base:
        status, judged = await post(base, "api/answer", {
            "init_data": signed_for(ANN, current, harness.telegram.token),
            "round": f"{GROUP}_0_{current.id}", "steps": [[0, "+", 1]], "tile": 4})
    assert status == 200 and judged["expression"] == f"{first}+{second}"
    distance = abs(first + second - current.target)
    assert f"{distance} away" in judged["text"]
    edits = [e for e in harness.telegram.edits if e.chat_id == GROUP]
    assert edits and f"Ann: {first}+{second} = {first + second}, {distance} away" in \
        edits[-1].text  # the deal's standings


async def test_yahtzee_on_the_page(harness: Harness, clock: Clock):
    """The 13 rolls and a number field; a guess is sealed on the page as in the chat: one a
    point off and one far off are told the same words (their number and the guesses left
    aside), the group is sent nothing; a guess out of range is told the range; the best total
    wins."""
    current = await deal_game(harness, "yahtzee")
    data = signed_for(ANN, current, harness.telegram.token)
    ticket = f"{GROUP}_0_{current.id}"
    sent_before = sent_to(harness)
    async with page_server(harness) as base:
        status, shown = await post(base, "api/round", {"init_data": data, "round": ticket})
        assert status == 200 and shown["answer"] == {"kind": "guess", "low": 104, "high": 380,
                                                     "guesses": 3}
        assert shown["puzzle"]["dice"][3] == [4, 4, 4, 4, 4] and len(shown["puzzle"]["dice"]) == 13
        assert "104" in shown["words"]["help"] and "380" in shown["words"]["help"]
        told = []
        for guess in (str(BEST - 1), BEST - 200):
            status, judged = await post(base, "api/answer", {"init_data": data,
                                                             "round": ticket, "guess": guess})
            assert status == 200 and not judged["right"]
            told.append(re.sub(r"\d+", "N", judged["text"]))
        assert told[0] == told[1] and "✍" in told[0]
        status, judged = await post(base, "api/answer", {"init_data": data, "round": ticket,
                                                         "guess": "50"})
        assert status == 200 and "104" in judged["text"] and "380" in judged["text"]
        assert sent_to(harness) == sent_before  # sealed: the group hears nothing of them
        status, refused = await post(base, "api/answer", {"init_data": data, "round": ticket,
                                                          "guess": "3.5"})
        assert status == 400 and refused["said"].startswith("That answer could not be read")
        status, judged = await post(base, "api/answer", {"init_data": data, "round": ticket,
                                                         "guess": BEST})
    assert status == 200 and judged["right"]
    assert (await harness.telegram.reply(GROUP)).text.startswith("✅ Ann")


async def test_24_on_the_page_needs_every_tile(harness: Harness, clock: Clock):
    """In 24 the answer is the one tile left: steps that stop short are refused, whatever
    tile they name."""
    current = await deal_game(harness, "24")
    data = signed_for(ANN, current, harness.telegram.token)
    async with page_server(harness) as base:
        status, refused = await post(base, "api/answer", {
            "init_data": data, "round": f"{GROUP}_0_{current.id}", "steps": SOLUTION[:2],
            "tile": 1})
    assert status == 400 and refused["error"] == "2 tiles are left, not one"
    assert await harness.stores.rounds.answerers(current.id) == []
