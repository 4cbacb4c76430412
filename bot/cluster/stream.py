"""The one JetStream stream of updates and its consumers, one a partition: how they are declared
and how the processes reach the broker.

The stream (NATS_STREAM, `UPDATES` by default) holds subjects `<stream in lower case>.<p>`, one a
partition. It is kept on disk (file storage: a broker restarted keeps what it confirmed); it
forgets a message after MAX_AGE or past MAX_BYTES, the oldest first (a lagging worker would then
lose the oldest updates, which are stale by then anyway: the bot skips a message older than a
round); and it drops a publish whose `Nats-Msg-Id` (the update's id) it saw within
DUPLICATE_WINDOW, so an update Telegram delivers twice, or an ingress publishes again after a
lost confirm, is one message.

Each partition has a durable pull consumer (`partition-<p>`) with explicit acknowledgements and at
most one message unacknowledged (max_ack_pending 1): the partition's next update is delivered only
once the last one was handled and acknowledged, so a chat's updates are handled in order, and one
that a worker took and never acknowledged (it died) is delivered again after `redeliver_seconds`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import nats
import nats.errors
from nats.aio.client import Client
from nats.js import JetStreamContext
from nats.js.api import (
    AckPolicy,
    ConsumerConfig,
    DeliverPolicy,
    DiscardPolicy,
    RetentionPolicy,
    StorageType,
    StreamConfig,
)
from nats.js.errors import NotFoundError

from bot.cluster.partitions import subject
from bot.cluster.unreachable import BrokerUnreachable

DUPLICATE_WINDOW = 120.0  # seconds: Telegram delivers an update again within seconds to minutes
MAX_AGE = 24 * 3600.0  # seconds: Telegram itself keeps an unconfirmed update for a day
MAX_BYTES = 1 << 30  # the stream's disk, the oldest messages dropped first past it
MAX_MESSAGE = 1 << 20  # bytes: the webhook's own limit on an update's body
CONNECT_SECONDS = 5.0
REQUEST_SECONDS = 5.0  # the broker's answer to a publish, a stream's or a consumer's declaration
MSG_ID = "Nats-Msg-Id"  # JetStream's header for its duplicate window
SAY_EVERY = 60.0  # seconds between two lines about the same outage

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Layout:
    """The stream's name and partitions, as the settings give them (NATS_STREAM, PARTITIONS)."""

    stream: str = "UPDATES"
    partitions: int = 64

    @property
    def prefix(self) -> str:
        return self.stream.lower()

    def subject(self, partition: int) -> str:
        return subject(self.prefix, partition)

    def consumer(self, partition: int) -> str:
        return f"partition-{partition}"


async def connect(url: str, name: str, seconds: float,
                  reconnected: Callable[[], None] | None = None) -> Client:
    """A connection to the broker (`url`: one server or several, comma-separated), tried for
    `seconds` (STARTUP_SECONDS) and then kept for ever: a broker that goes away later is
    reconnected to, its failures logged a line a minute at most, `reconnected` called once it
    is back."""
    servers = [server.strip() for server in url.split(",") if server.strip()]
    said = Said(reconnected)
    try:
        said.client = await asyncio.wait_for(
            nats.connect(servers, name=name, connect_timeout=CONNECT_SECONDS,
                         max_reconnect_attempts=-1, reconnect_time_wait=0.5,
                         allow_reconnect=True, error_cb=said.error,
                         disconnected_cb=said.disconnected, reconnected_cb=said.reconnected),
            seconds)
        return said.client
    except (TimeoutError, OSError, nats.errors.Error) as error:
        raise BrokerUnreachable(f"the broker at NATS_URL did not answer in {seconds:g} s "
                                f"({said.last or type(error).__name__})") from None


class Said:
    """The connection's troubles, logged once a minute at most (the client retries every half
    second while the broker is away)."""

    def __init__(self, then: Callable[[], None] | None = None) -> None:
        self.then = then  # called on each reconnection
        self.last: str | None = None
        self.logged_at = -SAY_EVERY
        self.client: Client | None = None

    async def error(self, error: Exception) -> None:
        self.last = f"{type(error).__name__}: {error}"
        now = time.monotonic()
        if now - self.logged_at >= SAY_EVERY:
            self.logged_at = now
            log.warning("broker: %s (retrying)", self.last)

    async def disconnected(self) -> None:
        if self.client is not None and not self.client.is_closed:  # not our own close
            log.warning("broker: disconnected; reconnecting")

    async def reconnected(self) -> None:
        self.logged_at = -SAY_EVERY
        log.info("broker: reconnected")
        if self.then is not None:
            self.then()


async def close(client: Client) -> None:
    """Close the connection. Nothing waits in it: a publish and an acknowledgement are each
    confirmed by the broker before the caller goes on."""
    await client.close()


def stream_config(layout: Layout) -> StreamConfig:
    return StreamConfig(
        name=layout.stream, subjects=[f"{layout.prefix}.*"], retention=RetentionPolicy.LIMITS,
        storage=StorageType.FILE, discard=DiscardPolicy.OLD, max_age=MAX_AGE,
        max_bytes=MAX_BYTES, max_msg_size=MAX_MESSAGE, duplicate_window=DUPLICATE_WINDOW,
        description="Telegram's updates, one subject a partition (twentyfour)")


async def ensure_stream(js: JetStreamContext, layout: Layout) -> None:
    """Declare the stream, or bring an existing one to this configuration."""
    config = stream_config(layout)
    try:
        try:
            await js.stream_info(layout.stream)
        except NotFoundError:
            await js.add_stream(config)
            return
        await js.update_stream(config)
    except (TimeoutError, nats.errors.Error) as error:  # JetStream off, or refused it
        raise BrokerUnreachable(f"the broker's JetStream refused stream {layout.stream} "
                                f"({type(error).__name__}: {error})") from None


def consumer_config(layout: Layout, partition: int, redeliver_seconds: float) -> ConsumerConfig:
    name = layout.consumer(partition)
    return ConsumerConfig(
        name=name, durable_name=name, filter_subject=layout.subject(partition),
        deliver_policy=DeliverPolicy.ALL, ack_policy=AckPolicy.EXPLICIT,
        ack_wait=redeliver_seconds, max_ack_pending=1, max_deliver=-1,
        description=f"partition {partition}, in order (twentyfour)")
