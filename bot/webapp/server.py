"""The Mini App's HTTP side: the page, and a small JSON API it calls with Telegram's signed
`initData` — `POST /webapp/api/round` (the round to show) and `POST /webapp/api/answer` (the
steps tapped). Mounted beside /telegram by the webhook's server (`webapp_routes`), or served by
its own small server when the bot polls (`open_face`, from bot.telegram.lifecycle).

This is a face of its own beside bot.telegram: it turns a request into the play services'
`Chat` and `Player` and calls the same service a typed answer reaches
(`services.answers.answer(..., explicit=True)`: the same first-correct race in the database, the
same live-round and early-end rules). It imports bot.telegram.sending for one thing, to show a
win in the group by the one send path (`publish`), and registers there the Mini App's button
under a deal (`sending.open_with`); python-telegram-bot itself it never imports.

Who may answer is only what Telegram signed (bot.webapp.init_data): the user, the time the page
was opened (`auth_date`, not before the round began) and, from a group's Direct Link, the start
parameter naming the chat, topic and round (`<chat>_<topic>_<round>`); a page opened from a
private chat's web_app button has no start parameter, and may only answer that chat's round.
Whatever does not check gets 403 and changes nothing.

One user's submissions are served one at a time: each goes through the application's update
processor (bot.telegram.fairness, as a "submission" of that user: the same fair lane as their
typed answers), and inside it waits for that user's own lock, so a second tap-submit waits for
the first one's verdict, as typed answers of one user never overtake each other.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import quote

import tornado.httpserver
import tornado.netutil
import tornado.web

from bot.play.chats.people import Chat, Player
from bot.play.round.outcomes import Closed, Edited, Marked, Outcome, Said
from bot.runtime.health import LEADER
from bot.store.records import Round
from bot.telegram import keyboards, sending
from bot.telegram.context import App
from bot.text.html_text import visible_text
from bot.text.i18n import language_of
from bot.webapp.init_data import Signed, Unsigned, verify
from bot.webapp.settings import WebappSettings, read_settings
from bot.webapp.steps import StepError, read_steps, rebuild

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
PREFIX = "/webapp"
MAX_BODY = 16 << 10  # bytes: initData and a few steps (the webhook's bound is 1 MB)
MAX_HEADERS = 16 << 10
BODY_SECONDS = 30.0
IDLE_SECONDS = 120.0
TAPPABLE = frozenset({"24"})  # the games a round of is answered by combining all the tiles
MEMBER_SECONDS = 600.0  # a member's right to answer in a group, asked of Telegram this often
GONE = ("left", "kicked")  # getChatMember's word for one who is not in the group
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
           ) -> Callable[[Round], keyboards.MiniApp | None]:
    """The Mini App's button under a deal: in a private chat a web_app button (the page with the
    round in its URL), in a group the Direct Link (https://t.me/<bot>/<short name>?startapp=...,
    Telegram signs the start parameter); none where the game is not played by tapping, or in a
    group when no short name is set."""
    def button(round_: Round) -> keyboards.MiniApp | None:
        if round_.game not in TAPPABLE:
            return None
        ticket = ticket_of(round_)
        if round_.chat_id > 0:  # Telegram gives private chats the user's id
            return keyboards.MiniApp(page_url(settings.url, ticket), web_app=True)
        if settings.short_name is None or not bot_username:
            return None
        return keyboards.MiniApp(f"https://t.me/{quote(bot_username)}/"
                                 f"{quote(settings.short_name)}?startapp={ticket.text}",
                                 web_app=False)
    return button


class Refusal(Exception):
    """A request refused: its status, and what the page is told."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status
        self.why = why


@dataclass(frozen=True)
class Submission:
    """A submission as the update processor sees it: whose it is (bot.telegram.fairness reads
    `effective_user.id`)."""

    effective_user: Any


