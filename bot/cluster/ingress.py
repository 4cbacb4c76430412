"""`python -m bot ingress`: Telegram's webhook, published to the broker. It checks a POSTed update
as the one-process webhook does (the secret header first, the announced size next, the body's
size while it arrives: the checks are bot.telegram.webhook's, handed in by the composition root),
publishes the raw body to its partition's subject with `Nats-Msg-Id` = its update_id, and answers
200 only once JetStream confirmed the publish; a refusal or no confirm within PUBLISH_SECONDS
answers 503, so Telegram delivers the update again (and the stream's duplicate window makes the
two publishes one message). Every ingress serves: there is no lead to hold here.

It reads no update beyond its key (bot.cluster.partitions) and holds no state: any number run
behind a load balancer. Without WEBHOOK_URL the ingress polls instead (bot.cluster.poller), with
the same publish and health check. `GET /healthz` says whether this one can publish now (its broker
connection up and the stream there): 200, else 503 with the reason, so a load balancer or a
container's health check takes an ingress that would only answer 503 out of the rotation.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

import tornado.httpserver
import tornado.httputil
import tornado.netutil
import tornado.web
from nats.aio.client import Client
from nats.js import JetStreamContext

from bot.cluster.partitions import partition_of, update_key
from bot.cluster.stream import MSG_ID, REQUEST_SECONDS, Layout, close, connect, ensure_stream
from bot.runtime.config import Config

PUBLISH_SECONDS = REQUEST_SECONDS  # JetStream's confirm, or 503
HEALTH_PATH = "healthz"
HEALTH_SECONDS = 2.0  # the stream's answer to a health check, or 503
RETRY_SECONDS = 5  # what a 503 suggests (Telegram keeps its own pace)
Admit = Callable[[tornado.httputil.HTTPServerRequest, bytes], None]
ServerFor = Callable[[tornado.web.Application], tornado.httpserver.HTTPServer]
Routes = list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]]]

log = logging.getLogger(__name__)


def route(body: bytes | bytearray, layout: Layout) -> tuple[int, str]:
    """The update's id and its partition's subject; ValueError when the body is no update."""
    update = json.loads(body)
    update_id = update.get("update_id") if isinstance(update, dict) else None
    if not isinstance(update_id, int) or isinstance(update_id, bool):
        raise ValueError("no update_id")
    return update_id, layout.subject(partition_of(update_key(update), layout.partitions))


async def publish(js: JetStreamContext, layout: Layout, update_id: int, subject: str,
                  body: bytes, seconds: float = PUBLISH_SECONDS) -> None:
    """Publish one raw update with its id as `Nats-Msg-Id`, returning once JetStream confirmed
    it (the stream's duplicate window drops a second publish of the same id); raises when it
    did not within `seconds`. The webhook's ingress and the polling one both publish so."""
    log.debug("update %d: publishing to %s", update_id, subject)
    await js.publish(subject, body, timeout=seconds, stream=layout.stream,
                     headers={MSG_ID: str(update_id)})


@tornado.web.stream_request_body
class PublishHandler(tornado.web.RequestHandler):
    """POST /telegram: checked before the body is read (`admit`), published once it is in."""

    SUPPORTED_METHODS = ("POST",)

    def initialize(self, js: JetStreamContext, layout: Layout, secret: str,
                   admit: Admit) -> None:
        self.js = js
        self.layout = layout
        self.secret = secret.encode()
        self.admit = admit
        self.body = bytearray()

    def prepare(self) -> None:
        self.admit(self.request, self.secret)

    def data_received(self, chunk: bytes) -> None:
        self.body += chunk  # the server refuses a chunked body past its limit

    async def post(self) -> None:
        try:
            update_id, subject = route(self.body, self.layout)
        except ValueError:  # not JSON, or not an update: nothing Telegram itself would send
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST) from None
        try:
            await publish(self.js, self.layout, update_id, subject, bytes(self.body))
        except Exception as error:  # no confirm: the broker is away, slow, or refused it
            log.warning("update %d not confirmed by the broker (%s: %s): 503, Telegram sends "
                        "it again", update_id, type(error).__name__, error)
            raise tornado.web.HTTPError(HTTPStatus.SERVICE_UNAVAILABLE) from None
        self.set_status(HTTPStatus.OK)

    def write_error(self, status_code: int, **kwargs: object) -> None:
        if status_code == HTTPStatus.SERVICE_UNAVAILABLE:
            self.set_header("Retry-After", str(RETRY_SECONDS))
        self.finish()  # the status says it all


