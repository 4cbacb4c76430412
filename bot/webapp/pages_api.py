"""The Mini App's pages (bot.play.pages), as the server's endpoints answer them:
`POST /webapp/api/page` (a player's, a group's or a tournament's page) and
`POST /webapp/api/card` (a player's share card, PNG in base64: a season's, or a daily puzzle
result's).

Who asks is only what Telegram signed, within PAGE_AGE; from a Direct Link only the page it
named. A player's page and cards are that player's alone (a card is drawn from their own
records only, whatever the request names); a group's page is its current members' (Telegram
asked, as for a round); a tournament's page is for whoever holds a link with its key (its code)
or is in one of its groups or of the chats that follow it. A daily card names its day (else the
latest): one the asker has no result of is refused in their words. Words and rules are play's;
this checks and hands over.
"""

from __future__ import annotations

import base64
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from bot.play.pages import PageAsk, read_page
from bot.runtime.doors import PAGE
from bot.text.i18n import Texts, language_of, texts_for
from bot.webapp.init_data import Signed, Unsigned, verify
from bot.webapp.refusal import Refusal

if TYPE_CHECKING:
    from bot.webapp.server import Face

PAGE_AGE = 86400  # seconds a page's signed data stays good (a round's lasts its round)
SEASON, DAILY = "season", "daily"  # the cards a player may ask for


def signed_page(face: Face, body: dict[str, Any]) -> tuple[Signed, PageAsk, Texts]:
    """Who asks (Telegram's signature, within PAGE_AGE) for which page, from a Direct Link
    only the page it named; and the words of their language."""
    if not face.leading():
        raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "not ready", "try_again")
    try:
        signed = verify(body.get("init_data"), face.token, face.now())
    except Unsigned as error:
        raise Refusal(HTTPStatus.FORBIDDEN, str(error), "page_forbidden") from None
    if signed.auth_date < face.now() - PAGE_AGE:
        raise Refusal(HTTPStatus.FORBIDDEN, "signed too long ago", "expired")
    ask = read_page(body.get("page"))
    if ask is None:
        raise Refusal(HTTPStatus.BAD_REQUEST, "no page")
    if signed.start_param is not None and signed.start_param != ask.param:
        raise Refusal(HTTPStatus.FORBIDDEN, "the link was for another page", "page_forbidden")
    return signed, ask, texts_for(language_of(signed.language_code))


async def page(face: Face, body: dict[str, Any]) -> dict[str, Any]:
    """A player's page, only to that player; a group's, only to its members; a tournament's,
    only to those it concerns (`concerned`). Read with the bot's spare time (`bot.webapp.slack`)."""
    signed, ask, texts = signed_page(face, body)
    pages = face.services.pages
    asked = face.same_page.asked  # a page asked again while it waits: answered once, for all
    if ask.kind == "tournament":
        await concerned(face, ask, signed.user_id)
        found = await asked((ask.kind, ask.id, texts), face.submit, signed.user_id,
                            lambda: pages.tournament(ask.id, texts))
        if found is None:
            raise Refusal(HTTPStatus.NOT_FOUND, "no such tournament", "nothing")
        return found
    if ask.kind == "player":
        if ask.id != signed.user_id:
            raise Refusal(HTTPStatus.FORBIDDEN, "another person's page", "not_yours")
        return await asked((ask.kind, ask.id, signed.first_name, texts), face.submit,
                           signed.user_id, lambda: pages.player(ask.id, signed.first_name, texts))
    async with face.in_chat(ask.id, signed.user_id, PAGE):  # the group's budget too
        return await asked((ask.kind, ask.id, texts), face.submit, signed.user_id,
                           lambda: pages.group(ask.id, texts))


async def concerned(face: Face, ask: PageAsk, user_id: int) -> None:
    """Refusal unless the tournament's page is the asker's to see: the link carries its key, or
    they are in one of its groups or of the chats that follow it (Telegram asked, through
    `belongs`, about the chats play names); what Telegram can't tell grants nothing (try
    again)."""
    readers = await face.services.pages.tournament_readers(ask, user_id)
    if readers is None:
        raise Refusal(HTTPStatus.NOT_FOUND, "no such tournament", "nothing")
    if readers.anyone:
        return
    unsure = False
    for chat_id in readers.chats:
        belongs = await face.belongs(chat_id, user_id)
        if belongs:
            return
        unsure = unsure or belongs is None
    if unsure:
        raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "try again", "try_again")
    raise Refusal(HTTPStatus.FORBIDDEN, "in none of the tournament's chats", "not_concerned")


async def card(face: Face, body: dict[str, Any]) -> dict[str, Any]:
    """A player's share card, only to that player, checked as their page is: `card` "season"
    (the default) of a `game`, or "daily" of a `day` they have a result of in a `game`'s daily
    (none named: their latest; a day without a game: the first daily's)."""
    signed, ask, texts = signed_page(face, body)
    if ask.kind != "player" or ask.id != signed.user_id:
        raise Refusal(HTTPStatus.FORBIDDEN, "another person's card", "not_yours")
    kind, day, game = body.get("card", SEASON), body.get("day"), body.get("game")
    if kind not in (DAILY, SEASON):
        raise Refusal(HTTPStatus.BAD_REQUEST, "no such card")
    key = ("card", signed.user_id, signed.first_name, texts, kind, _told(day), _told(game))
    png = await face.same_page.asked(
        key, face.submit, signed.user_id,
        lambda: daily(face, signed, day, game, texts) if kind == DAILY
        else season(face, signed, game, texts))
    return {"png": base64.b64encode(png).decode("ascii")}


def _told(value: object) -> tuple[str, object]:
    """A request's field as a key tells it apart: its JSON type with the value, or its text
    where the value cannot be a key (a list, an object). With the type: 1, 1.0 and true are
    equal keys in Python, and a card asked for one must never be answered with another's."""
    kept = value if value is None or isinstance(value, str | int | float) else repr(value)
    return type(value).__name__, kept


async def season(face: Face, signed: Signed, game: object, texts: Texts) -> bytes:
    pages = face.services.pages
    if not pages.has_game(game):
        raise Refusal(HTTPStatus.BAD_REQUEST, "no such game")
    png = await pages.season_card(signed.user_id, signed.first_name, str(game), texts)
    if png is None:
        raise Refusal(HTTPStatus.NOT_FOUND, "no season yet", "nothing")
    return png


async def daily(face: Face, signed: Signed, day: object, game: object, texts: Texts) -> bytes:
    pages = face.services.pages
    asked = None if day is None else pages.day_asked(day)
    if day is not None and asked is None:
        raise Refusal(HTTPStatus.BAD_REQUEST, "no such day")
    daily_game = None if game is None else pages.daily_game(game)
    if game is not None and daily_game is None:
        raise Refusal(HTTPStatus.BAD_REQUEST, "no such daily")
    png = await pages.daily_card(signed.user_id, signed.first_name, asked, texts, daily_game)
    if png is None:
        raise Refusal(HTTPStatus.NOT_FOUND, "no daily result that day", "no_daily")
    return png
