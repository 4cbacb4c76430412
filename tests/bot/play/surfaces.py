"""Each surface's figures for a person, read as the person reads them: /stats's, the boards' and
/daily's English text parsed line by line, the Mini App pages' JSON, the season card's figures
(what it is drawn from). tests/bot/play/test_counts_agree.py compares them with one another and
with the definitions (tests/bot/play/counts.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.play.cards import SeasonCard
from bot.play.chats.people import Chat, Player
from bot.play.community.boards import BoardAsk
from bot.play.pages.sharing import season_of_player
from bot.play.services import Services
from bot.store.stores import Stores

NUMBER = r"(\d[\d,]*)"
STATS_GAME = re.compile(
    rf"^(?P<game>.+?): {NUMBER} points?, {NUMBER} wins? in {NUMBER} rounds?\. "
    rf"Fastest win: (?P<fastest>.+?)\. Streak: {NUMBER} \(best {NUMBER}\)\.$")
STATS_RATING = re.compile(
    rf"^🎯 (?P<game>.+?) rating this season: {NUMBER} ±{NUMBER}, from {NUMBER} rounds? you "
    r"dealt, answered or passed in, in all chats \(the daily puzzle counts too\)\.$")
TOP_LINE = re.compile(rf"^{NUMBER}\. (?P<name>.+?) — {NUMBER} points?, {NUMBER} wins?$")
DAILY_STREAK = re.compile(rf"🔥 Streak: {NUMBER} \(best {NUMBER}\)\.")
RATING_LINE = re.compile(rf"^(?:{NUMBER}\.|•) (?P<name>.+?) — {NUMBER} ±{NUMBER} "
                         rf"\({NUMBER} rounds?\)$")


def whole(text: str) -> int:
    return int(text.replace(",", ""))


@dataclass(frozen=True)
class StatsLine:
    """A game's line of /stats: points, wins, rounds, the fastest win as written, streaks."""

    points: int
    wins: int
    rounds: int
    fastest: str
    streak: int
    best: int


@dataclass(frozen=True)
class Shown:
    """What /stats says of a person in a chat: a line per game played there, and the rating
    of each rated game this season (shown rating, rounds it is from)."""

    games: dict[str, StatsLine]
    ratings: dict[str, tuple[int, int]]


async def stats(services: Services, chat: Chat, player: Player, names: dict[str, str]
                ) -> Shown:
    """/stats in the chat, parsed; a line it does not know fails the test (a figure added to
    the reply would otherwise go unchecked)."""
    text = await services.community.standings.stats(chat, player)
    games: dict[str, StatsLine] = {}
    ratings: dict[str, tuple[int, int]] = {}
    lines = text.splitlines()
    for line in lines[1:]:
        if (found := STATS_GAME.match(line)) is not None:
            _, points, wins, rounds, _, streak, best = found.groups()
            games[names[found["game"]]] = StatsLine(whole(points), whole(wins), whole(rounds),
                                                    found["fastest"], whole(streak), whole(best))
        elif (found := STATS_RATING.match(line)) is not None:
            _, rating, _, count = found.groups()
            ratings[names[found["game"]]] = (whole(rating), whole(count))
        else:
            assert line.startswith("Best season: "), line
    return Shown(games, ratings)


async def board(services: Services, chat: Chat, player: Player, ask: BoardAsk
                ) -> dict[str, tuple[int, int]]:
    """A board's lines as name -> (points, wins): the first ten and the asker's own line."""
    text = await services.community.standings.board(chat, player, ask)
    found = {}
    for line in text.splitlines():
        if (line_found := TOP_LINE.match(line)) is not None:
            _, name, points, wins = line_found.groups()
            found[name] = (whole(points), whole(wins))
    return found


async def rating_board(services: Services, chat: Chat, player: Player, everywhere: bool,
                       game: str) -> dict[str, tuple[int, int]]:
    """/top rating's lines as name -> (shown rating, rounds it is from): ranked, provisional
    and the asker's own."""
    text = await services.community.standings.board(
        chat, player, BoardAsk("rating", everywhere, game))
    found = {}
    for line in text.splitlines():
        if (line_found := RATING_LINE.match(line)) is not None:
            _, name, rating, _, count = line_found.groups()
            found[name] = (whole(rating), whole(count))
    return found


def section(page: dict[str, Any], kind: str) -> dict[str, Any]:
    [found] = [s for s in page["sections"] if s["kind"] == kind]
    return found


async def player_page(services: Services, player: Player, chat: Chat) -> dict[str, Any]:
    texts = await services.people.texts(chat, player)
    return await services.pages.player(player.id, player.first_name, texts)


async def group_page(services: Services, chat: Chat, player: Player) -> dict[str, Any]:
    texts = await services.people.texts(chat, player)
    return await services.pages.group(chat.id, texts)


async def season_card(stores: Stores, player: Player, game: str, now: float
                      ) -> SeasonCard | None:
    """The figures the player's season card of the game is drawn from (None: no card)."""
    return await season_of_player(stores.pages, player.id, player.first_name, game, now)


async def daily_streak(services: Services, player: Player) -> tuple[int, int] | None:
    """/daily in the player's private chat: their streak and best streak of days solved, as
    its reply says them once today's puzzle is solved (None: it does not say them)."""
    reply = await services.community.daily.show(Chat(player.id, "private"), player)
    found = DAILY_STREAK.search(reply.text)
    return (whole(found[1]), whole(found[2])) if found else None
