"""One partition's pull from its durable consumer, a message at a time, in JetStream's own wire
protocol: a request for the next message (`$JS.API.CONSUMER.MSG.NEXT`), and once a message is
handled, its acknowledgement and the request for the one after it in a single message (`+NXT`,
the acknowledgement's reply subject being where the next one goes). nats-py's `fetch` sends an
acknowledgement and then a request: one protocol message an update more for the worker to send
and the broker to handle (a burst of 400 updates sent the broker 1,324 messages that way, 956
this way).

The consumer lets one message be unacknowledged at most (bot.cluster.stream), so however many
requests are waiting, the next message comes only after the last was acknowledged: the order is
the broker's to keep. Each request has a reply subject of its own (the pull's inbox, numbered),
so the end of a request given up — asked again after it went unanswered — is told apart from the
end of the one awaited, and never makes the pull ask twice.

A partition taken over from a worker that died with an update in hand would wait for it until
the broker's ack wait (REDELIVER_SECONDS) ran out: the new owner hands it back at once instead
(`hand_back`), with a negative acknowledgement on the subject the broker gave it, which the
consumer's record names (JetStream's acknowledgement subjects are
`$JS.ACK.<stream>.<consumer>.<deliveries>.<stream seq>.<consumer seq>.<time>.<pending>`, of
which the broker reads the sequences). Nothing else could hold it: a partition is taken only
from a worker whose lease ran out, and a worker giving one up drains it first.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque

from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.api import ConsumerInfo

NEXT_API = "$JS.API.CONSUMER.MSG.NEXT.{stream}.{consumer}"
ACK_SUBJECT = "$JS.ACK.{stream}.{consumer}.1.{stream_seq}.{consumer_seq}.0.0"
NAK = b"-NAK"  # JetStream's "not handled: deliver it again now"
ACK_NEXT = b"+NXT "  # JetStream's "acknowledged; deliver the next to my reply subject"
GRACE_SECONDS = 1.0  # past a request's expiry with no word from the broker: it was lost
HEARTBEAT = "100"  # a status the broker sends to a request that asked for idle heartbeats
EXPIRED = "408"  # a request's end with nothing for it; any other status is a refusal (409:
# the server shutting down, the consumer deleted; 503: no JetStream), after which the caller
# waits before asking again rather than asking in a loop


class PullRefused(RuntimeError):
    """The broker ended a request with an error (e.g. 409: it is shutting down)."""


class Pull:
    """`next()` the partition's next message (None: nothing came within `expires` seconds);
    `done(message)` once it is handled: acknowledged, and the next one asked for.

    The inbox's messages come to a callback that hands each to the waiting `next()` (a deque
    and one future), not through nats-py's `next_msg`: that makes two tasks, a `wait_for` and
    a random id a message, a worker's dearest step per update after the handling itself."""

    def __init__(self, client: Client, stream: str, consumer: str, expires: float) -> None:
        self.client = client
        self.api = NEXT_API.format(stream=stream, consumer=consumer)
        self.expires = expires
        self.inbox = client.new_inbox()
        self.subscription: Subscription | None = None
        self.number = 0  # the request awaited is the inbox's `number`th
        self.asked_at: float | None = None  # when it was sent; None: none awaited
        self.life = expires  # the awaited request's (`next(expires=...)` may shorten it)
        self.bodies: dict[float, bytes] = {}  # a request's body, by its life
        self.arrived: deque[Msg] = deque()  # come, not yet taken by `next()`
        self.waiter: asyncio.Future[None] | None = None  # the `next()` waiting for one

    async def open(self) -> Pull:
        self.subscription = await self.client.subscribe(f"{self.inbox}.*", cb=self.arrive)
        return self

    async def close(self) -> None:
        if self.subscription is not None:
            await self.subscription.unsubscribe()

    async def arrive(self, message: Msg) -> None:
        self.arrived.append(message)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def request(self, expires: float | None = None) -> tuple[str, bytes]:
        """A new request living `expires` seconds (the pull's own by default): its reply
        subject, and its body."""
        self.number += 1
        self.asked_at = time.monotonic()
        self.life = self.expires if expires is None else expires
        body = self.bodies.get(self.life)
        if body is None:
            body = self.bodies[self.life] = json.dumps(
                {"batch": 1, "expires": int(self.life * 1e9)}).encode()
        return f"{self.inbox}.{self.number}", body

    async def ask(self, expires: float | None = None) -> None:
        reply, body = self.request(expires)
        await self.client.publish(self.api, body, reply=reply)

    def lost(self) -> None:
        """The request awaited is gone with the connection (the client reconnected: the
        broker it reached may have restarted, forgetting its waiting requests): `next()`
        returns None now rather than at its expiry, and the next call asks anew."""
        self.asked_at = None
        if self.waiter is not None:
            _expire(self.waiter)

    async def next(self, expires: float | None = None) -> Msg | None:
        """The next message; None once the request awaited ended without one (expired, lost:
        no word from the broker by its expiry, or `lost()`), the next call asking again — for
        `expires` seconds if given, else the pull's own."""
        assert self.subscription is not None, "open() first"
        if self.asked_at is None:
            await self.ask(expires)
        awaited = f"{self.inbox}.{self.number}"
        assert self.asked_at is not None
        deadline = self.asked_at + self.life + GRACE_SECONDS
        while self.asked_at is not None \
                and (message := await self.arrival(deadline)) is not None:
            headers = message.headers or {}
            status = headers.get("Status")
            if status is None:  # a message of the stream, whichever request brought it
                self.asked_at = None
                return message
            if status == HEARTBEAT or message.subject != awaited:
                continue  # a request given up, ending now: another is awaited
            self.asked_at = None
            if status == EXPIRED:  # nothing came while it waited: the next call asks again
                return None
            raise PullRefused(f"{status} {headers.get('Description', '')}".strip())
        self.asked_at = None
        return None

    async def arrival(self, deadline: float) -> Msg | None:
        """The inbox's next message, or None if none came by `deadline` (time.monotonic)."""
        if not self.arrived:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            loop = asyncio.get_running_loop()
            self.waiter = waiter = loop.create_future()
            timer = loop.call_later(left, _expire, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self.waiter = None
            if not self.arrived:
                return None
        return self.arrived.popleft()

    async def done(self, message: Msg, expires: float | None = None) -> None:
        """Acknowledge the message and ask for the next (for `expires` seconds if given) in
        one message to the broker (not waited for: one lost brings the message again, and the
        next call asks anew)."""
        reply, body = self.request(expires)
        try:
            await self.client.publish(message.reply, ACK_NEXT + body, reply=reply)
        except Exception:
            self.asked_at = None
            raise


def _expire(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


async def hand_back(client: Client, info: ConsumerInfo) -> bool:
    """The update a consumer's last reader had in hand, if any, delivered again at once
    (whether there was one). With one unacknowledged at most, it is the last delivered."""
    if not info.num_ack_pending or info.delivered is None:
        return False
    await client.publish(ACK_SUBJECT.format(
        stream=info.stream_name, consumer=info.name, stream_seq=info.delivered.stream_seq,
        consumer_seq=info.delivered.consumer_seq), NAK)
    return True
