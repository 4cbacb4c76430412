"""The Mini App's pages of a player, of a group (issue 47) and of a tournament: each one JSON
object made in one request, worded in the asker's language, as a list of sections the page
draws. Who may see which page is the Mini App face's to check (bot.webapp.pages_api); the links
that open them from /stats, /top and /tournament are made here from the face's opener
(`links`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.play.cards import daily_card, is_live, season_card
from bot.play.cards.drawn import Drawn
from bot.play.games import GAMES
from bot.play.pages.badges import group_badges, player_badges
from bot.play.pages.group import group_page
from bot.play.pages.links import PageAsk, PageOpener, read_page
from bot.play.pages.player import player_page
from bot.play.pages.sharing import (
    DailyFacts,
    daily_of_player,
    offer_daily,
    read_day,
    season_of_player,
)
from bot.play.pages.themes import Held
from bot.play.pages.tournament import Readers, readers, tournament_page
from bot.play.ports import PageLink
from bot.store.protocols import AchievementStore, PageStore, RatingStore
from bot.store.sql.pages import NOBODY
from bot.store.tournament_store import TournamentStore
from bot.text.i18n import Texts

# the page's own words besides each section's: a refusal's, an empty page's
WORDS = ("failed", "page_forbidden", "not_member", "try_again", "not_yours", "expired",
         "nothing", "no_daily", "not_concerned")


class Pages:
    def __init__(self, store: PageStore, ratings: RatingStore,
                 clock: Callable[[], float] = time.time,
                 links: PageOpener | None = None,
                 achievements: AchievementStore | None = None,
                 daily: DailyFacts | None = None,
                 tournaments: TournamentStore | None = None,
                 held: Held | None = None, drawn: Drawn | None = None) -> None:
        self.store = store
        self.held = held  # whether a hand is live now (no theme is paired with it meanwhile)
        self.tournaments = tournaments  # a tournament's page reads its standings
        self.daily = daily  # the daily results a player's card is drawn from
        self.achievements = achievements
        self.ratings = ratings
        self.clock = clock
        self.links = links
        # a card asked for again with the same figures is not drawn again
        self.drawn = Drawn() if drawn is None else drawn

    async def player(self, user_id: int, name: str, texts: Texts) -> dict[str, Any]:
        """The player's own page: nobody's while their /forget is under way (their rows go
        a part at a time after the confirmation, and none is shown meanwhile)."""
        if await self.store.erasing(user_id):
            user_id = NOBODY
        page, badges = await asyncio.gather(
            player_page(self.store, texts, user_id, name, self.clock(), self.held),
            player_badges(self.achievements, texts, user_id) if self.achievements else none())
        if self.daily is not None:
            await offer_daily(self.daily, texts, user_id, page["sections"])
        if badges is not None:
            page["sections"].append(badges)
        return framed(texts, page)

    async def group(self, chat_id: int, texts: Texts) -> dict[str, Any]:
        """The group's page."""
        page, badges = await asyncio.gather(
            group_page(self.store, self.ratings, texts, chat_id, self.clock()),
            group_badges(self.achievements, texts, chat_id) if self.achievements else none())
        if badges is not None:
            page["sections"].append(badges)
        return framed(texts, page)

    async def tournament(self, tournament_id: int, texts: Texts) -> dict[str, Any] | None:
        """A tournament's page (None: no such tournament)."""
        if self.tournaments is None:
            return None
        page = await tournament_page(self.tournaments, texts, tournament_id, self.clock())
        return framed(texts, page) if page is not None else None

    async def tournament_readers(self, ask: PageAsk, user_id: int) -> Readers | None:
        """Who may see the tournament's page a link names, for this asker: anyone with its
        key, else the members of its chats, whom the face asks Telegram about (None: no
        such tournament)."""
        if self.tournaments is None:
            return None
        return await readers(self.tournaments, ask.id, ask.key, user_id)

    async def tournament_link(self, tournament_id: int, chat_id: int) -> PageLink | None:
        """What opens a tournament's page from a chat, if the Mini App is set: with its key
        (its code), so that whoever the bot shows it to may open it."""
        if self.links is None or self.tournaments is None:
            return None
        tournament = await self.tournaments.get(tournament_id)
        if tournament is None:
            return None
        return self.links(PageAsk("tournament", tournament_id, key=tournament.code), chat_id)

    @staticmethod
    def has_game(game: object) -> bool:
        """Whether a game's card may be asked for (what a page sends is anything)."""
        return isinstance(game, str) and game in GAMES

    async def season_card(self, user_id: int, name: str, game: str,
                          texts: Texts) -> bytes | None:
        """The player's season in the game as a share card (PNG); None before their first
        rated round in it this season. Drawn off the event loop (about 20 ms of CPU), once for
        the same figures (bot.play.cards.drawn)."""
        card = await season_of_player(self.store, user_id, name, game, self.clock())
        if card is None:
            return None
        return await self.drawn.png(user_id, ("season", card, texts.language),
                                    partial(season_card, card, texts.language))

    @staticmethod
    def day_asked(day: object) -> str | None:
        """The day a request names for a daily card ("2026-11-24"), or None: none that
        exists."""
        return read_day(day)

    def daily_game(self, game: object) -> str | None:
        """The game a request names for a daily card, if it has a daily (None: none named, or
        no such daily: what a page sends is anything)."""
        return game if self.daily is not None and game in self.daily.games() else None

    async def daily_card(self, user_id: int, name: str, day: str | None,
                         texts: Texts, game: str | None = None) -> bytes | None:
        """The player's own daily result of the day in a game's daily (None: their latest) as
        a share card (PNG); None when they have none that day. While the day is live (until its
        midnight UTC, by this clock) its tiles are drawn face down. Off the event loop, as a
        season's."""
        if self.daily is None:
            return None
        card = await daily_of_player(self.daily, user_id, name, day, game)
        if card is None:
            return None
        now = self.clock()  # the picture changes with it only when the day stops being live
        return await self.drawn.png(user_id, ("daily", card, texts.language,
                                              is_live(card.day, now)),
                                    partial(daily_card, card, texts.language, now))

    def daily_card_link(self, chat_id: int, user_id: int) -> PageLink | None:
        """What opens the player's page on their daily result's card, from their private chat
        (a Direct Link of a group names the page alone); None without the Mini App."""
        if self.links is None or chat_id <= 0 or self.daily is None:
            return None
        return self.links(PageAsk("player", user_id, card="daily"), chat_id)

    def player_link(self, chat_id: int, user_id: int) -> PageLink | None:
        """What opens the player's page from a chat (/stats), if the Mini App is set."""
        return self.links(PageAsk("player", user_id), chat_id) if self.links else None

    def group_link(self, chat_id: int) -> PageLink | None:
        """What opens a group's page from it (/top), if the Mini App is set."""
        if self.links is None or chat_id > 0:
            return None
        return self.links(PageAsk("group", chat_id), chat_id)


async def none() -> None:
    """What a page without achievements reads for them."""


def framed(texts: Texts, page: dict[str, Any]) -> dict[str, Any]:
    """A page with what every page carries: its language, direction, digits and words."""
    script = texts.script
    return {**page, "language": texts.language,
            "direction": "rtl" if script.right_to_left else "ltr", "digits": script.digits,
            "words": {name: texts(f"webapp_{name}") for name in WORDS}}


__all__ = ["PageAsk", "PageOpener", "Pages", "Readers", "read_page"]
