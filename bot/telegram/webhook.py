"""Webhook mode: a small tornado server that takes Telegram's updates and hands them to the bot.

python-telegram-bot's own `run_webhook` builds its tornado server without a body limit (tornado's
default is 100 MB, read in full before the secret is checked). This one checks the secret header
first and the announced size next, both before reading a byte of the body, then refuses a body
past MAX_BODY while it arrives. It listens where WEBHOOK_LISTEN says (the reverse proxy in front).

An update is taken only when the intake has room (bot.telegram.intake: MAX_UPDATES_IN_FLIGHT in
hand at most): while it is full a request waits, its body unread, up to HOLD_SECONDS, and then is
answered 503 with a Retry-After, for Telegram to send it again. Telegram opens at most
`max_connections` requests at once, set with the webhook to the bound (100 at most, Telegram's
limit), so what waits at the door is bounded too.

Until this process takes updates (a standby waiting for the lead, or a leader still resuming) it
answers 503 to every update, so Telegram delivers it again later, and `GET /leader` answers 503
too, for a load balancer's health check to send the traffic to the leader. A leader answers an
update only while its lease is fresh (bot.store.postgres.leader: `check`). `GET /metrics` is
Prometheus' scrape (bot.runtime.metrics), answered by a leader and a standby alike; the reverse
proxy forwards /telegram only, so it stays on the host.

The cluster's ingress runs the same checks on its own door (`admit`, `update_server`), and its
worker hands each update the broker carried to the application as one read here (`process_body`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from contextlib import suppress
from http import HTTPStatus
from typing import Any

import tornado.httpserver
import tornado.httputil
import tornado.netutil
import tornado.routing
import tornado.web
from telegram import Update
from telegram.ext import Application

from bot.runtime import metrics
from bot.runtime.config import Config
from bot.runtime.health import LEADER, STANDBY
from bot.telegram.app import ALLOWED_UPDATES, intake_of
from bot.telegram.intake import Intake
from bot.telegram.lifecycle import stop_application
from bot.telegram.over_budget import unread

WEBHOOK_PATH = "telegram"  # never the token: paths end up in proxy logs
LEADER_PATH = "leader"  # 200 on the leader taking updates, 503 elsewhere
METRICS_PATH = "metrics"  # Prometheus' scrape
RETRY_SECONDS = 5  # what a standby's 503 suggests (Telegram keeps its own pace)
HOLD_SECONDS = 20.0  # a request waits this long for room in the intake before a 503
MAX_CONNECTIONS = 100  # Telegram's highest max_connections (its default is 40)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # bytes; an update is a few kB (a message is at most 4096 characters)
MAX_HEADERS = 16 << 10  # bytes of request line and headers (tornado's default is 64 kB)
BODY_SECONDS = 30.0  # to send a body once its headers are in
IDLE_SECONDS = 120.0  # a keep-alive connection with nothing to say is closed after this
DIGITS = re.compile(r"[0-9]+")

log = logging.getLogger(__name__)


def new_secret() -> str:
    """A random secret_token for one run, when WEBHOOK_SECRET is not set: the bot registers it
    with Telegram itself at start-up and is the only one to check it, so no one else needs it.
    43 characters of A-Z a-z 0-9 _ - (Telegram's alphabet)."""
    return secrets.token_urlsafe(32)


def admit(request: tornado.httputil.HTTPServerRequest, secret: bytes) -> None:
    """The checks of a POSTed update before a byte of its body is read (raising the HTTPError
    that answers it): the secret header first (403), then the announced size (400, 413); a
    chunked body is counted as it arrives (`update_server`'s limit). The webhook and the
    cluster's ingress (bot.cluster.ingress) both run them."""
    given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "replace")
    if not hmac.compare_digest(given, secret):
        raise tornado.web.HTTPError(HTTPStatus.FORBIDDEN)
    length = request.headers.get("Content-Length")
    if length is None:
        return  # a chunked body: counted as it arrives
    if not DIGITS.fullmatch(length):
        raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST)
    if len(length) > len(str(MAX_BODY)) or int(length) > MAX_BODY:
        raise tornado.web.HTTPError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE)


