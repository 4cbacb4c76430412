"""Seasons and the rating boards: /top rating (this chat's, every chat's) ranks the season's
settled skill, provisional ratings shown apart and never ranked (issue 73: "Cy — 1313 ±200 (1
round)" stood first on a board of one wrong answer and a pass); /stats shows a player's
rating, its uncertainty and their best season; a new season starts from the last one's rating,
partly reset; the points boards are as they were."""

from __future__ import annotations

import math

import pytest

from bot.play import ratings
from bot.play.chats.people import Chat, Player
from bot.play.community.boards import BoardAsk
from bot.play.community.standings import shown_rating, shown_spread
from bot.play.ratings.seasons import KEEP, WIDEN
from bot.play.services import Services
from bot.store.records import RatingRow, RatingWrite, ScaleRow
from bot.store.stores import Stores
from bot.telegram.grammar import UsageError, read_board
from solver import solve
from tests.bot.conftest import Clock

GROUP = Chat(-42, "group", "G")
OTHER = Chat(-43, "group", "H")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
CY = Player(3, "Cy", language_code="en")
DAY = 86400.0


def test_top_rating_is_asked_in_words():
    assert read_board("rating") == BoardAsk("rating", False, None)
    assert read_board("rating all") == BoardAsk("rating", True, None)
    assert read_board("countdown rating") == BoardAsk("rating", False, "countdown")
    with pytest.raises(UsageError):
        read_board("rating yahtzee")


async def settle(stores: Stores, clock: Clock, player: Player, rating: float,
                 responses: int) -> None:
    """The player's row this season as if rated on `responses` rounds."""
    await stores.people.remember_user(player.id, player.first_name)
    await stores.people.remember_chat(-7, "group", "elsewhere")
    made = await stores.rounds.open_round(-7, "24", (1, 1, 1, 1), 24, "easy", 10, "en",
                                          clock.now - 100, clock.now - 40)
    assert made is not None
    row = RatingRow(player.id, "24", ratings.season_of(clock.now), rating, 0.4, responses,
                    clock.now)
    assert await stores.rounds.close_round(made.id, "expired", clock.now - 40, rating=RatingWrite(
        clock.now, ((row, 0.0),), None, 0, (ScaleRow("24", 1.0, 0.5, 1, clock.now), 0.0)))


async def win(services: Services, chat: Chat, dealer: Player, winner: Player,
              clock: Clock) -> None:
    dealt = (await services.rounds.play(chat, dealer, "24")).round
    assert dealt is not None
    if dealer != winner:  # the dealer tries too: a player of the chat's board
        await services.rounds.answer(chat, dealer, "1+1", explicit=True)
    clock.now += 1
    await services.rounds.answer(chat, winner, solve(dealt.hand)[0], explicit=True)


async def test_the_seasons_board_ranks_skill(services: Services, clock: Clock):
    clock.now = 1_795_000_000.0  # 2026-11-18
    await win(services, GROUP, ANN, BEN, clock)
    await win(services, GROUP, ANN, BEN, clock)
    await win(services, OTHER, CY, CY, clock)
    board = await services.community.standings.board(GROUP, ANN, BoardAsk("rating"))
    lines = board.splitlines()
    assert "season 2026-11" in lines[0] and "Leaderboard" in lines[0]
    assert lines[1] == "(in brackets: rounds rated this season, in all chats)"
    # two rounds each: provisional, shown apart and unranked, the better first
    assert lines[2] == "Provisional, not ranked until 10 rounds are rated this season:"
    assert lines[3].startswith("• Ben — ") and lines[4].startswith("• Ann — ")
    assert "1." not in board and "Cy" not in board  # Cy played elsewhere only
    everywhere = await services.community.standings.board(GROUP, ANN,
                                                          BoardAsk("rating", True))
    assert "• Cy — " in everywhere and "all chats" in everywhere
    # the points boards are as they were
    points = await services.community.standings.board(GROUP, ANN, BoardAsk())
    assert "season" not in points and points.endswith("1. Ben — 40 points, 2 wins")


