"""Krypto and Make 10 (issue 72, item 2), each one folder and its catalogs' lines: their deals
are what the games deal (Krypto's six cards off its deck of 56, the last the target; Make 10's four
digits 0..9 for 10), every hand dealt can be made and its end shows every distinct solution; and
each plays where the other games play — a group round won and scored, its board, its command
solving a puzzle given after it, a match of it, a tournament of two groups, its round's page in
the Mini App, its ratings — with zeros and a division by zero answered clearly."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from telegram import Update

from bot.play.chats.people import Player
from bot.play.games import GAMES
from bot.play.games.krypto.rules import DECK
from bot.play.outcomes import Dealt
from bot.play.pages.player import RATED
from bot.play.round.page import Combine, Tiles, describe
from bot.play.rules import PlayOptions
from bot.play.rules.records import DivisionByZero, Right, Wrong
from bot.play.services import Services
from bot.play.tournaments.rules import TournamentRequest
from bot.runtime.doors import PERSON
from bot.store.records import Round
from bot.text.html_text import visible_text
from bot.text.i18n import LANGUAGES, catalog, texts_for
from solver import solve
from tests.bot.conftest import Clock, Harness, closed_outside
from tests.bot.play.tournaments.test_service import BLUE, RED, Publisher, admin, deals, started
from tests.bot.webapp_support import page_server, post, signed_for

NEW = ("make10", "krypto")
GROUP = -7901
ANN = {"id": 791, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 792, "is_bot": False, "first_name": "Ben", "language_code": "en"}


def dealt(game: str, seed: int):
    """What the game's own deal makes of a seed, in this process (the pool runs the same)."""
    make, args = GAMES[game].rules.dealer(PlayOptions())
    return make(seed, *args)


def test_krypto_deals_five_cards_and_a_target_off_its_deck():
    assert len(DECK) == 56
    assert Counter(DECK) == Counter({**{n: 3 for n in range(1, 7)}, **{n: 4 for n in range(7, 11)},
                                     **{n: 2 for n in range(11, 18)},
                                     **{n: 1 for n in range(18, 26)}})
    for seed in range(200):
        deal = dealt("krypto", seed)
        assert len(deal.hand) == 5 and not Counter((*deal.hand, deal.target)) - Counter(DECK)
        assert deal.analysis.solutions == tuple(solve(deal.hand, deal.target))  # every one
        assert deal.analysis.solutions, "a deal with none is dealt again"


def test_make10_deals_four_digits_that_make_ten_zeros_among_them():
    hands = [dealt("make10", seed) for seed in range(300)]
    for deal in hands:
        assert deal.target == 10 and len(deal.hand) == 4
        assert all(0 <= digit <= 9 for digit in deal.hand)
        assert deal.analysis.solutions == tuple(solve(deal.hand, 10)) != ()
    assert any(0 in deal.hand for deal in hands)  # zeros are dealt like any digit


def test_a_division_by_zero_in_make10_is_named_as_such():
    """A zero dealt may be divided by: the answer is wrong, and said to divide by zero."""
    zero = Round(1, GROUP, "make10", (0, 2, 5, 7), 10, "", 10, "en", None, 0.0, 60.0, "open",
                 False)
    verdict = GAMES["make10"].rules.judge(zero, "7/0+2*5", True)
    assert isinstance(verdict, Wrong) and isinstance(verdict.reason, DivisionByZero)
    said = GAMES["make10"].words.verdict_text(verdict, zero, texts_for("en"))
    assert texts_for("en")("division_by_zero") in said, said
    assert isinstance(GAMES["make10"].rules.judge(zero, "2*5+0*7", True), Right)


@pytest.mark.parametrize("game", NEW)
async def test_a_group_round_is_dealt_won_scored_and_on_its_board(harness: Harness, game: str):
    h = harness
    command = GAMES[game].start
    await h.send(GROUP, ANN, command)
    deal = await h.telegram.reply(GROUP)
    current = h.services.rounds.open_round(GROUP)
    assert current is not None and current.game == game
    assert " ".join(map(str, current.hand)) in deal.text and str(current.target) in deal.text
    await h.send(GROUP, BEN, f"/a {solve(current.hand, current.target)[0]}")
    result = visible_text((await h.telegram.reply(GROUP)).text)
    assert "Ben" in result and h.services.rounds.open_round(GROUP) is None, result
    await h.send(GROUP, ANN, f"/top {game}")
    board = visible_text((await h.telegram.reply(GROUP)).text)
    assert "Ben" in board, board