def read_update(body: bytes | bytearray, application: Application) -> Update | None:
    """An update's JSON body as the application's Update (raising when it is not one); None
    for one dropped unread, past its sender's budget (bot.telegram.over_budget.unread)."""
    data = json.loads(body)
    processor = getattr(application, "update_processor", None)  # one built with its budget
    if unread(getattr(processor, "doors", None), data):
        return None
    return Update.de_json(data, application.bot)


async def process_body(application: Application, body: bytes) -> None:
    """Handle one update's body to its end, as an update taken from the broker is (a cluster's
    worker: bot.cluster.consumers), through the application's fair update processor; errors of
    its handlers have gone to the error handler when this returns. A body that is not an update
    is logged and dropped: it would fail the same way each time it came again."""
    try:
        update = read_update(body, application)
    except Exception as error:
        log.warning("a body that is not an update (%s: %.200s); dropped",
                    type(error).__name__, error)
        return
    if update is None:
        return
    await application.update_processor.process_update(update,
                                                      application.process_update(update))


@tornado.web.stream_request_body
class UpdateHandler(tornado.web.RequestHandler):
    """POST /telegram: refused before the body is read unless the secret matches and the size
    fits; held (the body unread) until the intake has room; then the update goes into the
    intake and Telegram gets 200."""

    SUPPORTED_METHODS = ("POST",)

    def initialize(self, bot_application: Application, secret: str,
                   taking: Callable[[], bool], check: Callable[[], None] | None) -> None:
        self.bot_application = bot_application
        self.secret = secret.encode()
        self.taking = taking
        self.check = check  # the lease's gate: raises once it may have run out
        self.body = bytearray()
        self.intake: Intake = intake_of(bot_application)
        self.promised = False  # a place in the intake, promised to this request's update

    async def prepare(self) -> None:
        if not self.taking():  # a standby: nothing is read, Telegram sends it again
            raise tornado.web.HTTPError(HTTPStatus.SERVICE_UNAVAILABLE)
        admit(self.request, self.secret)
        # the body is read only once this returns: while the intake is full it stays unread
        self.promised = await self.intake.room(1, HOLD_SECONDS) > 0
        if not self.promised:
            raise tornado.web.HTTPError(HTTPStatus.SERVICE_UNAVAILABLE)
        stream = getattr(self.request.connection, "stream", None)
        if stream is None or stream.closed():  # Telegram gave up meanwhile
            self._give_back()
            raise tornado.web.HTTPError(HTTPStatus.SERVICE_UNAVAILABLE)

    def data_received(self, chunk: bytes) -> None:
        self.body += chunk  # the server refuses a chunked body past MAX_BODY

    async def post(self) -> None:
        if self.check is not None:  # a leader whose lease may have run out answers nothing
            try:
                self.check()
            except Exception:  # the lease ended (the process is on its way out)
                raise tornado.web.HTTPError(HTTPStatus.SERVICE_UNAVAILABLE) from None
        try:
            update = read_update(self.body, self.bot_application)
        except Exception:  # not JSON, or not an update: nothing Telegram itself would send
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST) from None
        if update is not None:
            self.promised = False
            self.intake.take(update)
        self.set_status(HTTPStatus.OK)

    def _give_back(self) -> None:
        if self.promised:
            self.promised = False
            self.intake.give_back(1)

    def on_finish(self) -> None:
        self._give_back()  # a request answered without its update taken (400, 503, 413)

    def on_connection_close(self) -> None:
        self._give_back()  # Telegram hung up mid-body

    def write_error(self, status_code: int, **kwargs: object) -> None:
        if status_code == HTTPStatus.SERVICE_UNAVAILABLE:
            self.set_header("Retry-After", str(RETRY_SECONDS))
        self.finish()  # the status says it all; no page, no traceback


class LeaderHandler(tornado.web.RequestHandler):
    """GET /leader: 200 `leader` where updates are taken, 503 `standby` elsewhere."""

    SUPPORTED_METHODS = ("GET",)

    def initialize(self, taking: Callable[[], bool]) -> None:
        self.taking = taking

    def get(self) -> None:
        if not self.taking():
            self.set_status(HTTPStatus.SERVICE_UNAVAILABLE)
        self.finish(LEADER if self.taking() else STANDBY)


class MetricsHandler(tornado.web.RequestHandler):
    """GET /metrics: every metric in Prometheus' text format."""

    SUPPORTED_METHODS = ("GET",)

    def get(self) -> None:
        self.set_header("Content-Type", metrics.CONTENT_TYPE_LATEST)
        self.finish(metrics.exposition())


