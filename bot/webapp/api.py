"""The Mini App's JSON API over HTTP: each POST to /webapp/api/<endpoint> read (its announced size
checked before a byte of its body is read; a body past MAX_BODY cut as it arrives), drawn on its
asker's budget at the door (bot.webapp.door), answered by its endpoint (an `Act`) as JSON; a
refusal is its status with {"error": why, "said": the page's words for it, "language": theirs}
(and Retry-After past a budget).

An `Exchange` is one request and its answer, whichever server read it: the page's own server
(bot.webapp.page_server, asyncio's transport and httptools' parser) hands it the request's
parts and a `Send` that writes the answer; the webhook's tornado server mounts an `Endpoint`
as a route's target (an `HTTPServerConnectionDelegate`, not a RequestHandler, whose machinery
doubled what a refusal costs), whose `TornadoExchange` does the same over tornado's connection.

A request read waits in the `Lane`, which takes up at most `Lane.batch` of them each turn of
the event loop, between the updates' own steps. A connection reads its next request only once
its last is answered, so a flood over many connections gets at most a batch's worth of the loop
a turn, however fast it sends; an update's handling, a dozen turns, waits behind a few of its
requests, not behind all of them.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any, Protocol

from tornado import httputil

from bot.runtime.doors import Doors, Pass
from bot.text.i18n import language_of, texts_for
from bot.webapp import door
from bot.webapp.init_data import claimed
from bot.webapp.refusal import Refusal

log = logging.getLogger(__name__)
MAX_BODY = 16 << 10  # bytes: initData and a few steps (the webhook's bound is 1 MB)
LANE_BATCH = 2  # requests the API looks at a turn of the event loop (the module's docstring)
LANGUAGE_HINT = 35  # characters of a language tag a refusal's words are chosen by
# Telegram's web clients (web.telegram.org/a, /k) frame a Mini App; its phone and desktop apps
# open it in a web view of their own, where no frame-ancestors applies. Telegram's page script
# (loaded inside Telegram only) gives the web clients' styles through a <style> it fills.
CSP = "; ".join((
    "default-src 'none'", "script-src 'self' https://telegram.org", "img-src 'self' data:",
    "style-src 'self' 'unsafe-inline'", "connect-src 'self'", "base-uri 'none'",
    "form-action 'none'", "frame-ancestors https://web.telegram.org https://*.web.telegram.org"))
SECURE = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff"}  # every response
JSON_HEADERS = {**SECURE, "Content-Type": "application/json; charset=UTF-8",
                "Cache-Control": "no-store"}

Act = Callable[[Any, dict[str, Any]], Awaitable[dict[str, Any]]]  # an endpoint's answer
Send = Callable[[int, dict[str, str], bytes], None]  # (status, headers, body): written whole
Words = Callable[[str, str], str]  # (language, the page's word) -> the words


class Speaker(Protocol):
    """What the API needs of the one it serves: the budget its requests draw on (None: none),
    the token their signatures are checked with, the time, the language of a refusal."""

    doors: Doors | None
    token: str

    def now(self) -> float: ...

    def refusal_language(self, body: dict[str, Any]) -> str: ...


class Lane:
    """The API's requests read and not yet looked at, taken `batch` a turn of the event loop
    (see the module's docstring), in the order they came."""

    def __init__(self, batch: int = LANE_BATCH) -> None:
        self.batch = batch
        self.waiting: deque[Exchange] = deque()
        self._taking: asyncio.Task[None] | None = None

    def join(self, exchange: Exchange) -> None:
        self.waiting.append(exchange)
        if self._taking is None or self._taking.done():
            self._taking = asyncio.ensure_future(self._take())

    async def _take(self) -> None:
        while self.waiting:
            for _ in range(min(self.batch, len(self.waiting))):
                self.waiting.popleft().look()
            await asyncio.sleep(0)  # the loop's other ready work runs before the next batch


class Endpoint(httputil.HTTPServerConnectionDelegate):
    """One endpoint of the API, as a route's target: each of its requests an `Exchange`."""

    def __init__(self, face: Speaker, act: Act, name: str, words: Words, lane: Lane) -> None:
        self.face = face
        self.act = act
        self.name = name
        self.words = words
        self.lane = lane
        self.running: set[asyncio.Task[None]] = set()  # answers being worked out

    def start_request(self, server_conn: object, request_conn: httputil.HTTPConnection
                      ) -> TornadoExchange:
        return TornadoExchange(self, request_conn)


class Exchange:
    """One request and its answer: `begin` with its method and announced length, its body as
    it comes (`data_received`), `finish` once it is all in; the answer goes out through `send`,
    once."""

    def __init__(self, endpoint: Endpoint, send: Send, path: str = "") -> None:
        self.endpoint = endpoint
        self.send = send
        self.body = bytearray()
        self.path = path
        self.answered = False
        self.gone = False  # the asker hung up

    def begin(self, method: str, length: str | None) -> None:
        """The request's line and headers are in: refused at once when it is no API request."""
        if method != "POST":
            return self.respond(HTTPStatus.METHOD_NOT_ALLOWED, {"error": "POST only"})
        if length is None:
            return None  # chunked: counted as it arrives
        if not length.isdigit():
            return self.respond(HTTPStatus.BAD_REQUEST, {"error": "Bad Request"})
        if len(length) > 8 or int(length) > MAX_BODY:
            return self.respond(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                                {"error": "Request Entity Too Large"})
        return None

    def data_received(self, chunk: bytes) -> None:
        if self.answered:
            return
        self.body += chunk
        if len(self.body) > MAX_BODY:
            self.respond(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": "Request Entity Too Large"})

    def finish(self) -> None:
        if not self.answered:
            self.endpoint.lane.join(self)

    def look(self) -> None:
        """The request's turn in the lane: read, checked at the door, refused or answered."""
        if self.answered:
            return
        try:
            body = json.loads(self.body)
            if not isinstance(body, dict):
                raise ValueError
        except ValueError:
            return self.respond(HTTPStatus.BAD_REQUEST, {"error": "not a JSON object"})
        face, admitted = self.endpoint.face, None
        try:
            if face.doors is not None:
                user = claimed(body.get("init_data"))
                admitted = door.enter(face.doors, self.endpoint.name, body, face.token,
                                      face.now(), user)
        except Refusal as refusal:
            return self.refuse(refusal, body, refusal_language(body, user))
        task = asyncio.ensure_future(self.answer(body, admitted))
        self.endpoint.running.add(task)
        task.add_done_callback(self.endpoint.running.discard)
        return None

    def on_connection_close(self) -> None:
        self.gone = True

    async def answer(self, body: dict[str, Any], admitted: Pass | None) -> None:
        """The endpoint's answer, or its refusal; the request's pass given back after."""
        face = self.endpoint.face
        try:
            self.respond(HTTPStatus.OK, await self.endpoint.act(face, body))
        except Refusal as refusal:
            if refusal.status == HTTPStatus.FORBIDDEN:
                log.info("webapp refused %s: %s", self.path, refusal.why)
            self.refuse(refusal, body)
        except Exception:
            log.exception("webapp %s failed", self.path)
            self.respond(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "Internal Server Error"})
        finally:
            if admitted is not None and face.doors is not None:
                face.doors.leave(admitted)

    def refuse(self, refusal: Refusal, body: dict[str, Any], language: str | None = None
               ) -> None:
        """The refusal, and the page's words for it in the asker's language."""
        language = language or self.endpoint.face.refusal_language(body)
        said = self.endpoint.words(language, refusal.said)
        payload = {"error": refusal.why, "said": said, "language": language} if said else \
            {"error": refusal.why}
        if refusal.after:
            payload["after"] = refusal.after
        self.respond(refusal.status, payload, refusal.retry_after)

    def respond(self, status: int, payload: dict[str, Any],
                retry_after: int | None = None) -> None:
        """Write the answer whole (the connection reads its next request once it went); a
        refusal past a budget is not logged (a flood would write a line for each: the metrics
        count them), a server's error is, the rest at DEBUG."""
        if self.answered:
            return
        self.answered = True
        if retry_after is None:
            level = logging.WARNING if status >= HTTPStatus.INTERNAL_SERVER_ERROR else \
                logging.DEBUG
            log.log(level, "webapp %d POST %s", status, self.path)
        if self.gone:
            return
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
        headers = JSON_HEADERS if retry_after is None else \
            {**JSON_HEADERS, "Retry-After": str(retry_after)}
        self.send(status, headers, data)


class TornadoExchange(Exchange, httputil.HTTPMessageDelegate):
    """An exchange read by tornado's HTTP connection (the webhook's server mounts the API)."""

    def __init__(self, endpoint: Endpoint, connection: httputil.HTTPConnection) -> None:
        super().__init__(endpoint, self._send)
        self.connection = connection

    def headers_received(self, start_line: httputil.RequestStartLine | httputil.ResponseStartLine,
                         headers: httputil.HTTPHeaders) -> None:
        assert isinstance(start_line, httputil.RequestStartLine)
        self.path = start_line.path
        return self.begin(start_line.method, headers.get("Content-Length"))

    def _send(self, status: int, headers: dict[str, str], data: bytes) -> None:
        self.connection.write_headers(
            httputil.ResponseStartLine("HTTP/1.1", status, HTTPStatus(status).phrase),
            httputil.HTTPHeaders({**headers, "Content-Length": str(len(data))}), data)
        self.connection.finish()


def refusal_language(body: dict[str, Any], user: dict[str, Any] | None) -> str:
    """The language a refusal is said in: the user's the data names (`user`, unchecked: it only
    chooses words, and a refusal past a budget must not cost a signature's check), else the
    one the page asks for, else English."""
    language = user.get("language_code") if user is not None else None
    if not isinstance(language, str):
        language = body.get("language")
    return language_of(language[:LANGUAGE_HINT] if isinstance(language, str) else None)


def words_of(word: Callable[[Any, str], str]) -> Words:
    """The page's words for a refusal in a language, through play's `word` (kept per language
    and word: a flood's refusals are worded once)."""
    known: dict[tuple[str, str], str] = {}

    def said(language: str, key: str) -> str:
        found = known.get((language, key))
        if found is None:
            found = known[(language, key)] = word(texts_for(language), key)
        return found
    return said
