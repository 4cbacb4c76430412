"""A group's page: the season's board of each rated game with every player's rating day by day,
the group's records (fastest win, most wins in a row, most wins), the hardest hands solved
there this season, and the rounds won each week of the last year; sections as on the player's
page (bot.play.pages.player), one more (achievements) added the same way."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Sequence
from typing import Any

from bot.play.community.standings import PROVISIONAL_SHOWN, rating_places
from bot.play.pages.days import day_of, moment_of
from bot.play.pages.player import (
    HardestOf,
    hand_text,
    level_name,
    ranked,
    season_start,
    separator,
    shown,
)
from bot.play.ratings import GAMES as RATED_GAMES
from bot.play.ratings import season_of
from bot.store.protocols import PageStore, RatingStore
from bot.store.records import RatedPlacing
from bot.store.sql.pages import WonRound
from bot.text.i18n import Texts

BOARD = 10  # players on each board
HANDS = 5  # hardest hands shown
WON_READ = 500  # the season's latest won rounds the hardest hands are chosen from
FIRST_READ = 40  # of those, read first in the order `ranked` takes them (the hardest level,
#                  then the latest): the HARDEST_OF distinct hands it compares are among them
#                  unless hands were won again, or were tables of rolls
WEEK = 7 * 86400
WEEKS = 52
MONDAY = 3 * 86400  # 1970-01-01 was a Thursday: a week from Monday 00:00 UTC is numbered whole
Placings = tuple[list[RatedPlacing], list[RatedPlacing]]  # a board: ranked, and provisional


async def group_page(store: PageStore, ratings: RatingStore, texts: Texts, chat_id: int,
                     now: float) -> dict[str, Any]:
    """The sections' reads asked side by side: on SQLite they share trips to the database's
    thread, on PostgreSQL they run on connections of their own."""
    season, start = season_of(now), season_start(now)
    boards, records, hands, weeks = await asyncio.gather(
        boards_sections(store, ratings, texts, chat_id, season, start, day_of(now)),
        records_section(store, texts, chat_id),
        hands_section(store, texts, chat_id, now, start),
        weeks_section(store, texts, chat_id, now))
    sections = [*boards, records, hands, weeks]
    return {"kind": "group", "title": texts("webapp_page_group"), "sections": sections}


def boards_sections(store: PageStore, ratings: RatingStore, texts: Texts, chat_id: int,
                    season: str, start: str, today: str) -> Awaitable[list[dict[str, Any]]]:
    """The season's board of each rated game where someone in the chat is rated, with each
    player's rating day by day. The boards are asked for at once, with the other sections'
    first reads (on SQLite in the same trip to the database's thread: asked from within a
    section of their own, a step later, they waited for that trip to end and went in the next),
    then every game's players' days in one read."""
    boards = [asyncio.ensure_future(ratings.boards(game, season, BOARD, PROVISIONAL_SHOWN,
                                                   chat_id)) for game in RATED_GAMES]
    return with_trends(store, texts, boards, start, today)


async def with_trends(store: PageStore, texts: Texts,
                      boards: Sequence[asyncio.Future[Placings]], start: str, today: str
                      ) -> list[dict[str, Any]]:
    # each board awaited in turn, not gathered: the first done wakes this in the step of the
    # loop after it, so that the players' days go to the database's thread in the trip the
    # hardest hands' difficulties take (a gather wakes its waiter two steps later: a trip more)
    try:
        found = [await board for board in boards]
    finally:
        for board in boards:
            board.cancel()  # those not done, when one failed (a done one is left as it is)
    trends = await store.days_of([(game, p.user_id) for game, (placings, unranked)
                                  in zip(RATED_GAMES, found, strict=True)
                                  for p in (*placings, *unranked)], start)
    return [board_section(texts, game, placings, unranked, trends, start, today)
            for game, (placings, unranked) in zip(RATED_GAMES, found, strict=True)
            if placings or unranked]


def board_section(texts: Texts, game: str, placings: list[RatedPlacing],
                  unranked: list[RatedPlacing],
                  trends: dict[tuple[str, int], list[tuple[str, float]]], start: str,
                  today: str) -> dict[str, Any]:
    """The season's board of a game with each player's rating day by day, from the season's
    start to `today`."""
    ranks: list[int | None] = [*rating_places(placings), *(None for _ in unranked)]
    return {"kind": "board", "title": texts("webapp_board_title", game=texts.game(game)),
            "season_start": start, "today": today,
            "rows": [{"rank": place, "rating": shown(p.rating),  # provisional: no rank
                      "name": p.name if place is not None else
                      f"{p.name} {texts('rating_provisional')}",
                      "trend": [[day, shown(r)] for day, r in trends.get((game, p.user_id), [])]}
                     for place, p in zip(ranks, (*placings, *unranked), strict=True)]}


async def weeks_section(store: PageStore, texts: Texts, chat_id: int, now: float
                        ) -> dict[str, Any]:
    """The rounds won in each of the last WEEKS calendar weeks (Monday to Sunday, UTC), the
    last this week so far: as the group's kept weeks count them (schema step 39)."""
    last = week_of(now)
    weeks = await store.weeks(chat_id, last - WEEKS + 1, WEEKS)
    return {"kind": "weeks", "title": texts("webapp_weeks_title"),
            "from": day_of((last - WEEKS + 1) * WEEK - MONDAY), "to": day_of(now),
            "weeks": weeks}


def week_of(moment: float) -> int:
    """A moment's calendar week, numbered from the one 1970-01-01 fell in (schema step 39's
    number, worked out by the same floating-point steps)."""
    return math.floor((moment + MONDAY) / WEEK)


async def records_section(store: PageStore, texts: Texts, chat_id: int) -> dict[str, Any]:
    words = {"fastest": "webapp_fastest", "run": "webapp_most_wins_run",
             "wins": "webapp_most_wins"}
    items = []
    for record in await store.group_records(chat_id):
        value = texts.seconds(record.value) if record.kind == "fastest" \
            else texts.number(int(record.value))
        items.append({"label": texts(words[record.kind], game=texts.game(record.game)),
                      "value": value, "detail": record.name})
    return {"kind": "records", "title": texts("webapp_records_title"), "items": items}


async def hands_section(store: PageStore, texts: Texts, chat_id: int, now: float,
                        start: str) -> dict[str, Any]:
    """The HANDS hardest hands won this season, each with who solved it and how fast (at the
    highest level it was won at, its latest win there)."""
    since, chooser = moment_of(start), HardestOf[WonRound](by_level=True)
    first = await store.won_rounds(chat_id, since, WON_READ, FIRST_READ, 0)
    won = chooser.take(first)
    if not chooser.done and len(first) == FIRST_READ:
        won += chooser.take(await store.won_rounds(chat_id, since, WON_READ,
                                                   WON_READ - FIRST_READ, FIRST_READ))
    solved = [(r.game, r.level, numbers, r.target) for r, numbers in won]
    return {"kind": "hands", "title": texts("webapp_hands_title"),
            "items": [hand_item(texts, *won[index]) for index in
                      await ranked(store, solved, HANDS)]}


def hand_item(texts: Texts, won: WonRound, numbers: list[int]) -> dict[str, Any]:
    return {"label": hand_text(texts, numbers, won.target), "hand": "label",
            "value": texts.seconds(won.seconds) if won.seconds is not None else "",
            "detail": separator(texts).join(
                part for part in (level_name(texts, won.game, won.level), won.name or "") if part)}
