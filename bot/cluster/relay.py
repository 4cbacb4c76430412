"""The Mini App's requests, carried from its own role to the worker that can answer them.

A round lives in the memory of the worker owning its chat's partition, so a request about a
round (its page, an answer made there) must reach that worker, whichever process took the
HTTP request. The Mini App role (`python -m bot webapp`) keeps nothing: it hands each request to
the broker as a NATS request on `<stream>-webapp.<p>`, the subject of the chat's partition, and
waits for the reply; a worker listens on the subjects of the partitions it owns, from when their
rounds were taken up until it starts giving them up. A request that names no chat (a player's or
a group's page, a share card: read from the database) goes to `<stream>-webapp.any`, which every
worker shares as a queue group, so one of them answers.

Nothing here is kept by the broker: a plain request and reply, never the stream (its subjects
are `<stream>.<p>`, one token; these are not). No owner listening (a partition between two
owners, every worker down), no reply in time, or a worker that has just stopped owning the
partition (its reply is empty): the caller hears None and says "try again". What the bytes mean
is the Mini App's (bot.webapp.relayed); this moves them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

import nats.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from bot.cluster.partitions import partition_of
from bot.cluster.stream import Layout, close, connect
from bot.runtime.config import Config

log = logging.getLogger(__name__)
REPLY_SECONDS = 20.0  # an answer waits its turn in the fair lane and is judged: seconds at most
ANY = "any"  # the subject's last token for what any worker answers
QUEUE = "workers"  # the queue group: one listener of a subject gets each request
MOST_IN_HAND = 1000  # requests a worker answers at once; past it, "try again"
NOT_HERE = b""  # a worker's reply when the partition is no longer its own

Answer = Callable[[bytes], Awaitable[bytes]]


def relay_subject(layout: Layout, partition: int | None) -> str:
    return f"{layout.prefix}-webapp.{ANY if partition is None else partition}"


class Relay:
    """The Mini App role's side: a request to the worker owning a chat (or to any worker)."""

    def __init__(self, client: Client, layout: Layout, seconds: float = REPLY_SECONDS) -> None:
        self.client = client
        self.layout = layout
        self.seconds = seconds

    async def ask(self, chat: int | None, payload: bytes) -> bytes | None:
        """The reply of the worker owning `chat`'s partition (None: any worker); None when no
        worker answered for it."""
        partition = None if chat is None else partition_of(chat, self.layout.partitions)
        try:
            reply = await self.client.request(relay_subject(self.layout, partition), payload,
                                              timeout=self.seconds)
        except (nats.errors.NoRespondersError, nats.errors.TimeoutError, TimeoutError):
            return None
        except nats.errors.Error as error:  # the connection is away (it reconnects)
            log.warning("webapp request to partition %s not carried: %r", partition, error)
            return None
        return reply.data if reply.data != NOT_HERE else None


class Responder:
    """A worker's side: it listens on the subjects of its partitions (`add`, `remove`) and on
    the shared one, answers each request in a task of its own (one slow answer holds no other
    back), and replies NOT_HERE to one that comes once `may_act` says the partition is no
    longer its own."""

    def __init__(self, client: Client, layout: Layout, answer: Answer,
                 may_act: Callable[[int], bool]) -> None:
        self.client = client
        self.layout = layout
        self.answer = answer
        self.may_act = may_act
        self.listening: dict[int | None, Subscription] = {}
        self.in_hand: dict[int | None, set[asyncio.Task[None]]] = {}

    async def add(self, partition: int | None) -> None:
        if partition in self.listening:
            return

        async def heard(message: Msg) -> None:
            self._take(partition, message)
        self.listening[partition] = await self.client.subscribe(
            relay_subject(self.layout, partition), queue=QUEUE, cb=heard)

    async def remove(self, partitions: list[int]) -> None:
        """Stop listening for these partitions, and wait for the requests about them in hand
        (before the partitions are given up: nothing of theirs is answered after)."""
        for partition in partitions:
            await self._stop(partition)

    async def _stop(self, partition: int | None) -> None:
        listening = self.listening.pop(partition, None)
        if listening is not None:
            with contextlib.suppress(nats.errors.Error):
                await listening.unsubscribe()
        if in_hand := self.in_hand.get(partition):
            await asyncio.wait(set(in_hand))

    def _take(self, partition: int | None, message: Msg) -> None:
        if not message.reply:
            return
        if sum(map(len, self.in_hand.values())) >= MOST_IN_HAND:
            task = asyncio.create_task(self._reply(message, NOT_HERE))
        else:
            task = asyncio.create_task(self._answer(partition, message))
        in_hand = self.in_hand.setdefault(partition, set())
        in_hand.add(task)
        task.add_done_callback(in_hand.discard)

    async def _answer(self, partition: int | None, message: Msg) -> None:
        if partition is not None and not self.may_act(partition):
            return await self._reply(message, NOT_HERE)
        try:
            reply = await self.answer(message.data)
        except Exception:  # its own refusals are replies: anything else is a bug, logged
            log.exception("a Mini App request was not answered")
            reply = NOT_HERE
        await self._reply(message, reply)  # the partition is given up only after: it is true

    async def _reply(self, message: Msg, data: bytes) -> None:
        with contextlib.suppress(nats.errors.Error):
            await message.respond(data)

    async def close(self) -> None:
        for partition in list(self.listening):
            await self._stop(partition)


@contextlib.asynccontextmanager
async def responder_of(config: Config, answer: Answer, may_act: Callable[[int], bool]
                       ) -> AsyncIterator[Responder]:
    """A worker's responder on the broker of NATS_URL, listening on the shared subject while
    the block runs."""
    assert config.nats_url, "check_role(config, WORKER) first"
    client = await connect(config.nats_url, "twentyfour-worker-webapp", config.startup_seconds)
    responder = Responder(client, Layout(config.nats_stream, config.partitions), answer, may_act)
    try:
        await responder.add(None)
        yield responder
    finally:
        await responder.close()
        await close(client)


@contextlib.asynccontextmanager
async def relay_of(config: Config) -> AsyncIterator[Relay]:
    """The Mini App role's relay on the broker of NATS_URL, connected while the block runs."""
    assert config.nats_url, "check_role(config, WEBAPP) first"
    client = await connect(config.nats_url, "twentyfour-webapp", config.startup_seconds)
    try:
        yield Relay(client, Layout(config.nats_stream, config.partitions))
    finally:
        await close(client)