class Face:
    """The Mini App of one application: checks initData against its token, judges by its
    services, publishes by its bot."""

    def __init__(self, application: App, clock: Callable[[], float] | None = None) -> None:
        self.application = application
        self.clock = clock
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}  # user -> lock, users waiting
        self._chats: dict[int, tuple[str, str | None]] = {}  # chat -> its type and title
        self._members: dict[tuple[int, int], float] = {}  # (chat, user) -> seen a member at

    def now(self) -> float:
        if self.clock is not None:
            return self.clock()
        return self.application.bot_data.services.table.clock()

    def admit(self, body: dict[str, Any]) -> tuple[Signed, Ticket, Round]:
        """The signed user, and the open round the request may act on; else Refusal."""
        if self.application.bot_data.role != LEADER:  # a standby, or still starting
            raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "not ready")
        try:
            signed = verify(body.get("init_data"), self.application.bot.token, self.now())
        except Unsigned as error:
            raise Refusal(HTTPStatus.FORBIDDEN, str(error)) from None
        ticket = read_ticket(body.get("round"))
        if ticket is None:
            raise Refusal(HTTPStatus.BAD_REQUEST, "no round")
        if signed.start_param is not None:
            if signed.start_param != ticket.text:
                raise Refusal(HTTPStatus.FORBIDDEN, "the link was for another round")
        elif (ticket.chat_id, ticket.topic) != (signed.user_id, 0):
            raise Refusal(HTTPStatus.FORBIDDEN, "a private chat's page answers only there")
        opened = self.application.bot_data.services.table.of(ticket.chat_id, ticket.topic)
        if opened is None or opened.id != ticket.round_id:
            raise Refusal(HTTPStatus.GONE, "over")
        if signed.auth_date < math.floor(opened.record.started_at):
            raise Refusal(HTTPStatus.FORBIDDEN, "opened before the round began")
        return signed, ticket, opened.record

    def show(self, body: dict[str, Any]) -> dict[str, Any]:
        """The round for the page: its numbers, target and time left, in the user's words."""
        signed, _ticket, record = self.admit(body)
        if record.game not in TAPPABLE:
            raise Refusal(HTTPStatus.GONE, "not tappable")
        return {"numbers": list(record.hand), "target": record.target,
                "seconds_left": max(0.0, record.deadline - self.now()),
                "language": language_of(signed.language_code), "name": signed.first_name}

    async def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        """Judge the steps as the answer they make, one submission of a user at a time."""
        signed, ticket, record = self.admit(body)
        try:
            tile = rebuild(record.hand, read_steps(body.get("steps")))
        except StepError as error:
            raise Refusal(HTTPStatus.BAD_REQUEST, str(error)) from None
        await self._member(ticket.chat_id, signed.user_id)
        judged: list[dict[str, Any]] = []

        async def judge() -> None:
            async with self._turn(signed.user_id):
                judged.append(await self._judge(signed, ticket, tile.text))

        processor = self.application.update_processor
        await processor.process_update(Submission(_User(signed.user_id)), judge())
        if not judged:  # the user's burst was past the processor's bound: dropped
            raise Refusal(HTTPStatus.TOO_MANY_REQUESTS, "slow down")
        return judged[0]

    async def _judge(self, signed: Signed, ticket: Ticket, expression: str) -> dict[str, Any]:
        services = self.application.bot_data.services
        chat = await self._chat(ticket)
        player = Player(signed.user_id, signed.first_name, signed.username,
                        signed.language_code)
        outcome = await services.answers.answer(chat, player, expression, explicit=True)
        if isinstance(outcome, Closed | Edited):  # shown in the group as a typed answer is
            await sending.publish(self.application, ticket.chat_id, ticket.topic, outcome)
        return verdict(outcome, expression)

    async def _member(self, chat_id: int, user_id: int) -> None:
        """Refusal unless the user is in the group (a start parameter names any chat: a link
        to another group's round must not let a stranger answer there), asked of Telegram at
        most every MEMBER_SECONDS; a private chat is the user's own."""
        if chat_id == user_id:
            return
        now = self.now()
        if now - self._members.get((chat_id, user_id), -MEMBER_SECONDS) < MEMBER_SECONDS:
            return
        try:
            member = await self.application.bot.get_chat_member(chat_id, user_id)
        except Exception as error:  # the network, or a chat gone: not now
            log.info("could not ask Telegram about member %s of %s: %s", user_id, chat_id, error)
            raise Refusal(HTTPStatus.SERVICE_UNAVAILABLE, "try again") from None
        if str(member.status) in GONE or getattr(member, "is_member", True) is False:
            raise Refusal(HTTPStatus.FORBIDDEN, "not a member of the group")
        if len(self._members) > 10_000:
            self._members.clear()
        self._members[(chat_id, user_id)] = now

    async def _chat(self, ticket: Ticket) -> Chat:
        """The chat as the services know it (its kind and title, asked of Telegram once)."""
        known = self._chats.get(ticket.chat_id)
        if known is None:
            try:
                found = await self.application.bot.get_chat(ticket.chat_id)
                known = (str(found.type), found.title)
            except Exception as error:  # judged all the same; the title is not needed
                log.info("could not ask Telegram about chat %s: %s", ticket.chat_id, error)
                known = ("private" if ticket.chat_id > 0 else "group", None)
            self._chats[ticket.chat_id] = known
        return Chat(ticket.chat_id, known[0], known[1], ticket.topic)

    def _turn(self, user_id: int) -> _Turn:
        return _Turn(self._locks, user_id)


