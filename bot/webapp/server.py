"""The Mini App's HTTP side: the page, and a small JSON API it calls with Telegram's signed
`initData` — `POST /webapp/api/round` (the round to show), `POST /webapp/api/answer` (the
answer made there), `POST /webapp/api/next` (a private chat's next hand, which its page
follows: a streak's, a storm's), `POST /webapp/api/start` (a streak, a storm or a practice hand
started from a private chat's page), and the pages' `POST /webapp/api/page` and
`POST /webapp/api/card` (a player's or a group's page, a player's share card:
bot.webapp.pages_api).
Mounted beside /telegram by the webhook's server (`webapp_routes`), or served by its own small
server when the bot polls (`serve`: bot.webapp.page_server); the composition root (bot.wiring)
does either. Past one
process the Mini App role serves the same routes with each request relayed (bot.webapp.relayed)
to the worker owning the round, whose Face answers it here.

This is a face of its own beside bot.telegram, and knows nothing of it nor of any game: play
describes each round's page (bot.play.round.page: tiles and a target, or a table of rolls; an
answer made by combining tiles or by typing a number; the words), the page draws it, and what
it sends back is turned into the text a typed answer would be and judged by the same service
(`rounds.answer(..., explicit=True)`: the same first-correct race in the database, the same
live-round and early-end rules), with a target that shows the chat only what the whole chat must
see (a result, the deal rewritten); the rest is the page's verdict, in the bot's words. What it
needs of the bot (whether this process leads, whether a user is in a group, the fair lane) it is
handed.

Who may see or answer a round is only what Telegram signed (bot.webapp.init_data): the user, the
time the page was opened (`auth_date`, not before the round began, give or take the second its
deal was on screen before its clock started; for a private chat's own page, which follows its
person's hands there, FOLLOWING) and, from a group's Direct Link, the start
parameter naming the chat, topic and round (`<chat>_<topic>_<round>`). A private
chat's round is its own person's alone, whatever a start parameter names (a start parameter is
whatever the link said); a group's round is shown and answered only for its members. Whatever
does not check gets its refusal and changes nothing. A page or a card is its player's alone,
or a group's page its members' (asked of Telegram as for a round: `member`). Every
response carries a Content-Security-Policy that lets only Telegram's web clients frame the page,
and a charset.

Every request draws on its asker's budget first (bot.webapp.door: the budget their updates draw
on too, bot.runtime.doors), and one about a group's round or page on the group's too once the
asker is known to be in it (`Face.in_chat`); past either it is refused at once, 429 (or 503 past
everyone's) with Retry-After. Within it, one user's submissions are served one at a time: each
goes through the bot's fair lane (as a "submission" of that user, beside their typed answers),
and inside it waits for that user's own lock, so a second submission waits for the first one's
verdict, as typed answers of one user never overtake each other.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from http import HTTPStatus
from pathlib import Path
from typing import Any

import tornado.web
from tornado.routing import PathMatches, Rule

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Closed, Dealt, Outcome, Said
from bot.play.ports import Round, Target
from bot.play.round.page import describe, form_of, word
from bot.play.services import Services
from bot.runtime.doors import ANSWER, VIEW, Doors, Refused, chat_key
from bot.runtime.locks import KeyedLocks
from bot.text.html_text import visible_text
from bot.text.i18n import language_of, texts_for
from bot.webapp import door, pages_api
from bot.webapp.api import CSP, SECURE, Act, Endpoint, Lane, Speaker, words_of
from bot.webapp.api import refusal_language as api_refusal_language
from bot.webapp.init_data import Signed, Unsigned, claimed, verify
from bot.webapp.page_server import PageFile, PageServer
from bot.webapp.page_wire import answer_text, page_json, verdict
from bot.webapp.refusal import Refusal
from bot.webapp.same_page import SamePage
from bot.webapp.settings import WebappSettings, read_settings
from bot.webapp.slack import Submit
from bot.webapp.tickets import Ticket, read_ticket, ticket_of

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
PREFIX = "/webapp"
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}  # the page's files
PAGE_FILES = ("app.js", "app.css", "pages.js", "pages.css")  # beside index.html
# A round's clock starts when the bot hears its deal went, but Telegram shows the deal as it
# takes it, a round trip earlier: a page opened in that moment has a whole second (auth_date)
# before the clock's. An opening before that is another round's (a private page's initData
# kept and posted again), refused.
SHOWN_BEFORE_STARTED = 1.0
SOLO_MODES = ("streak", "storm", "practice")  # what a private page may start once its round ends
# A private chat's page, opened from its own button, follows its person's hands there (a
# streak's or a storm's next, dealt while it is open: `Face.following`): its initData, signed
# as it opened, stays good for that chat's rounds begun this long after (a storm's clock is
# three minutes by default; a streak of ten hands takes about as long). The chat is its person's
# alone either way; past this the page is opened again from the newest deal's button.
FOLLOWING = 900.0


Belongs = Callable[[int, int], Awaitable[bool | None]]
"""Whether a user is in a group (None: Telegram can't tell now)."""
class Face:
    """The Mini App of one bot: checks initData against its token, judges by its services."""

    def __init__(self, services: Services, token: str,
                 leading: Callable[[], bool], belongs: Belongs, submit: Submit,
                 clock: Callable[[], float] | None = None, doors: Doors | None = None) -> None:
        self.services = services
        self.token = token
        self.leading = leading
        self.belongs = belongs
        self.submit = submit
        self.clock = clock
        self.doors = doors  # the budgets the bot's updates draw on too (None: none)
        self._turns = KeyedLocks()  # one submission of a user at a time
        self.same_page = SamePage()  # pages waiting for their turn, shared by their askers

    def now(self) -> float:
        if self.clock is not None:
            return self.clock()
        return self.services.table.clock()

    def signed_of(self, body: dict[str, Any]) -> Signed:
        """The user Telegram signed the request for; else Refusal."""
        if not self.leading():  # a standby, or still starting
            raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "not ready", "try_again")
        try:
            return verify(body.get("init_data"), self.token, self.now())
        except Unsigned as error:
            raise Refusal(HTTPStatus.FORBIDDEN, str(error)) from None

    def signed_ticket(self, body: dict[str, Any]) -> tuple[Signed, Ticket]:
        """The signed user and the round the request names, as written; else Refusal."""
        signed = self.signed_of(body)
        ticket = read_ticket(body.get("round"))
        if ticket is None:
            raise Refusal(HTTPStatus.BAD_REQUEST, "no round")
        return signed, ticket

    def admit(self, body: dict[str, Any]) -> tuple[Signed, Ticket, Round]:
        """The signed user, and the open round the request may act on; else Refusal."""
        signed, ticket = self.signed_ticket(body)
        if ticket.chat_id > 0 and ticket.chat_id != signed.user_id:  # Telegram gives private
            raise Refusal(HTTPStatus.FORBIDDEN, "another person's private chat")  # chats their id
        if signed.start_param is not None:
            if signed.start_param != ticket.text:
                raise Refusal(HTTPStatus.FORBIDDEN, "the link was for another round")
        elif (ticket.chat_id, ticket.topic) != (signed.user_id, 0):
            raise Refusal(HTTPStatus.FORBIDDEN, "a private chat's page answers only there")
        record = self.services.rounds.open_round(ticket.chat_id, ticket.topic)
        if record is None or record.id != ticket.round_id:
            raise Refusal(HTTPStatus.GONE, "over", "over")
        if signed.auth_date < math.floor(record.started_at - opened_before(signed, ticket)):
            raise Refusal(HTTPStatus.FORBIDDEN, "opened before the round began")
        return signed, ticket, record

    def own_private(self, body: dict[str, Any]) -> tuple[Signed, Ticket]:
        """The signed person and the page's ticket, for what only a private chat's own page
        does (follow its hands, start a solo mode there); else Refusal. A page naming no round
        (opened from the bot's menu button) is the person's own chat's, before any round."""
        if body.get("round") in (None, ""):
            signed = self.signed_of(body)
            ticket = Ticket(signed.user_id, 0, 0)
        else:
            signed, ticket = self.signed_ticket(body)
        if (ticket.chat_id, ticket.topic) != (signed.user_id, 0) or \
                signed.start_param is not None:
            raise Refusal(HTTPStatus.FORBIDDEN, "only a private chat's own page")
        return signed, ticket

    async def start_mode(self, body: dict[str, Any]) -> dict[str, Any]:
        """A streak, a storm or a practice hand started from the person's private page once
        its round is over, as the command typed in the chat starts it (its deal shown there;
        the page follows it): whether a hand was dealt, and the bot's words when not (a
        streak on, a round on...). One submission of the person at a time, in the fair lane."""
        signed, ticket = self.own_private(body)
        mode = body.get("mode")
        if mode not in SOLO_MODES:
            raise Refusal(HTTPStatus.BAD_REQUEST, "no such mode", "unreadable")
        if signed.auth_date < math.floor(self.now() - FOLLOWING):  # a page kept, or copied
            raise Refusal(HTTPStatus.FORBIDDEN, "the page was opened too long ago")
        async with self.in_chat(ticket.chat_id, signed.user_id, ANSWER):
            started: list[Outcome] = []

            async def start() -> None:
                chat, player = Chat(ticket.chat_id, "private"), player_of(signed)
                target = Target(ticket.chat_id, 0)
                services = self.services
                starts = {"streak": services.streaks.start, "storm": services.storms.start,
                          "practice": services.practice.start}
                async with self._turns.held(signed.user_id):
                    started.append(await starts[mode](chat, player, target))

            await self.submit(signed.user_id, ticket.chat_id, start())
        if not started:  # its work was closed unrun: the process is stopping
            raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "stopping", "try_again")
        dealt = isinstance(started[0], Dealt)
        return {"dealt": dealt, "text": "" if dealt else visible_text(started[0].text)}

    async def following(self, body: dict[str, Any]) -> dict[str, Any]:
        """The round after the page's in its person's own private chat — a streak's or a
        storm's next hand, dealt while the page is open — once it is dealt: its ticket (None:
        none yet; the page asks again a few times). Only for a private chat's own page, opened
        from its button (a start parameter ties a page to its one round)."""
        signed, ticket = self.own_private(body)
        async with self.in_chat(ticket.chat_id, signed.user_id, VIEW):
            record = self.services.rounds.open_round(ticket.chat_id)
            if record is None or record.id <= ticket.round_id or \
                    signed.auth_date < math.floor(record.started_at - FOLLOWING):
                return {"round": None}
            return {"round": ticket_of(record).text}

    async def show(self, body: dict[str, Any]) -> dict[str, Any]:
        """The round's page as play describes it, in the user's words: only for one who may
        answer it (a group's member; a private chat's own person). Once the round is over, its
        page says so, and what every solution of its hand needs (`over`)."""
        try:
            signed, ticket, record = self.admit(body)
        except Refusal as refusal:
            raise await self.over(body, refusal) from None
        async with self.in_chat(ticket.chat_id, signed.user_id, VIEW):
            page = describe(record, texts_for(language_of(signed.language_code)), self.now())
        return {**page_json(page), "name": signed.first_name}

    async def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        """Judge the answer made on the page as the typed answer it makes, one submission of a
        user at a time."""
        try:
            signed, ticket, record = self.admit(body)
        except Refusal as refusal:
            raise await self.over(body, refusal) from None
        async with self.in_chat(ticket.chat_id, signed.user_id, ANSWER):
            text = answer_text(form_of(record), record.hand, body)
            judged: list[dict[str, Any]] = []

            async def judge() -> None:
                async with self._turns.held(signed.user_id):
                    judged.append(await self._judge(signed, ticket, text))

            await self.submit(signed.user_id, ticket.chat_id, judge())
        if not judged:  # its work was closed unrun: the process is stopping
            raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "stopping", "try_again")
        return judged[0]

    def refusal_language(self, body: dict[str, Any]) -> str:
        return refusal_language(body)

    async def over(self, body: dict[str, Any], refusal: Refusal) -> Refusal:
        """A round that is over (410), with a line under it for a member of its chat: what every
        solution of its hand needs (docs/themes.md), as its result showed the solutions there,
        and for one who answered it and missed, the coach's line (bot.play.coaching); nothing
        while its hand is live elsewhere (a tournament's other groups, another chat's round, the
        daily), when it showed none. Any other refusal as it was."""
        if refusal.status != HTTPStatus.GONE:
            return refusal
        signed = verify(body.get("init_data"), self.token, self.now())  # admit checked both
        ticket = read_ticket(body.get("round"))
        assert ticket is not None
        await self.member(ticket.chat_id, signed.user_id)
        services = self.services
        chat = services.people.chat_of(ticket.chat_id, ticket.topic)
        ended = await services.rounds.shown_ended(chat, ticket.round_id)
        if ended is None:
            return refusal
        texts = texts_for(language_of(signed.language_code))
        line = await services.solving.themes_line(ended.hand, ended.target, texts)
        player = player_of(signed)
        coached = await services.coaching.line(chat, player, ended.id, texts)
        if isinstance(coached, Said):
            line = "\n".join(filter(None, [line, visible_text(coached.text)]))
        return Refusal(refusal.status, refusal.why, refusal.said, after=line)

    async def _judge(self, signed: Signed, ticket: Ticket, expression: str) -> dict[str, Any]:
        services = self.services
        chat = services.people.chat_of(ticket.chat_id, ticket.topic)
        player = player_of(signed)
        outcome = await services.rounds.answer(
            chat, player, expression, explicit=True,
            target=Target(ticket.chat_id, ticket.topic, public_only=True))
        current = services.rounds.open_round(ticket.chat_id, ticket.topic)
        over = current is None or current.id != ticket.round_id
        won = False  # a result is not always a win: a miss ends a streak's or a storm's hand
        if isinstance(outcome, Closed):
            ended = await services.rounds.find_round(ticket.round_id)
            won = ended is not None and ended.status == "won"
        return {**verdict(outcome, expression, won), "over": over}

    @asynccontextmanager
    async def in_chat(self, chat_id: int, user_id: int, kind: str) -> AsyncIterator[None]:
        """Work of the user's about a chat: only once they are known to be in it (`member`),
        and drawn on the chat's budget then (everyone's in it together, their updates' too);
        Refusal (429) past it."""
        await self.member(chat_id, user_id)
        key = chat_key(chat_id, user_id)
        if self.doors is None or key is None:
            yield
            return
        admitted = self.doors.enter(kind, key)
        if isinstance(admitted, Refused):
            raise door.refused(admitted)
        try:
            yield
        finally:
            self.doors.leave(admitted)

    async def member(self, chat_id: int, user_id: int) -> None:
        """Refusal unless the user is in the group (a start parameter names any chat: a link
        to another group's round must not show or let a stranger answer there); what Telegram
        can't tell grants nothing (try again). What the bot knows already answers before any
        look-up (`belongs`: bot.telegram.members — a member Telegram said left, a group the bot
        is not in, an answer of the last minute), so a stranger's link costs Telegram nothing.
        A private chat is never asked about: `admit` let in only its own person."""
        if chat_id > 0:
            return
        belongs = await self.belongs(chat_id, user_id)
        if belongs is None:
            raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "try again", "try_again")
        if not belongs:
            raise Refusal(HTTPStatus.FORBIDDEN, "not a member of the group", "not_member")


