"""The Mini App's pages of a player and of a group (issue 47): each one JSON object made in one
request, worded in the asker's language, as a list of sections the page draws. Who may see
which page is the Mini App face's to check (bot.webapp.server); the links that open them from
/stats and /top are made here from the face's opener (`links`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bot.play.pages.group import group_page
from bot.play.pages.links import PageAsk, PageOpener, read_page
from bot.play.pages.player import player_page
from bot.play.ports import PageLink
from bot.store.protocols import PageStore, RatingStore
from bot.text.i18n import Texts

# the page's own words besides each section's: a refusal's, an empty page's
WORDS = ("failed", "page_forbidden", "not_member", "try_again", "not_yours", "expired",
         "nothing")


class Pages:
    def __init__(self, store: PageStore, ratings: RatingStore,
                 clock: Callable[[], float] = time.time,
                 links: PageOpener | None = None) -> None:
        self.store = store
        self.ratings = ratings
        self.clock = clock
        self.links = links

    async def player(self, user_id: int, name: str, texts: Texts) -> dict[str, Any]:
        """The player's own page."""
        return framed(texts, await player_page(self.store, texts, user_id, name, self.clock()))

    async def group(self, chat_id: int, texts: Texts) -> dict[str, Any]:
        """The group's page."""
        return framed(texts, await group_page(self.store, self.ratings, texts, chat_id,
                                              self.clock()))

    def player_link(self, chat_id: int, user_id: int) -> PageLink | None:
        """What opens the player's page from a chat (/stats), if the Mini App is set."""
        return self.links(PageAsk("player", user_id), chat_id) if self.links else None

    def group_link(self, chat_id: int) -> PageLink | None:
        """What opens a group's page from it (/top), if the Mini App is set."""
        if self.links is None or chat_id > 0:
            return None
        return self.links(PageAsk("group", chat_id), chat_id)


def framed(texts: Texts, page: dict[str, Any]) -> dict[str, Any]:
    """A page with what every page carries: its language, direction, digits and words."""
    script = texts.script
    return {**page, "language": texts.language,
            "direction": "rtl" if script.right_to_left else "ltr", "digits": script.digits,
            "words": {name: texts(f"webapp_{name}") for name in WORDS}}


__all__ = ["PageAsk", "PageOpener", "Pages", "read_page"]