async def test_only_settled_ratings_are_ranked_however_high_a_provisional_one(
        services: Services, stores: Stores, clock: Clock):
    clock.now = 1_795_000_000.0  # 2026-11-18
    await settle(stores, clock, ANN, 0.2, 10)  # settled: ten rounds this season
    await settle(stores, clock, BEN, 0.1, 12)
    await settle(stores, clock, CY, 3.0, 1)  # one round, rated far above: provisional
    for player in (ANN, BEN, CY):  # each a player of the chat's board
        await win(services, GROUP, player, player, clock)
    board = await services.community.standings.board(GROUP, BEN, BoardAsk("rating", True))
    lines = board.splitlines()[2:]
    assert lines[0].startswith("1. Ann — ") and lines[1].startswith("2. Ben — ")
    assert lines[2].startswith("Provisional") and lines[3].startswith("• Cy — ")
    # the asker's own line: a provisional one's unranked, a settled one's place among settled
    dan = Player(4, "Dan", language_code="en")
    await settle(stores, clock, dan, -1.0, 3)
    mine = await services.community.standings.board(GROUP, dan, BoardAsk("rating", True))
    assert mine.splitlines()[-1].startswith("• Dan — ")
    assert "1. Ann" in mine and "\n3." not in mine


async def test_an_empty_season_says_how_to_start(services: Services, clock: Clock):
    said = await services.community.standings.board(GROUP, ANN, BoardAsk("rating"))
    assert "Nobody is rated" in said and "/play" in said


async def test_a_rated_asker_is_never_told_nobody_is_rated(services: Services, clock: Clock):
    """Ben dealt a round nobody answered: he is rated on it (docs/counts.md), and the group has
    no rated player of its own (none has scores there). His /top rating there shows his rating
    alone, not "Nobody is rated"; Ann, rated nowhere, is told how to start."""
    dealt = (await services.rounds.play(GROUP, BEN, "24")).round
    assert dealt is not None
    clock.now += 70
    await services.rounds.expire(dealt.id)
    his = (await services.community.standings.board(GROUP, BEN, BoardAsk("rating"))).splitlines()
    assert his[0].startswith("🎯 <b>Leaderboard · 24 · skill, season ")
    assert his[-1].startswith("• Ben — ") and his[-1].endswith(" (1 round)") and "…" not in his
    said = await services.community.standings.board(GROUP, ANN, BoardAsk("rating"))
    assert "Nobody is rated" in said


async def test_stats_show_the_rating_and_the_best_season(services: Services, stores: Stores,
                                                         clock: Clock):
    clock.now = 1_790_000_000.0  # 2026-09-21
    await settle(stores, clock, ANN, 1.0, 30)
    september = shown_rating(1.0)
    clock.now += 20 * DAY  # October: a new season
    await win(services, GROUP, BEN, ANN, clock)
    [october, _september] = await stores.ratings.player_ratings(ANN.id, "24")
    assert october.season == "2026-10" and october.responses == 1
    # the partial reset: from 0.7 of September's rating, then this round's step (a win: up)
    assert KEEP * 1.0 < october.rating < 1.0 + 1.5
    # and as sure as September left it, widened (a new player's would be near 1.5)
    assert october.uncertainty < math.hypot(0.4, WIDEN)
    stats = await services.community.standings.stats(GROUP, ANN)
    assert f"24 rating this season: {shown_rating(october.rating)} ±" in stats
    assert "from 1 round you dealt, answered or passed in, in all chats" in stats
    assert f"Best season: {september} (2026-09)" in stats
    # Ben, rated this season only on a few rounds, has no best season yet
    assert "Best season" not in await services.community.standings.stats(GROUP, BEN)


async def test_the_asker_below_the_ten_sees_their_place(services: Services, stores: Stores,
                                                        clock: Clock):
    for user in range(10, 22):
        await settle(stores, clock, Player(user, f"P{user}"), 1.0 + user / 100, 12)
    await settle(stores, clock, ANN, -2.0, 12)
    board = await services.community.standings.board(GROUP, ANN, BoardAsk("rating", True))
    assert board.splitlines()[-1] == \
        f"13. Ann — {shown_rating(-2.0)} ±{shown_spread(0.4)} (12 rounds)"