async def test_each_command_solves_a_puzzle_given_after_it(harness: Harness):
    h = harness
    await h.send(GROUP, ANN, "/make10 1 1 5 8")
    solved = (await h.telegram.reply(GROUP)).text
    assert "1 1 5 8 → 10: 1 distinct solution" in solved and "frac{8}{1 - " in solved, solved
    await h.send(GROUP, ANN, "/krypto 20 5 = 4")
    assert "20 5 → 4: 1 distinct solution" in (await h.telegram.reply(GROUP)).text
    for asked, why in (("/krypto 1 2 3", "target is missing"), ("/make10 12 3", "out of range"),
                       ("/make10 1 2 3 4 = 11", "out of range"), ("/krypto 30 5 = 6", "30")):
        await h.send(GROUP, ANN, asked)
        said = visible_text((await h.telegram.reply(GROUP)).text)
        assert why in said and "Usage:" in said, (asked, said)


@pytest.mark.parametrize("game", NEW)
async def test_a_match_deals_its_game_round_after_round(harness: Harness, game: str):
    h = harness
    await h.send(GROUP, ANN, f"/match 2 {game}")
    await h.telegram.reply(GROUP)
    first = h.services.rounds.open_round(GROUP)
    assert first is not None and first.game == game
    await h.send(GROUP, BEN, f"/a {solve(first.hand, first.target)[0]}")
    await h.telegram.reply(GROUP)
    assert h.services.rounds.open_round(GROUP) is None
    second = await h.services.matches.deal_next(GROUP)  # what the pause's alarm does
    assert isinstance(second, Dealt) and second.round.game == game
    assert texts_for("en")("match_round", number=2, count=2) in second.text


async def test_match_names_its_game_in_the_chat(harness: Harness):
    await harness.send(GROUP, ANN, "/match 3 krypto")
    await harness.telegram.reply(GROUP)
    assert harness.services.rounds.open_round(GROUP).game == "krypto"
    await harness.send(-7902, ANN, "/match krypto make10")
    said = visible_text((await harness.telegram.reply(-7902)).text)
    assert "Usage:" in said and harness.services.rounds.open_round(-7902) is None


@pytest.mark.parametrize("game", NEW)
async def test_a_tournament_of_two_groups_deals_them_one_hand(
        services: Services, publisher: Publisher, clock: Clock, game: str):
    said = await services.tournaments.new(RED, Player(1, "Ann", language_code="en"),
                                          TournamentRequest(name="Cup", game=game, rounds=1,
                                                            seconds=60, starts_in=60), admin)
    assert said.code is not None, said.text
    joined = await services.tournaments.join(BLUE, Player(2, "Ben", language_code="en"),
                                             said.code, admin)
    assert "joined" in joined.text
    await started(services, clock)
    red, blue = deals(publisher, RED), deals(publisher, BLUE)
    assert red[0].round.game == blue[0].round.game == game
    assert red[0].round.hand == blue[0].round.hand and solve(red[0].round.hand,
                                                             red[0].round.target)


@pytest.fixture
def publisher() -> Publisher:
    return Publisher()


@pytest.fixture
def wired(stores, pool, clock, publisher):
    from tests.bot.play.tournaments.test_service import build
    return build(stores, pool, clock, publisher)


@pytest.mark.parametrize("game", NEW)
async def test_its_round_plays_on_the_page(harness: Harness, game: str):
    h = harness
    await h.send(GROUP, ANN, GAMES[game].start)
    await h.telegram.reply(GROUP)
    current = h.services.rounds.open_round(GROUP)
    page = describe(current, texts_for("en"), current.started_at)
    assert page.puzzle == Tiles(tuple(current.hand), current.target)
    assert page.form == Combine(every=True, whole=False)
    async with page_server(h) as base:
        status, shown = await post(base, "api/round", {
            "init_data": signed_for(BEN, current, h.telegram.token),
            "round": f"{GROUP}_0_{current.id}"})
    assert status == 200 and shown["title"] == texts_for("en").game(game), shown


