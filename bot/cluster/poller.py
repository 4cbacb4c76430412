"""`python -m bot ingress` without WEBHOOK_URL, for a bot with no public HTTPS address: the
ingress polls getUpdates instead of serving a webhook, and publishes each update as the webhook's
ingress does (bot.cluster.ingress.publish: its partition's subject, `Nats-Msg-Id` = its id).

Telegram answers one poller per bot, so the polling ingresses share a lease
(bot.cluster.poll_lease): one polls, the others stand by and take over once it ran out. The
offset, which confirms to Telegram every update below it, is moved past a batch only once
JetStream acknowledged every update of it; a publish not acknowledged ends the batch there, and
the next poll asks again from that update. So an ingress killed mid-batch leaves its updates
with Telegram, the next poller gets them again, and the stream's duplicate window drops what was
published twice. It reads no update beyond its id and key, and reaches Telegram only through the
`Source` the composition root hands it. `GET /healthz` answers as the webhook's ingress does
(holder and standby alike: either can publish), on WEBHOOK_LISTEN:WEBHOOK_PORT.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
from typing import Any, Protocol

import tornado.httpserver
import tornado.web
from nats.js import JetStreamContext

from bot.cluster import ingress, poll_lease
from bot.cluster.poll_lease import RENEW, PollLease
from bot.cluster.stream import REQUEST_SECONDS, Layout, close, connect, ensure_stream
from bot.runtime.config import Config

POLL_SECONDS = 10  # getUpdates' long poll: a lease lost ends it sooner (the task is cancelled)
RETRY_SECONDS = 1.0  # after a failed poll (an unacknowledged publish: RENEW)
PUBLISH_SECONDS = 0.5  # well under the lease's HOLD: an unconfirmed publish is polled again
# while the lease holds (JetStream confirms in milliseconds; one retry costs a second)
SAY_EVERY = 60.0  # seconds between two lines about the same failure
SMALL_BODY = 1 << 10  # bytes: its server answers GETs only
SMALL_HEADERS = 16 << 10
IDLE_SECONDS = 120.0  # a keep-alive connection with nothing to say is closed after this

log = logging.getLogger(__name__)


class Source(Protocol):
    """Telegram's side of polling, as the composition root adapts its bot."""

    async def delete_webhook(self) -> None:
        """deleteWebhook, keeping the pending updates."""

    async def get_updates(self, offset: int | None, timeout: float) -> list[Any]:
        """getUpdates: the updates as Telegram sent them (decoded JSON, not read)."""


