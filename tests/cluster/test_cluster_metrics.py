"""The worker's metrics against a real NATS server, read from the bot's registry before and
after (the registry is the process's: every check is on a difference, or on a gauge the test's
consumers alone move): updates handled by partition and outcome with their handling seconds, a
redelivered update counted as one, each partition's lag (updates published and not yet
delivered), and the partitions consumed with each start of consuming counted as a take-over."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from nats.aio.client import Client

from bot.cluster.consumers import Consumers, Handle
from bot.cluster.stream import Layout, consumer_config, ensure_stream
from bot.runtime import metrics
from tests.waiting import until

PARTITIONS = 4
REDELIVER = 1.0
LAG_SECONDS = 0.05  # the lag read often, so the test waits little for it


@pytest.fixture
def layout(stream) -> Layout:
    return Layout(stream, PARTITIONS)


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


async def publish(client: Client, layout: Layout, partition: int, *bodies: str) -> None:
    js = client.jetstream()
    await ensure_stream(js, layout)
    for body in bodies:
        await js.publish(layout.subject(partition), body.encode(), stream=layout.stream)


class Running:
    """A Consumers run in the background; `stop()` ends it."""

    def __init__(self, client: Client, layout: Layout, handle: Handle,
                 may_act: Callable[[int], bool] = lambda _partition: True) -> None:
        self.consumers = Consumers(client, layout, REDELIVER, handle, may_act,
                                   lag_seconds=LAG_SECONDS)
        self.stopping = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> Running:
        self.task = asyncio.create_task(self.consumers.run(self.stopping, every=True))
        return self

    async def stop(self) -> None:
        self.stopping.set()
        assert self.task is not None
        await asyncio.wait_for(self.task, 30)


async def test_updates_handled_counted_by_partition_and_outcome_with_their_seconds(client,
                                                                                    layout):
    now = [0.0]

    async def handle(body: bytes) -> None:
        now[0] += 0.3  # the handling takes 0.3 s of the consumers' clock, none of the wall's
        if body == b"bad":
            raise RuntimeError("a handler's bug")

    def counts() -> tuple[float, ...]:
        return (value("twentyfour_partition_updates_handled_total", partition="1", outcome="ok"),
                value("twentyfour_partition_updates_handled_total", partition="2",
                      outcome="failed"),
                value("twentyfour_partition_updates_handled_total", partition="2", outcome="ok"),
                value("twentyfour_partition_handling_seconds_count", partition="1"),
                value("twentyfour_partition_handling_seconds_sum", partition="1"),
                value("twentyfour_partition_handling_seconds_bucket", partition="1", le="0.1"),
                value("twentyfour_partition_handling_seconds_bucket", partition="1", le="0.5"))

    before = counts()
    await publish(client, layout, 1, "a", "b", "c")
    await publish(client, layout, 2, "bad")
    running = Running(client, layout, handle)
    running.consumers.clock = lambda: now[0]
    running.start()
    try:
        await until(lambda: running.consumers.handled == 4, "four updates handled")
    finally:
        await running.stop()
    moved = [after - earlier for after, earlier in zip(counts(), before, strict=True)]
    assert moved == [3, 1, 0, 3, pytest.approx(0.9), 0, 3]


async def test_a_redelivered_update_counts_as_a_redelivery(client, layout):
    handled: list[bytes] = []

    async def handle(body: bytes) -> None:
        handled.append(body)

    await publish(client, layout, 0, "again", "once")
    running = Running(client, layout, handle)
    await running.consumers.subscribe(0)  # the consumer declared, then its first delivery
    taken = await client.jetstream().pull_subscribe_bind(durable=layout.consumer(0),
                                                         stream=layout.stream)
    [message] = await taken.fetch(1, timeout=10)
    await message.nak()  # given back: the broker delivers it again at once
    await taken.unsubscribe()
    before = value("twentyfour_partition_redeliveries_total", partition="0")
    running.start()
    try:
        await until(lambda: handled == [b"again", b"once"], "both updates handled")
    finally:
        await running.stop()
    assert value("twentyfour_partition_redeliveries_total", partition="0") == before + 1


async def test_lag_is_what_was_published_and_not_yet_delivered(client, layout):
    held = asyncio.Event()

    async def handle(body: bytes) -> None:
        if body == b"0":  # partition 3's first update holds it: the rest wait in the broker
            await held.wait()

    def lag(partition: int) -> float | None:
        return metrics.REGISTRY.get_sample_value("twentyfour_partition_lag_updates",
                                                 {"partition": str(partition)})

    await publish(client, layout, 3, *(str(number) for number in range(5)))
    running = Running(client, layout, handle).start()
    try:
        await until(lambda: lag(3) == 4 and lag(1) == 0, "partition 3 lags by 4, 1 by none")
        await publish(client, layout, 3, "5", "6")
        await until(lambda: lag(3) == 6, "two more published behind the held one")
        held.set()
        await until(lambda: lag(3) == 0, "partition 3 caught up")
    finally:
        held.set()
        await running.stop()
    assert (lag(3), lag(1)) == (None, None)  # consumed by nobody here: no lag of ours


async def test_partitions_consumed_and_each_start_a_takeover(client, layout):
    leading = True

    async def handle(body: bytes) -> None:
        return None

    def consumed() -> float:
        return value("twentyfour_worker_partitions")

    owned, takeovers = consumed(), value("twentyfour_worker_takeovers_total")
    first = Running(client, layout, handle, lambda _partition: leading).start()
    try:
        await until(lambda: consumed() == owned + PARTITIONS, "every partition consumed")
        assert value("twentyfour_worker_takeovers_total") == takeovers + 1
        leading = False  # the lease ended: a partition whose update comes stops being consumed
        await publish(client, layout, 2, "left")
        await until(lambda: consumed() == owned + PARTITIONS - 1, "partition 2 let go")
    finally:
        await first.stop()
    assert consumed() == owned
    leading = True
    second = Running(client, layout, handle, lambda _partition: leading).start()
    try:
        await until(lambda: consumed() == owned + PARTITIONS, "consumed again")
        assert value("twentyfour_worker_takeovers_total") == takeovers + 2
    finally:
        await second.stop()
    assert consumed() == owned


async def test_lags_are_read_past_the_first_page_of_consumers(client, stream):
    """The broker lists 256 consumers a page: a worker of 300 partitions reads the lag of one
    on the second page as of one on the first."""
    many = Layout(stream, 300)
    consumers = Consumers(client, many, REDELIVER, lambda body: asyncio.sleep(0),
                          lambda _partition: True)
    await ensure_stream(client.jetstream(), many)
    for partition in range(many.partitions):
        await client.jetstream().add_consumer(many.stream,
                                              consumer_config(many, partition, REDELIVER))
    await publish(client, many, 5, "a")
    await publish(client, many, 299, "b", "c")
    consumers.consuming.update({5, 299})
    await consumers.read_lags()
    try:
        assert (lag_of(5), lag_of(299)) == (1, 2)
    finally:
        for partition in (5, 299):  # as a partition let go loses its lag
            metrics.PARTITION_LAG.remove(str(partition))


def lag_of(partition: int) -> float | None:
    return metrics.REGISTRY.get_sample_value("twentyfour_partition_lag_updates",
                                             {"partition": str(partition)})