async def test_make10_is_won_on_the_page_with_a_zero_refused(harness: Harness):
    """A round of 1 1 5 8 played on the page: a step dividing by the zero a step made is
    refused, and 8÷(1−1÷5), tapped as steps, wins it in the group."""
    h = harness
    await h.send(GROUP, ANN, "/make10")
    await h.telegram.reply(GROUP)
    dealt = h.services.rounds.open_round(GROUP)
    await h.stores.rounds.close_round(dealt.id, "revealed", h.services.rounds.clock())
    closed_outside(h.services, dealt)
    now = h.services.rounds.clock()
    await h.stores.rounds.open_round(GROUP, "make10", (1, 1, 5, 8), 10, "", 10, "en", now,
                                     now + 60, ANN["id"])
    h.services.table.load(await h.stores.rounds.open_rounds())
    current = h.services.table.of(GROUP).record
    data, ticket = signed_for(BEN, current, h.telegram.token), f"{GROUP}_0_{current.id}"
    async with page_server(h) as base:
        status, refused = await post(base, "api/answer", {
            "init_data": data, "round": ticket, "steps": [[0, "-", 1], [0, "/", 2], [0, "+", 1]],
            "tile": 0})  # 8+5÷(1−1)
        assert status == 400 and refused["said"] == texts_for("en")("webapp_zero"), refused
        status, judged = await post(base, "api/answer", {
            "init_data": data, "round": ticket,
            "steps": [[1, "/", 2], [0, "-", 2], [0, "/", 1]], "tile": 0})
    assert status == 200 and judged["right"] and "Ben" in judged["text"], judged
    assert h.services.table.of(GROUP) is None


@pytest.mark.parametrize("game", NEW)
async def test_its_rounds_are_rated(harness: Harness, game: str):
    h = harness
    await h.send(GROUP, ANN, GAMES[game].start)
    await h.telegram.reply(GROUP)
    current = h.services.rounds.open_round(GROUP)
    await h.send(GROUP, BEN, f"/a {solve(current.hand, current.target)[0]}")
    await h.telegram.reply(GROUP)
    assert GAMES[game].rated and game in RATED  # the player's page reads its rating days
    assert await h.stores.ratings.player_ratings(BEN["id"], game)
    days = await h.stores.pages.rating_days(BEN["id"], "1970-01-01", RATED)
    assert game in {day.game for day in days}


async def test_a_flood_of_the_new_commands_holds_no_other_group_up(harness: Harness):
    """One person sends 2,000 of the new games' commands at once, half of them solver work:
    another group's /play is dealt meanwhile, and past their budget they are refused at once,
    none waiting for room."""
    h = harness
    flooder = {"id": 797, "is_bot": False, "first_name": "Flo", "language_code": "en"}
    for number in range(2000):
        await h.telegram.say(GROUP, flooder, "/krypto 20 5 = 4" if number % 2 else "/make10")
    await h.telegram.say(-7903, h.telegram.user(78, "Oz"), "/play")
    updates = [Update.de_json({k: v for k, v in u.items() if not k.startswith("_")}, h.app.bot)
               for u in h.telegram.updates]
    h.telegram.updates.clear()
    for update in updates:  # the other group's /play comes last, behind the flood
        await h.app.update_queue.put(update)
    await h.telegram.reply(-7903, timeout=30)
    assert h.app.update_processor.doors.refusals >= 2000 - PERSON.burst


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_names_and_deals_them(language: str):
    texts = texts_for(language)
    for game in NEW:
        assert texts.game(game).strip()
        for key in (f"deal_{game}", f"goal_{game}", f"answer_rules_{game}", f"cmd_{game}",
                    f"settings_seconds_{game}", GAMES[game].usage.key):
            assert catalog(language)[key].strip(), (language, key)


def test_a_seed_deals_the_same_everywhere():
    for game in NEW:
        seed = random.Random(game).getrandbits(64)
        assert dealt(game, seed) == dealt(game, seed)
