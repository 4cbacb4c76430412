"""Ties share a place on every board ("1. Ann, 1. Ben, 3. Cy"), by one rule
(bot.play.words.places.shared_places): /top (all time and the week's) and its own-place line,
/top rating, /top daily, a match's scoreboard, and the group page's season board; the stores
count a player's own place the same way (1 + those strictly ahead)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.play import ratings
from bot.play.chats.people import Chat, Player
from bot.play.community.boards import BoardAsk
from bot.play.pages.days import day_of
from bot.play.pages.group import boards_sections
from bot.play.pages.player import season_start
from bot.play.services import Services
from bot.play.words.places import shared_places
from bot.store.stores import Stores
from bot.text.i18n import texts_for
from tests.bot.conftest import Clock
from tests.bot.play.community.test_rating_boards import settle
from tests.bot.store.test_community_stores import play

GROUP = Chat(-61, "group", "G")
ANN, BEN, CY = (Player(i, name, language_code="en") for i, name in ((1, "Ann"), (2, "Ben"),
                                                                     (3, "Cy")))
ROOT = Path(__file__).resolve().parents[4]


def test_the_rule():
    assert shared_places([(20, 2), (20, 2), (10, 1)]) == [1, 1, 3]
    assert shared_places([9.5, 9.5, 9.5]) == [1, 1, 1]
    assert shared_places([3, 2, 1]) == [1, 2, 3] and shared_places([]) == []


async def three_players(services: Services, stores: Stores) -> None:
    await stores.people.remember_chat(GROUP.id, GROUP.type, GROUP.title)
    for player in (ANN, BEN, CY):
        await services.people.remember(GROUP, player)


def numbered(text: str) -> list[str]:
    """A board's lines, "1. Ann" of "1. <b>Ann</b> — 10 points, 1 win"."""
    return [line.replace("<b>", "").split(" — ")[0] for line in text.splitlines()
            if line[:1].isdigit()]


async def test_top_and_the_weeks_board(services: Services, stores: Stores, clock: Clock):
    await three_players(services, stores)
    await play(stores, GROUP.id, ANN.id, (CY.id,), at=clock.now - 100, points=10)
    await play(stores, GROUP.id, BEN.id, (CY.id,), at=clock.now - 90, points=10)
    await play(stores, GROUP.id, CY.id, (), at=clock.now - 80, points=5)
    standings = services.community.standings
    for ask in (BoardAsk(), BoardAsk("week"), BoardAsk(everywhere=True)):
        board = await standings.board(GROUP, ANN, ask)
        assert numbered(board) == ["1. Ann", "1. Ben", "3. Cy"], ask


async def test_the_own_place_line_shares_the_place_too(services: Services, stores: Stores,
                                                        clock: Clock):
    """Eleven players ahead on the first ten lines' terms; the asker is level with the
    eleventh, who is listed before him by id: both are 11th (the store used to say 12th)."""
    await stores.people.remember_chat(GROUP.id, GROUP.type, GROUP.title)
    players = [Player(100 + i, f"P{i}", language_code="en") for i in range(11)]
    me = Player(200, "Me", language_code="en")
    for player in (*players, me):
        await services.people.remember(GROUP, player)
    for i, player in enumerate(players):
        await play(stores, GROUP.id, player.id, (), at=clock.now - 500 + i,
                   points=100 - 5 * i if i < 10 else 5)
    await play(stores, GROUP.id, me.id, (), at=clock.now - 10, points=5)
    board = await services.community.standings.board(GROUP, me, BoardAsk())
    assert numbered(board)[-2:] == ["10. P9", "11. Me"] and "P10" not in board
    assert board.splitlines()[-2:] == ["…", "11. Me — 5 points, 1 win"]


async def test_the_seasons_board_and_the_group_page(services: Services, stores: Stores,
                                                    clock: Clock):
    await three_players(services, stores)
    for player in (ANN, BEN, CY):  # scores in the chat, no rating moved
        await play(stores, GROUP.id, player.id, (), at=clock.now - 200 + player.id)
    for player, rating in ((ANN, 0.5), (BEN, 0.5), (CY, 0.1)):
        await settle(stores, clock, player, rating, 12)
    board = await services.community.standings.board(GROUP, ANN, BoardAsk("rating"))
    assert numbered(board) == ["1. Ann", "1. Ben", "3. Cy"]
    [section] = await boards_sections(stores.pages, stores.ratings, texts_for("en"), GROUP.id,
                                      ratings.season_of(clock.now), season_start(clock.now),
                                      day_of(clock.now))
    assert [(row["rank"], row["name"]) for row in section["rows"]] == \
        [(1, "Ann"), (1, "Ben"), (3, "Cy")]
    [cy] = await stores.ratings.player_ratings(CY.id, "24")
    assert await stores.ratings.place("24", cy.season, cy, GROUP.id) == 3


async def test_the_daily_board(services: Services, stores: Stores, clock: Clock):
    await three_players(services, stores)
    day = "1970-01-01"  # the test clock's day
    for player, seconds in ((ANN, 40.0), (BEN, 40.0), (CY, 50.0)):
        assert await stores.daily.record_daily(day, "24", player.id, player.id, "x", seconds,
                                               clock.now - 60 + seconds)
    board = await services.community.daily.board(GROUP, ANN)
    assert [line.split(" ")[0] for line in board.splitlines()[1:4]] == ["1.", "1.", "3."]


@pytest.mark.parametrize("path", ["bot/play/community/standings.py",
                                  "bot/play/matches/scoreboard.py", "bot/play/daily/daily.py"])
def test_every_board_takes_the_one_rule(path: str):
    """Each board's module places its lines with the one function (the group page with the
    season board's, `rating_places`)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                and node.module == "bot.play.words.places" for alias in node.names}
    assert imported == {"shared_places"}