@dataclass(frozen=True)
class _User:
    id: int


class _Turn:
    """A user's lock, held while one of their submissions is judged; forgotten when nobody of
    theirs waits (so the table holds only users with a submission in flight)."""

    def __init__(self, locks: dict[int, tuple[asyncio.Lock, int]], user_id: int) -> None:
        self.locks, self.user_id = locks, user_id

    async def __aenter__(self) -> None:
        lock, users = self.locks.get(self.user_id, (asyncio.Lock(), 0))
        self.locks[self.user_id] = (lock, users + 1)
        await lock.acquire()

    async def __aexit__(self, *_exc: object) -> None:
        lock, users = self.locks[self.user_id]
        lock.release()
        if users <= 1:
            del self.locks[self.user_id]
        else:
            self.locks[self.user_id] = (lock, users - 1)


def verdict(outcome: Outcome | None, expression: str) -> dict[str, Any]:
    """What the page is told: right or not, and the bot's own words for it (plain text)."""
    right = isinstance(outcome, Closed)
    if outcome is None:
        text = ""  # held back by the throttle: the page says so in its words
    elif isinstance(outcome, Closed):
        text = outcome.head
    elif isinstance(outcome, Edited):  # the deal's status: the page says it in its own words
        text = outcome.notice
    elif isinstance(outcome, Marked | Said):
        text = outcome.text
    else:
        text = getattr(outcome, "text", "")
    return {"right": right, "expression": expression, "text": visible_text(text),
            "held": outcome is None}