async def serve(config: Config, source: Source, stop: asyncio.Event,
                more: ingress.Routes | None = None) -> None:
    """Connect to the broker, declare the stream and the lease's bucket, delete any webhook,
    listen for /healthz (and `more`), then poll while this ingress holds the lease, until
    `stop` is set; the lease is given up at the end."""
    assert config.nats_url, "check_role(config, INGRESS) first"
    layout = Layout(config.nats_stream, config.partitions)
    client = await connect(config.nats_url, "twentyfour-poller", config.startup_seconds)
    lease: PollLease | None = None
    try:
        js = client.jetstream(timeout=REQUEST_SECONDS)
        await ensure_stream(js, layout)
        lease = PollLease(await poll_lease.bucket(client, REQUEST_SECONDS), config.nats_stream,
                          f"{socket.gethostname()}/{os.getpid()}")
        await source.delete_webhook()  # getUpdates is refused while a webhook is set
        server, port = ingress.listen(config, [*ingress.health_route(client, js, layout),
                                               *(more or [])], small_server)
        log.info("polling ingress (health on %s:%d), publishing to stream %s (%d partitions)",
                 config.webhook_listen, port, layout.stream, layout.partitions)
        leading = asyncio.create_task(lead(source, js, layout, lease))
        stopping = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait({leading, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if leading.done():
                leading.result()  # only a bug ends it: raised, so the process exits
        finally:
            for task in (leading, stopping):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            server.stop()
            await server.close_all_connections()
    finally:
        if lease is not None:
            await lease.release()
        await close(client)


def small_server(application: tornado.web.Application) -> tornado.httpserver.HTTPServer:
    """The health check's server: no request it answers has a body."""
    return tornado.httpserver.HTTPServer(application, max_body_size=SMALL_BODY,
                                         max_header_size=SMALL_HEADERS,
                                         idle_connection_timeout=IDLE_SECONDS)


async def lead(source: Source, js: JetStreamContext, layout: Layout, lease: PollLease) -> None:
    """For ever: stand by until the lease is this ingress's, poll while it holds it."""
    said_standby = False
    while True:
        if not await try_take(lease):
            if not said_standby:
                log.info("poll lease held elsewhere (or the broker does not answer): "
                         "standing by")
                said_standby = True
            await asyncio.sleep(RENEW)
            continue
        said_standby = False
        log.info("poll lease taken: polling getUpdates")
        polling = asyncio.create_task(poll(source, js, layout))
        try:
            await hold(lease, polling)
        finally:
            polling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await polling
        log.warning("poll lease lost (not renewed in %g s): polling stopped, standing by",
                    poll_lease.HOLD)


async def try_take(lease: PollLease) -> bool:
    try:
        return await asyncio.wait_for(lease.take(), RENEW)
    except poll_lease.BROKER_ERRORS as error:
        log.debug("poll lease: the broker did not answer (%s)", type(error).__name__)
        return False


async def hold(lease: PollLease, polling: asyncio.Task[None]) -> None:
    """Renew the lease every RENEW seconds; return once it is no longer held (or the poll
    ended, which only a bug does)."""
    while not polling.done():
        started = time.monotonic()
        await try_take(lease)
        if not lease.held():
            return
        await asyncio.wait({polling}, timeout=max(RENEW - (time.monotonic() - started), 0))
    polling.result()  # its error, raised here


async def poll(source: Source, js: JetStreamContext, layout: Layout) -> None:
    """getUpdates, each batch published in order; the offset moves past an update only once
    its publish was acknowledged."""
    offset: int | None = None
    failing = Failing()
    while True:
        try:
            batch = await source.get_updates(offset, POLL_SECONDS)
        except Exception as error:  # Telegram away, 409 Conflict, a 5xx: poll again soon
            failing.say("getUpdates failed", error)
            await asyncio.sleep(RETRY_SECONDS)
            continue
        failing.over()
        for update in batch:
            try:
                update_id, subject, body = encoded(update, layout)
            except ValueError:  # no update id: nothing to confirm it by (Telegram never sends it)
                log.warning("getUpdates gave something that is not an update: %.200r", update)
                continue
            if not await published(js, layout, update_id, subject, body):
                await asyncio.sleep(RENEW)  # within the lease's HOLD: the broker may be back
                break  # the offset stays before it: the next poll gives it again
            offset = update_id + 1


def encoded(update: Any, layout: Layout) -> tuple[int, str, bytes]:
    """The update's id, its partition's subject and its body; ValueError when it has no id."""
    body = json.dumps(update, ensure_ascii=False, separators=(",", ":")).encode()
    update_id, subject = ingress.route(body, layout)
    return update_id, subject, body


async def published(js: JetStreamContext, layout: Layout, update_id: int, subject: str,
                    body: bytes) -> bool:
    """Whether JetStream acknowledged the update's publish."""
    try:
        await ingress.publish(js, layout, update_id, subject, body, PUBLISH_SECONDS)
    except Exception as error:  # the broker is away, slow, or refused it
        log.warning("update %d not confirmed by the broker (%s: %s): polled again",
                    update_id, type(error).__name__, error)
        return False
    return True


class Failing:
    """A failure that repeats, logged once a minute at most."""

    def __init__(self) -> None:
        self.logged_at = -SAY_EVERY

    def say(self, what: str, error: Exception) -> None:
        now = time.monotonic()
        if now - self.logged_at >= SAY_EVERY:
            self.logged_at = now
            log.warning("%s (%s: %s); trying again every %g s", what, type(error).__name__,
                        error, RETRY_SECONDS)

    def over(self) -> None:
        self.logged_at = -SAY_EVERY
