"""Two figures the pages showed apart from their definitions (docs/counts.md), found by the
property of tests/bot/play/test_counts_agree.py, each held on both databases: a player rated on
rounds they only dealt has a season card (the page offered its button, and the card was refused
for want of rounds played), and a round won in the last second is among a group's rounds won
each week on PostgreSQL too (its CAST rounds a moment where SQLite's truncates, and the round
fell past the last week). Each week's rounds are now kept per calendar week (schema step 39),
numbered by the same floor on both: each round in the week it was won in, to the second."""

from __future__ import annotations

import time

from bot.play.chats.people import Chat, Player
from bot.play.pages.sharing import season_of_player
from bot.play.services import Services
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock

GROUP = Chat(-81, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
DECEMBER = 1_796_083_200.0  # 2026-12-01, midnight UTC
WEEK = 7 * 86400


async def test_a_dealer_who_never_answered_has_a_season_card(services: Services,
                                                             stores: Stores, clock: Clock):
    """Ben deals, Ann answers wrong, the time runs out: Ben is rated on the round he dealt
    (docs/ratings.md, "Who takes part") and played none. His page offers the season's card,
    and the card is his rating with no rounds, wins or streak of all time."""
    clock.now = DECEMBER + 3600
    dealt = (await services.rounds.play(GROUP, BEN, "24")).round
    assert dealt is not None
    clock.now += 5
    await services.rounds.answer(GROUP, ANN, "+".join(map(str, dealt.hand)), explicit=True)
    await services.rounds.expire(dealt.id)
    [rating] = await stores.ratings.player_ratings(BEN.id, "24")
    assert rating.responses == 1 and await stores.scores.stats(GROUP.id, BEN.id) == []
    page = await services.pages.player(BEN.id, BEN.first_name,
                                       await services.people.texts(GROUP, BEN))
    [share] = [s for s in page["sections"] if s["kind"] == "share"]
    assert share["games"] == [{"game": "24", "name": "24"}]
    card = await season_of_player(stores.pages, BEN.id, BEN.first_name, "24", clock.now)
    assert card is not None and card.season == "2026-12"
    assert (card.rounds, card.wins, card.best_streak, card.fastest) == (0, 0, 0, None)
    assert await services.pages.season_card(BEN.id, BEN.first_name, "24",
                                            await services.people.texts(GROUP, BEN))


async def test_a_round_won_in_the_last_second_is_on_the_groups_weeks(services: Services,
                                                                    clock: Clock):
    """Won at .7 of a second and the page asked at that moment: PostgreSQL rounds the moment
    up to the next second, one week past the last of the 52 from the page's first moment."""
    clock.now = DECEMBER + 3600.2
    dealt = (await services.rounds.play(GROUP, BEN, "24")).round
    assert dealt is not None
    clock.now += 5.5
    await services.rounds.answer(GROUP, ANN, solve(dealt.hand)[0], explicit=True)
    page = await services.pages.group(GROUP.id, await services.people.texts(GROUP, ANN))
    [weeks] = [s["weeks"] for s in page["sections"] if s["kind"] == "weeks"]
    assert weeks[-1] == 1 and sum(weeks) == 1


async def test_each_round_won_is_in_the_week_it_was_won(services: Services, clock: Clock):
    """The 52 weeks are calendar weeks, Monday 00:00 to Sunday's end UTC, the last this one so
    far (schema step 39 keeps them): a round won a moment before a Monday is the week before's
    (at .75 of a second, which PostgreSQL's CAST would round up to the Monday), one won at the
    Monday that week's, one before the first Monday none of them, and one won as the page is
    asked the last week's; the chart's first day is that Monday."""
    asked = DECEMBER + 60 * WEEK + 0.4  # a Tuesday
    monday = asked - asked % WEEK - 3 * 86400 + (WEEK if asked % WEEK >= 4 * 86400 else 0)
    assert time.gmtime(monday).tm_wday == 0 and 0 < asked - monday < WEEK
    first = monday - 51 * WEEK
    won_at = [first - 10, first + 0.5, first + WEEK - 0.25, first + WEEK, first + 30 * WEEK + 99,
              monday - 0.25, monday, asked]
    for at in won_at:
        clock.now = at - 5
        dealt = (await services.rounds.play(GROUP, BEN, "24")).round
        assert dealt is not None
        clock.now = at
        await services.rounds.answer(GROUP, ANN, solve(dealt.hand)[0], explicit=True)
    clock.now = asked
    page = await services.pages.group(GROUP.id, await services.people.texts(GROUP, ANN))
    [section] = [s for s in page["sections"] if s["kind"] == "weeks"]
    weeks = section["weeks"]
    assert len(weeks) == 52 and sum(weeks) == 7
    assert (weeks[0], weeks[1], weeks[30], weeks[50], weeks[51]) == (2, 1, 1, 1, 2)
    assert section["from"] == time.strftime("%Y-%m-%d", time.gmtime(first))
    assert section["to"] == time.strftime("%Y-%m-%d", time.gmtime(asked))