def _log_request(handler: tornado.web.RequestHandler) -> None:
    """Refusals at INFO (someone is knocking), accepted updates at DEBUG; a route mounted here
    that logs its own requests (the Mini App's: `access_log`) does so."""
    own = getattr(handler, "access_log", None)
    if own is not None:
        own()
        return
    status = handler.get_status()
    level = logging.DEBUG if status in (HTTPStatus.OK, HTTPStatus.SERVICE_UNAVAILABLE) \
        else logging.INFO
    if status == HTTPStatus.FORBIDDEN:
        metrics.record_update_dropped(metrics.WRONG_SECRET)
    log.log(level, "webhook %d %s %s (%s)", status, handler.request.method,
            handler.request.path, handler.request.remote_ip)


# routes to mount beside the server's own: (pattern, handler class, its arguments), or
# tornado's Rule (the Mini App's API endpoints are targets of their own: bot.webapp.api)
Routes = list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]] | tornado.routing.Rule]


def make_server(application: Application, secret: str,
                taking: Callable[[], bool] = lambda: True,
                more: Routes | None = None,
                check: Callable[[], None] | None = None) -> tornado.httpserver.HTTPServer:
    """The HTTP server for /telegram, /leader, /metrics and `more` (the Mini App's page and
    API, which the composition root mounts here; add sockets to start it); `taking` says
    whether this process takes updates now, `check` (the lease's gate) whether it still may."""
    routes = tornado.web.Application(
        [(rf"/{WEBHOOK_PATH}", UpdateHandler,
          {"bot_application": application, "secret": secret, "taking": taking,
           "check": check}),
         (rf"/{LEADER_PATH}", LeaderHandler, {"taking": taking}),
         (rf"/{METRICS_PATH}", MetricsHandler),
         *(more or [])],
        log_function=_log_request)
    return update_server(routes)


def update_server(routes: tornado.web.Application) -> tornado.httpserver.HTTPServer:
    """An HTTP server with the webhook's limits (headers, body, slow senders, idle connections),
    for the webhook's routes and the cluster's ingress."""
    return tornado.httpserver.HTTPServer(
        routes, max_body_size=MAX_BODY, max_header_size=MAX_HEADERS, body_timeout=BODY_SECONDS,
        idle_connection_timeout=IDLE_SECONDS)


async def serve(application: Application, config: Config, secret: str, stop: asyncio.Event,
                start_up: Callable[[], Awaitable[bool]], more: Routes | None = None,
                check: Callable[[], None] | None = None) -> None:
    """What run_webhook does, with this server, for an application the composition root built
    over a bot that reached the Bot API: listen (answering 503 while `start_up` waits for the
    lead and resumes: False when the stop came first), register the webhook, handle updates
    until `stop` is set, then stop in order (the root closes what it opened)."""
    taking = asyncio.Event()
    server = make_server(application, secret, taking.is_set, more, check)
    server.add_sockets(tornado.netutil.bind_sockets(config.webhook_port, config.webhook_listen))
    log.info("webhook server on %s:%d/%s", config.webhook_listen, config.webhook_port,
             WEBHOOK_PATH)
    try:
        if not await start_up():
            return
        await application.start()
        taking.set()  # before setWebhook: Telegram's first update finds the door open
        await application.bot.set_webhook(url=str(config.webhook_url), secret_token=secret,
                                          allowed_updates=ALLOWED_UPDATES,
                                          max_connections=max_connections(config))
        await stop.wait()
    finally:
        taking.clear()
        intake_of(application).close()  # a request held for room is answered 503 at once
        server.stop()
        await server.close_all_connections()
        await stop_application(application)


def max_connections(config: Config) -> int:
    """Telegram's requests open at once: the intake's bound, within Telegram's 1..100."""
    return max(1, min(MAX_CONNECTIONS, config.max_updates_in_flight))


async def unless_stopped(work: Awaitable[object], stop: asyncio.Event) -> bool:
    """Run `work` unless `stop` is set first (a standby waits for the lead in it): True when
    it finished, False when it was cancelled for the stop."""
    task = asyncio.ensure_future(work)
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if not task.done():
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
        return False
    task.result()
    return True
