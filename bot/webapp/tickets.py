"""Which round a Mini App page is for, and the links that open the Mini App from a chat.

A round's page is named by a ticket, `<chat>_<topic>_<round>`: in a private chat's web_app button
as the URL's `round`, in a group's Direct Link as the start parameter Telegram signs
(bot.webapp.server checks it). A player's or a group's page is opened the same two ways, named
by its page parameter (bot.play.pages.links)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

from bot.play.pages import PageAsk, PageOpener
from bot.play.ports import PageLink, Round
from bot.webapp.settings import WebappSettings

TICKET = re.compile(r"(-?[1-9][0-9]{0,15})_([0-9]{1,12})_([1-9][0-9]{0,17})")


@dataclass(frozen=True)
class Ticket:
    """Which round a page is for: the chat, its forum topic (0: none), the round's id."""

    chat_id: int
    topic: int
    round_id: int

    @property
    def text(self) -> str:
        return f"{self.chat_id}_{self.topic}_{self.round_id}"


def ticket_of(round_: Round) -> Ticket:
    return Ticket(round_.chat_id, round_.topic, round_.id)


def read_ticket(text: object) -> Ticket | None:
    if not isinstance(text, str) or not (found := TICKET.fullmatch(text)):
        return None
    return Ticket(int(found.group(1)), int(found.group(2)), int(found.group(3)))


def page_url(base: str, ticket: Ticket) -> str:
    """The page for a round, as a private chat's web_app button opens it."""
    return f"{base}{'&' if '?' in base else '?'}round={ticket.text}"


def opener(settings: WebappSettings, bot_username: str | None
           ) -> Callable[[Round], PageLink | None]:
    """The Mini App's button under a deal of every game: in a private chat a web_app button (the
    page with the round in its URL), in a group the Direct Link (https://t.me/<bot>/<short
    name>?startapp=..., Telegram signs the start parameter); none in a group when no short name
    is set."""
    def button(round_: Round) -> PageLink | None:
        ticket = ticket_of(round_)
        if round_.chat_id > 0:  # Telegram gives private chats the user's id
            return PageLink(page_url(settings.url, ticket), web_app=True)
        if settings.short_name is None or not bot_username:
            return None
        return PageLink(f"https://t.me/{quote(bot_username)}/{quote(settings.short_name)}"
                        f"?startapp={ticket.text}", web_app=False)
    return button


def page_opener(settings: WebappSettings, bot_username: str | None) -> PageOpener:
    """What opens a player's or a group's page from a chat: in a private chat a web_app button
    (the page named in its URL), in a group the Direct Link with the page as its start
    parameter (none without a short name), as a round's button (`opener`)."""
    def link(ask: PageAsk, chat_id: int) -> PageLink | None:
        if chat_id > 0:
            base = settings.url
            card = f"&card={quote(ask.card)}" if ask.card else ""
            return PageLink(f"{base}{'&' if '?' in base else '?'}page={ask.param}{card}",
                            web_app=True)
        if settings.short_name is None or not bot_username:
            return None
        return PageLink(f"https://t.me/{quote(bot_username)}/{quote(settings.short_name)}"
                        f"?startapp={ask.param}", web_app=False)
    return link
