"""The worker's side of the broker: a loop a partition, each taking the partition's next update,
handing its body to the bot (`handle`, the composition root's), and acknowledging it once the bot
is done with it, in the same message as the request for the next (bot.cluster.pulling). The
partitions run side by side; within one, the consumer lets one update be unacknowledged at most
(bot.cluster.stream), so a chat's updates are handled in the order Telegram gave them.

An update whose handling raised is acknowledged all the same, after the error was logged (the
bot's own error handler has run by then): taken again it would fail again, and hold its partition
for ever. One that was taken and never acknowledged (the worker died, or lost its lease and
stopped) is delivered again after REDELIVER_SECONDS, to whichever worker consumes the partition
then; its claim (bot.play.guards.once) makes it act once. While an update takes longer than
that, the loop tells the broker it is still at work on it, so it is not delivered twice.

Beside Telegram's updates a partition carries the workers' own notices, marked by the NOTICE
header (which an ingress never sets): a worker that moved a group's rows to a supergroup of
another worker's partition `announce`s it there, and the owner takes it up in order with the
supergroup's updates (`notice`, the composition root's).

What an operator alerts on is recorded here (bot.runtime.metrics): the partitions consumed now
and each start of consuming (a take-over), each partition's updates handled, their seconds and
the redeliveries among them, and its lag — the updates the broker holds for it, not yet
delivered — read from the broker's listing of the consumers every LAG_SECONDS rather than per
update.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from nats.aio.client import Client
from nats.aio.msg import Msg

from bot.cluster.partitions import partition_of
from bot.cluster.pulling import Pull, hand_back
from bot.cluster.stream import (
    MSG_ID,
    REQUEST_SECONDS,
    SAY_EVERY,
    Layout,
    close,
    connect,
    consumer_config,
    ensure_stream,
)
from bot.runtime import arrivals, metrics
from bot.runtime.config import Config

Handle = Callable[[bytes], Awaitable[None]]
NOTICE = "Twentyfour-Notice"  # the header of a worker's own message in a partition
# One long poll of a partition's consumer: each that ends with nothing is an answer from the
# broker and a new request, so the worker and the broker pay for idle partitions by the second
# (64 partitions at 2 s: 32 a second, 2.7 ms of an idle worker's CPU a second and as much of
# the broker's, more than at 30 s). A poll is not bounded by the lease: a worker frozen with
# one waiting would be handed the partition's next update after another took the partition
# over (the broker serves the polls in turn), and the new owner finds that poll waiting
# (`suspect`) and hands back what it took. A poll lost with the connection is asked anew as
# the client reconnects.
FETCH_SECONDS = 30.0
# A partition whose consumer had another's poll waiting when it was taken is polled this long
# at a time, its consumer read after each: an update the other poll took (its worker frozen,
# its lease gone) is delivered again at once, not after REDELIVER_SECONDS.
SUSPECT_SECONDS = 1.0
RETRY_SECONDS = 1.0  # after a fetch failed (the broker away): the client reconnects meanwhile
DRAIN_SECONDS = 20.0  # a stop waits this long for the updates being handled to finish
LAG_SECONDS = 5.0  # between two readings of the partitions' lag
LIST_API = "$JS.API.CONSUMER.LIST.{stream}"  # JetStream's listing of a stream's consumers
# An update in hand longer than this share of REDELIVER_SECONDS is reminded to the broker, and
# again at each such interval: half leaves a reminder ample time to arrive (a second at the
# demo's 2 s), and a burst's updates, which wait their turn in the fair queue, rarely need one
# (at a third, a burst of a worker sent one and a half reminders an update, each a message for
# the broker to handle)
REMIND_AT = 0.5

log = logging.getLogger(__name__)


class Consumers:
    """The worker's partitions: `run` until `stop` is set, consuming the partitions `add`ed
    (all of them with `every=True`) until each is `drain`ed; each update goes to `handle` while
    `may_act(partition)` holds (the worker's lease, its ownership of the partition), and is
    acknowledged after."""

    def __init__(self, client: Client, layout: Layout, redeliver_seconds: float,
                 handle: Handle, may_act: Callable[[int], bool],
                 lag_seconds: float = LAG_SECONDS, notice: Handle | None = None,
                 fetch_seconds: float = FETCH_SECONDS) -> None:
        self.client = client
        self.js = client.jetstream(timeout=REQUEST_SECONDS)
        self.layout = layout
        self.redeliver_seconds = redeliver_seconds
        self.handle = handle
        self.notice = notice
        self.may_act = may_act
        self.lag_seconds = lag_seconds
        self.fetch_seconds = fetch_seconds
        self.clock: Callable[[], float] = time.perf_counter  # an update's handling seconds
        self.consuming: set[int] = set()  # partitions whose loop runs
        self.handling: set[int] = set()  # partitions with an update in hand
        self.loops: dict[int, asyncio.Task[None]] = {}
        self.pulls: dict[int, Pull] = {}  # the consumed partitions' pulls
        self.suspect: set[int] = set()  # taken with another's poll waiting (SUSPECT_SECONDS)
        self.last_taken: dict[int, int] = {}  # partition -> stream sequence of its last update
        self.leaving: set[int] = set()  # partitions being drained: no more fetches
        self.handled = 0
        self.stopping = False
        self.failed_said_at = -SAY_EVERY  # the last line about a failed fetch: one a minute
        self.reminders = Reminders(redeliver_seconds * REMIND_AT)

    async def run(self, stop: asyncio.Event, every: bool = False) -> None:
        """Declare the stream, consume (every partition with `every`, else those added) until
        `stop` is set, then let the updates in hand finish (up to DRAIN_SECONDS) and leave the
        rest."""
        await ensure_stream(self.js, self.layout)
        if every:
            for partition in range(self.layout.partitions):
                await self.add(partition)
            log.info("consuming %d partitions of stream %s", self.layout.partitions,
                     self.layout.stream)
            metrics.record_takeover()
        lag = asyncio.create_task(self.watch_lag())
        try:
            await stop.wait()
        finally:
            self.stopping = True
            lag.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await lag
            await self.drain(list(self.loops))
            await self.reminders.stop()

    async def add(self, partition: int) -> None:
        """Start consuming the partition (its consumer declared first)."""
        if partition in self.loops:
            return
        self.leaving.discard(partition)
        pull = await self.subscribe(partition)
        self.loops[partition] = asyncio.create_task(self.consume(partition, pull))

    async def drain(self, partitions: list[int]) -> None:
        """Stop consuming the partitions: those waiting on the broker at once, those with an
        update in hand once it is handled and acknowledged (up to DRAIN_SECONDS; past that
        it is left unacknowledged, and the broker delivers it again)."""
        loops = {p: self.loops.pop(p) for p in partitions if p in self.loops}
        self.leaving.update(loops)
        for partition, loop in loops.items():
            if partition not in self.handling:  # waiting on the broker: nothing in hand
                loop.cancel()
        if not loops:
            return
        _done, left = await asyncio.wait(loops.values(), timeout=DRAIN_SECONDS)
        for loop in left:
            loop.cancel()
        await asyncio.gather(*loops.values(), return_exceptions=True)
        if left:
            log.warning("stopped with %d updates unfinished: the broker delivers them "
                        "again", len(left))

    async def subscribe(self, partition: int) -> Pull:
        """The partition's durable consumer, declared (or brought to this configuration: a
        changed REDELIVER_SECONDS applies), and a pull from it. An update its last reader had
        in hand (a worker that died with it, or froze) is delivered again at once rather than
        after REDELIVER_SECONDS; a poll of another worker still waiting there makes the
        partition `suspect`."""
        info = await self.js.add_consumer(self.layout.stream,
                                          consumer_config(self.layout, partition,
                                                          self.redeliver_seconds))
        if await hand_back(self.client, info):
            log.info("partition %d: the update its last owner had in hand, delivered again now",
                     partition)
        if info.num_waiting:
            self.suspect.add(partition)
        else:
            self.suspect.discard(partition)
        return await Pull(self.client, self.layout.stream, self.layout.consumer(partition),
                          self.fetch_seconds).open()

    def life(self, partition: int) -> float | None:
        """How long the partition's next poll lives: None for the pull's own."""
        return SUSPECT_SECONDS if partition in self.suspect else None

    async def settle(self, partition: int) -> None:
        """A suspect partition's poll ended with nothing: an update delivered to another's
        poll (not this worker's last) is handed back; once no other poll waits, the partition
        is polled as any other."""
        info = await self.js.consumer_info(self.layout.stream, self.layout.consumer(partition))
        delivered = info.delivered.stream_seq if info.delivered is not None else None
        if info.num_ack_pending and delivered != self.last_taken.get(partition) \
                and await hand_back(self.client, info):
            log.info("partition %d: an update another worker's poll took, delivered again now",
                     partition)
        if not info.num_waiting:
            self.suspect.discard(partition)

    def reconnected(self) -> None:
        """The broker's connection came back: every poll awaited may be gone with it."""
        for pull in self.pulls.values():
            pull.lost()

    async def consume(self, partition: int, pull: Pull) -> None:
        """One partition's loop, counted as consumed while it runs (`take`)."""
        self.consuming.add(partition)
        self.pulls[partition] = pull
        metrics.record_partition_consumed(partition, True)
        try:
            await self.take(partition, pull)
        finally:
            self.consuming.discard(partition)
            if self.pulls.get(partition) is pull:
                del self.pulls[partition]
            metrics.record_partition_consumed(partition, False)
            with contextlib.suppress(Exception):
                await pull.close()

    async def take(self, partition: int, pull: Pull) -> None:
        """Take an update, handle it, acknowledge it (asking for the next), and again."""
        while not self.stopping and partition not in self.leaving:
            try:
                message = await pull.next(self.life(partition))
                if message is None and partition in self.suspect:
                    await self.settle(partition)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the broker away: every partition sees it
                now = time.monotonic()
                if now - self.failed_said_at >= SAY_EVERY:
                    self.failed_said_at = now
                    log.warning("partition %d: fetch failed (%s: %s); trying again every "
                                "%g s", partition, type(error).__name__, error, RETRY_SECONDS)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if message is None:
                continue  # nothing came
            self.last_taken[partition] = message.metadata.sequence.stream
            if message.metadata.num_delivered > 1:  # taken before, never acknowledged
                metrics.record_redelivery(partition)
            if partition in self.leaving or not self.may_act(partition):
                # not this worker's to handle (any more): the next owner takes it at once
                log.info("partition %d: an update handed back (not owned here now)",
                         partition)
                with contextlib.suppress(Exception):
                    await message.nak()
                return
            self.handling.add(partition)
            try:
                await self.handle_one(partition, message, pull)
            finally:
                self.handling.discard(partition)

    async def handle_one(self, partition: int, message: Msg, pull: Pull) -> None:
        self.reminders.hold(partition, message)
        started, failed = self.clock(), False
        try:
            if message.headers and NOTICE in message.headers:
                if self.notice is not None:
                    await self.notice(message.data)
            else:
                with arrivals.arrived(arrivals.monotonic() - stored_for(message)):
                    await self.handle(message.data)
        except Exception:
            failed = True
            log.exception("partition %d: an update failed; acknowledged all the same (taken "
                          "again, it would fail again)", partition)
        finally:
            seconds = self.clock() - started  # the handling's own, not the waits after it
            self.reminders.release(partition)
        try:
            if self.stopping or partition in self.leaving:
                # the last one before the partition is let go: waited for, so that the broker
                # has it before this worker (or its lease) goes and nobody takes it again
                await message.ack_sync(timeout=REQUEST_SECONDS)
            else:
                # not waited for: one lost (the connection dropped) only brings the update
                # again, whose claim makes it act once
                await pull.done(message, self.life(partition))
        except Exception as error:
            log.warning("partition %d: an update's acknowledgement failed (%s: %s)",
                        partition, type(error).__name__, error)
        self.handled += 1
        metrics.observe_partition_update(partition, seconds, failed)

    async def announce(self, chat: int, kind: str, body: bytes) -> None:
        """A notice of `kind` to the worker owning the chat's partition, in the stream (once
        within the duplicate window, whoever sends it again); JetStream's failure is raised."""
        subject = self.layout.subject(partition_of(chat, self.layout.partitions))
        headers = {NOTICE: kind, MSG_ID: f"{kind}-{hashlib.sha256(body).hexdigest()[:32]}"}
        await self.js.publish(subject, body, timeout=REQUEST_SECONDS, headers=headers)

    async def watch_lag(self) -> None:
        """Every `lag_seconds`, each consumed partition's lag; a reading that fails keeps the
        last one (the fetches' failures say why)."""
        while True:
            with contextlib.suppress(Exception):
                await self.read_lags()
            await asyncio.sleep(self.lag_seconds)

    async def read_lags(self) -> None:
        """The consumed partitions' lags from one listing of the stream's consumers, a page at
        a time (the broker's pages hold 256), read as JSON: a request and its conversion into
        nats-py's records a partition cost a worker 2 % of its CPU in a burst."""
        consumed = {self.layout.consumer(partition): partition for partition in self.consuming}
        offset = 0
        while True:
            reply = await self.client.request(LIST_API.format(stream=self.layout.stream),
                                              json.dumps({"offset": offset}).encode(),
                                              timeout=REQUEST_SECONDS)
            page = json.loads(reply.data)
            listed = page.get("consumers") or []
            for info in listed:
                partition = consumed.get(info.get("name"))
                if partition in self.consuming and "num_pending" in info:  # still ours
                    metrics.set_partition_lag(partition, info["num_pending"])
            offset += len(listed)
            if not listed or offset >= page.get("total", 0):
                return

@dataclass
class Held:
    """An update in hand, and when it was taken or last reminded."""

    message: Msg
    since: float


class Reminders:
    """Tells the broker, for each update in hand `every` seconds, that the worker is still at
    work on it, and again each `every` after: one sweep over the partitions SWEEPS times in
    `every`, not a timer and a task an update. In a burst every partition holds an update at
    once, each for longer the more there are, so reminders an update grow with the load; a
    sweep sends its reminders in one write to the broker. The first comes between
    (SWEEPS - 1) / SWEEPS of `every` and `every` after the update was taken, never later."""

    SWEEPS = 4

    def __init__(self, every: float) -> None:
        self.every = every
        self.held: dict[int, Held] = {}  # partition -> the update it has in hand
        self.sweeping: asyncio.Task[None] | None = None

    def hold(self, partition: int, message: Msg) -> None:
        self.held[partition] = Held(message, time.monotonic())
        if self.sweeping is None:
            self.sweeping = asyncio.create_task(self.sweep())

    def release(self, partition: int) -> None:
        self.held.pop(partition, None)

    async def sweep(self) -> None:
        period = self.every / self.SWEEPS
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            for held in [h for h in self.held.values() if now - h.since >= self.every - period]:
                held.since = now
                await quietly(held.message.in_progress())

    async def stop(self) -> None:
        if self.sweeping is not None:
            self.sweeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeping
            self.sweeping = None


def stored_for(message: Msg) -> float:
    """How long the update waited in the stream: since the broker stored it (the ingress put
    it there as it took it from Telegram), as the broker's clock and ours tell (0 if unknown)."""
    try:
        stored = message.metadata.timestamp
    except Exception:  # not a JetStream message (a test's)
        return 0.0
    return max(0.0, time.time() - stored.timestamp())


async def quietly(work: Awaitable[object]) -> None:
    with contextlib.suppress(Exception):
        await work


@contextlib.asynccontextmanager
async def consumers_of(config: Config, handle: Handle, may_act: Callable[[int], bool],
                       notice: Handle | None = None) -> AsyncIterator[Consumers]:
    """The worker's consumers on the broker of NATS_URL, connected while the block runs."""
    assert config.nats_url, "check_role(config, WORKER) first"
    consumers: Consumers | None = None

    def reconnected() -> None:
        if consumers is not None:
            consumers.reconnected()

    client: Client = await connect(config.nats_url, "twentyfour-worker", config.startup_seconds,
                                   reconnected)
    try:
        consumers = Consumers(client, Layout(config.nats_stream, config.partitions),
                              config.redeliver_seconds, handle, may_act, notice=notice)
        yield consumers
    finally:
        await close(client)