def opened_before(signed: Signed, ticket: Ticket) -> float:
    """How long before a round began the page asking about it may have been opened: a second
    (the deal on screen before its clock started), or a private chat's own page following its
    person's hands there (FOLLOWING)."""
    following = ticket.chat_id > 0 and signed.start_param is None
    return FOLLOWING if following else SHOWN_BEFORE_STARTED


def refusal_language(body: dict[str, Any]) -> str:
    """The language a refusal is said in (bot.webapp.api.refusal_language)."""
    return api_refusal_language(body, claimed(body.get("init_data")))


async def _show(face: Face, body: dict[str, Any]) -> dict[str, Any]:
    return await face.show(body)


async def _answer(face: Face, body: dict[str, Any]) -> dict[str, Any]:
    return await face.answer(body)


async def _next(face: Face, body: dict[str, Any]) -> dict[str, Any]:
    return await face.following(body)


async def _start(face: Face, body: dict[str, Any]) -> dict[str, Any]:
    return await face.start_mode(body)


def access_log(handler: tornado.web.RequestHandler) -> None:
    """A request for the page's files in the log, at DEBUG (the API's log their own:
    bot.webapp.api)."""
    log.debug("webapp %d %s %s", handler.get_status(), handler.request.method,
              handler.request.path)


class PageHandler(tornado.web.StaticFileHandler):
    """The page and its script and style, never cached long (a new version is seen at once),
    each with its charset."""

    def set_default_headers(self) -> None:
        for name, value in SECURE.items():
            self.set_header(name, value)

    def access_log(self) -> None:
        access_log(self)

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Cache-Control", "no-cache")

    def get_content_type(self) -> str:
        return content_type(Path(self.absolute_path or ""))