class HealthHandler(tornado.web.RequestHandler):
    """GET /healthz: 200 `ok` while a publish could be confirmed now, 503 and the reason (one
    line) while it could not: the connection is down (the client is reconnecting) or the broker
    does not answer for the stream (JetStream off, the stream deleted, a slow broker). It asks
    the broker each time rather than trusting the connection's state alone: a connection can
    be up to a server that lost its JetStream store."""

    SUPPORTED_METHODS = ("GET", "HEAD")

    def initialize(self, client: Client, js: JetStreamContext, layout: Layout) -> None:
        self.client = client
        self.js = js
        self.layout = layout

    async def get(self) -> None:
        reason = await self.unhealthy()
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        if reason is not None:
            self.set_status(HTTPStatus.SERVICE_UNAVAILABLE)
            self.finish(f"unavailable: {reason}\n")
        else:
            self.finish("ok\n")

    async def head(self) -> None:
        reason = await self.unhealthy()
        self.set_status(HTTPStatus.OK if reason is None else HTTPStatus.SERVICE_UNAVAILABLE)
        self.finish()

    async def unhealthy(self) -> str | None:
        """None when healthy, else why not."""
        if not self.client.is_connected:
            return "no connection to the broker (reconnecting)"
        try:
            await asyncio.wait_for(self.js.stream_info(self.layout.stream), HEALTH_SECONDS)
        except Exception as error:  # not found, no JetStream, no answer in time
            return f"stream {self.layout.stream} unreachable ({type(error).__name__})"
        return None


def routes(js: JetStreamContext, layout: Layout, secret: str, admit: Admit,
           path: str, client: Client | None = None) -> Routes:
    """The webhook's route, and the health check's when the broker's `client` is given."""
    made: Routes = [(rf"/{path}", PublishHandler,
                     {"js": js, "layout": layout, "secret": secret, "admit": admit})]
    if client is not None:
        made += health_route(client, js, layout)
    return made


def health_route(client: Client, js: JetStreamContext, layout: Layout) -> Routes:
    """GET /healthz, for the webhook's ingress and the polling one alike."""
    return [(rf"/{HEALTH_PATH}", HealthHandler, {"client": client, "js": js, "layout": layout})]


def listen(config: Config, served: Routes,
           server_for: ServerFor = tornado.httpserver.HTTPServer,
           ) -> tuple[tornado.httpserver.HTTPServer, int]:
    """A server of `served` on WEBHOOK_LISTEN:WEBHOOK_PORT, and the port it got."""
    server = server_for(tornado.web.Application(served, log_function=_log_request))
    sockets = tornado.netutil.bind_sockets(config.webhook_port, config.webhook_listen)
    server.add_sockets(sockets)
    return server, int(sockets[0].getsockname()[1])


async def serve(config: Config, admit: Admit, server_for: ServerFor, path: str,
                stop: asyncio.Event, more: Routes | None = None,
                ready: Callable[[int], Awaitable[None]] | None = None) -> None:
    """Connect to the broker, declare the stream, listen on WEBHOOK_LISTEN:WEBHOOK_PORT until
    `stop` is set, with GET /healthz beside the webhook; `ready` is awaited with the port once
    the server listens (the root registers the webhook with Telegram then)."""
    assert config.nats_url and config.webhook_secret, "check_role(config, INGRESS) first"
    layout = Layout(config.nats_stream, config.partitions)
    client: Client = await connect(config.nats_url, "twentyfour-ingress", config.startup_seconds)
    try:
        js = client.jetstream(timeout=REQUEST_SECONDS)
        await ensure_stream(js, layout)
        server, port = listen(
            config, [*routes(js, layout, config.webhook_secret, admit, path, client),
                     *(more or [])], server_for)
        log.info("ingress on %s:%d/%s, publishing to stream %s (%d partitions)",
                 config.webhook_listen, port, path, layout.stream, layout.partitions)
        try:
            if ready is not None:
                await ready(port)
            await stop.wait()
        finally:
            server.stop()
            await server.close_all_connections()
    finally:
        await close(client)


def _log_request(handler: tornado.web.RequestHandler) -> None:
    """Refusals at INFO (someone is knocking, or the broker is away), published ones and health
    checks at DEBUG (a balancer asks every few seconds)."""
    status = handler.get_status()
    quiet = status == HTTPStatus.OK or isinstance(handler, HealthHandler)
    level = logging.DEBUG if quiet else logging.INFO
    log.log(level, "ingress %d %s %s (%s)", status, handler.request.method,
            handler.request.path, handler.request.remote_ip)