@tornado.web.stream_request_body
class ApiHandler(tornado.web.RequestHandler):
    """POST a JSON object of at most MAX_BODY bytes (its announced size checked before a byte
    of it is read, as the webhook does; a chunked body is cut by the server past MAX_BODY); the
    answer is JSON; a refusal is its status with {"error": why}."""

    SUPPORTED_METHODS = ("POST",)

    def initialize(self, face: Face,
                   act: Callable[[Face, dict[str, Any]], Awaitable[dict[str, Any]]]) -> None:
        self.face = face
        self.act = act
        self.body = bytearray()

    def data_received(self, chunk: bytes) -> None:
        self.body += chunk

    def prepare(self) -> None:
        length = self.request.headers.get("Content-Length")
        if length is None:
            return  # chunked: counted as it arrives
        if not length.isdigit():
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST)
        if len(length) > 8 or int(length) > MAX_BODY:
            raise tornado.web.HTTPError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE)

    async def post(self) -> None:
        self.set_header("Cache-Control", "no-store")
        try:
            body = json.loads(self.body)
            if not isinstance(body, dict):
                raise ValueError
        except ValueError:
            return self._refuse(HTTPStatus.BAD_REQUEST, "not a JSON object")
        try:
            self.finish(await self.act(self.face, body))
        except Refusal as refusal:
            if refusal.status == HTTPStatus.FORBIDDEN:
                log.info("webapp refused %s: %s", self.request.path, refusal.why)
            self._refuse(refusal.status, refusal.why)

    def _refuse(self, status: int, why: str) -> None:
        self.set_status(status)
        self.finish({"error": why})

    def write_error(self, status_code: int, **kwargs: object) -> None:
        self.finish({"error": HTTPStatus(status_code).phrase})


async def _show(face: Face, body: dict[str, Any]) -> dict[str, Any]:
    return face.show(body)


async def _answer(face: Face, body: dict[str, Any]) -> dict[str, Any]:
    return await face.answer(body)


class PageHandler(tornado.web.StaticFileHandler):
    """The page and its script and style, never cached long (a new version is seen at once)."""

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Cache-Control", "no-cache")
        self.set_header("X-Content-Type-Options", "nosniff")


def webapp_routes(application: App, clock: Callable[[], float] | None = None
                  ) -> list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]]]:
    """The Mini App's routes, for a tornado Application (the webhook's server, or its own)."""
    face = Face(application, clock)
    return [
        (rf"{PREFIX}/api/round", ApiHandler, {"face": face, "act": _show}),
        (rf"{PREFIX}/api/answer", ApiHandler, {"face": face, "act": _answer}),
        (rf"{PREFIX}/()", PageHandler, {"path": str(STATIC), "default_filename": "index.html"}),
        (rf"{PREFIX}/(app\.js|app\.css)", PageHandler, {"path": str(STATIC)}),
    ]


def make_server(application: App, clock: Callable[[], float] | None = None
                ) -> tornado.httpserver.HTTPServer:
    """The page's own server (add sockets to start it), bounded like the webhook's."""
    return tornado.httpserver.HTTPServer(
        tornado.web.Application(webapp_routes(application, clock)), max_body_size=MAX_BODY,
        max_header_size=MAX_HEADERS, body_timeout=BODY_SECONDS,
        idle_connection_timeout=IDLE_SECONDS)


def serve(application: App, port: int, listen: str = "127.0.0.1",
          clock: Callable[[], float] | None = None) -> tuple[tornado.httpserver.HTTPServer, int]:
    """Start the page's own server on a port (0: any free one); returns it and its port."""
    server = make_server(application, clock)
    sockets = tornado.netutil.bind_sockets(port, listen)
    server.add_sockets(sockets)
    return server, sockets[0].getsockname()[1]


async def open_face(application: App, settings: WebappSettings | None = None) -> None:
    """At start-up, when WEBAPP_URL is set: the deals get the Mini App's button, and, when the
    bot polls (no webhook server to mount the routes on), the page gets its own server on
    WEBAPP_PORT."""
    settings = settings or read_settings()
    if settings is None:
        return
    sending.open_with(application, opener(settings, application.bot.username))
    if application.bot_data.settings.webhook_url:
        return  # the webhook's server serves webapp_routes
    server, port = serve(application, settings.port, settings.listen)
    application.bot_data.web_face = server
    log.info("Mini App page on %s:%d%s/", settings.listen, port, PREFIX)


async def close_face(application: App) -> None:
    sending.open_with(application, None)
    server, application.bot_data.web_face = application.bot_data.web_face, None
    if server is not None:
        server.stop()
        await server.close_all_connections()