# the API's endpoints (/webapp/api/<name>) and what answers each in the process holding rounds
ACTS: dict[str, Act] = {"round": _show, "answer": _answer, "next": _next, "start": _start,
                        "page": pages_api.page, "card": pages_api.card}


def endpoints(face: Speaker, acts: Mapping[str, Act] | None = None) -> dict[str, Endpoint]:
    """The API's endpoints by URL path; `acts` other than the bot's own: the Mini App role's,
    which relay each (bot.webapp.relayed). One lane for them all."""
    acts = ACTS if acts is None else acts
    words, lane = words_of(word), Lane()
    return {f"{PREFIX}/api/{name}": Endpoint(face, act, name, words, lane)
            for name, act in acts.items()}


def webapp_routes(face: Speaker, acts: Mapping[str, Act] | None = None) -> list[Rule]:
    """The Mini App's routes, for the webhook's tornado Application: the API's endpoints
    (bot.webapp.api) and the page's files."""
    return [
        *(Rule(PathMatches(path), endpoint) for path, endpoint in endpoints(face, acts).items()),
        Rule(PathMatches(rf"{PREFIX}/()"), PageHandler,
             {"path": str(STATIC), "default_filename": "index.html"}),
        Rule(PathMatches(rf"{PREFIX}/({'|'.join(map(re.escape, PAGE_FILES))})"), PageHandler,
             {"path": str(STATIC)}),
    ]


def page_files() -> dict[str, PageFile]:
    """The page's files by URL path, as the page's own server serves them."""
    named = {"": "index.html", **{name: name for name in PAGE_FILES}}
    return {f"{PREFIX}/{path}": PageFile(STATIC / name, content_type(STATIC / name))
            for path, name in named.items()}


def content_type(path: Path) -> str:
    """Its own types (not the machine's mime table), each with its charset."""
    return f"{TYPES[path.suffix]}; charset=utf-8"


async def serve(face: Speaker, port: int, listen: str = "127.0.0.1",
                acts: Mapping[str, Act] | None = None) -> tuple[PageServer, int]:
    """The page's own server started on a port (0: any free one); it and its port."""
    server = PageServer(endpoints(face, acts), page_files())
    return server, await server.listen(port, listen)


__all__ = ["CSP", "PREFIX", "Face", "Refusal", "WebappSettings", "read_settings", "serve",
           "webapp_routes"]


def player_of(signed: Signed) -> Player:
    """The person Telegram vouches for, as play knows a player."""
    return Player(signed.user_id, signed.first_name, signed.username, signed.language_code)
