"""The worker's consumers against a real NATS server: each partition's updates handled one at a
time in the order published, the partitions side by side; an update acknowledged once handled,
one whose handling raised acknowledged all the same (no loop on it); one taken while not leading
left for the next owner, which gets it after the redelivery time; one in hand longer than that
not delivered again; a stop lets the update in hand finish; a partition taken with a frozen
worker's poll waiting, or whose polls were lost with the broker, waits for neither."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Callable

import nats
import pytest
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.js.errors import NotFoundError

from bot.cluster.consumers import Consumers, Handle, Reminders, consumers_of
from bot.cluster.pulling import NEXT_API, Pull
from bot.cluster.stream import Layout, consumer_config, ensure_stream
from bot.runtime.config import Config
from tests.cluster.broker_server import BrokerServer

PARTITIONS = 4
REDELIVER = 1.0


@pytest.fixture
def layout(stream) -> Layout:
    return Layout(stream, PARTITIONS)


async def publish(client: Client, layout: Layout, partition: int, body: str) -> None:
    js = client.jetstream()
    await ensure_stream(js, layout)
    await js.publish(layout.subject(partition), body.encode(), stream=layout.stream)


class Running:
    """A Consumers run in the background; `stop()` ends it."""

    def __init__(self, client: Client, layout: Layout, handle: Handle,
                 may_act: Callable[[int], bool] = lambda _partition: True,
                 redeliver: float = REDELIVER) -> None:
        self.consumers = Consumers(client, layout, redeliver, handle, may_act)
        self.stopping = asyncio.Event()
        self.task = asyncio.create_task(self.consumers.run(self.stopping, every=True))

    async def stop(self) -> None:
        self.stopping.set()
        await asyncio.wait_for(self.task, 30)


async def until(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def pending(client: Client, layout: Layout, partition: int) -> tuple[int, int]:
    """The partition's consumer: updates taken and not acknowledged, and waiting (none: the
    consumer is not declared yet)."""
    try:
        info = await client.jetstream().consumer_info(layout.stream, layout.consumer(partition))
    except NotFoundError:
        return 0, 0
    return info.num_ack_pending, info.num_pending


async def settled(client: Client, layout: Layout, partition: int,
                  timeout: float = 15.0) -> tuple[int, int]:
    """`pending` once the broker shows nothing taken or waiting, or its last reading after
    `timeout`: an acknowledgement the worker did not wait for (all but the last before a stop)
    is handled by the broker after it answered a request sent later on the same connection —
    its consumer takes acknowledgements from a queue of its own — so a reading right after may
    still count it."""
    deadline = time.monotonic() + timeout
    while (reading := await pending(client, layout, partition)) != (0, 0) \
            and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return reading


async def test_each_partition_in_order_and_the_partitions_side_by_side(client, layout):
    handled: list[str] = []
    held = asyncio.Event()

    async def handle(body: bytes) -> None:
        text = body.decode()
        if text == "0:0":  # partition 0's first update waits: the others go on meanwhile
            await held.wait()
        await asyncio.sleep(0.001 * (hash(text) % 5))
        handled.append(text)

    for number in range(6):
        for partition in range(PARTITIONS):
            await publish(client, layout, partition, f"{partition}:{number}")
    running = Running(client, layout, handle)
    try:
        await until(lambda: len(handled) == 6 * (PARTITIONS - 1))
        assert not any(text.startswith("0:") for text in handled)  # all behind the held one
        assert await pending(client, layout, 0) == (1, 5)  # one in hand, never two
        held.set()
        await until(lambda: len(handled) == 6 * PARTITIONS)
        for partition in range(PARTITIONS):
            assert [t for t in handled if t.startswith(f"{partition}:")] == \
                [f"{partition}:{number}" for number in range(6)]
        await until(lambda: running.consumers.handled == 6 * PARTITIONS)
        for partition in range(PARTITIONS):
            assert await settled(client, layout, partition) == (0, 0)  # all acknowledged
    finally:
        await running.stop()


async def test_an_update_that_raises_is_acknowledged_and_the_partition_goes_on(client, layout):
    handled: list[str] = []

    async def handle(body: bytes) -> None:
        handled.append(body.decode())
        if body == b"bad":
            raise RuntimeError("a handler's bug")

    for body in ("bad", "good"):
        await publish(client, layout, 1, body)
    running = Running(client, layout, handle)
    try:
        await until(lambda: handled == ["bad", "good"])
        await asyncio.sleep(REDELIVER * 2)  # past the redelivery time: nothing comes again
        assert handled == ["bad", "good"]
        assert await pending(client, layout, 1) == (0, 0)
    finally:
        await running.stop()


async def test_an_update_taken_while_not_leading_goes_to_the_next_owner(client, layout):
    leading = False
    first: list[bytes] = []
    second: list[bytes] = []

    async def handle_first(body: bytes) -> None:
        first.append(body)

    async def handle_second(body: bytes) -> None:
        second.append(body)

    await publish(client, layout, 2, "answer")
    old = Running(client, layout, handle_first, lambda _partition: leading)
    try:
        for _ in range(300):  # it takes the update, and lets it be
            if (await pending(client, layout, 2))[0] == 1:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)
        assert first == [] and (await pending(client, layout, 2)) == (1, 0)
    finally:
        await old.stop()
    started = time.monotonic()
    new = Running(client, layout, handle_second)
    try:
        await until(lambda: second == [b"answer"])
        assert time.monotonic() - started <= REDELIVER + 2
    finally:
        await new.stop()


async def test_a_stop_lets_the_update_in_hand_finish_and_acknowledges_it(client, layout):
    began, finish = asyncio.Event(), asyncio.Event()
    done: list[bytes] = []

    async def handle(body: bytes) -> None:
        began.set()
        await finish.wait()
        done.append(body)

    await publish(client, layout, 3, "slow")
    running = Running(client, layout, handle)
    await asyncio.wait_for(began.wait(), 15)
    running.stopping.set()
    await asyncio.sleep(0.3)
    assert not running.task.done()  # waiting for the update in hand
    finish.set()
    await asyncio.wait_for(running.task, 30)
    assert done == [b"slow"]
    assert await pending(client, layout, 3) == (0, 0)


async def test_a_changed_redelivery_time_applies_to_the_existing_consumers(client, layout):
    for seconds in (1.0, 3.0):
        consumers = Consumers(client, layout, seconds, lambda body: asyncio.sleep(0),
                              lambda _partition: True)
        await ensure_stream(client.jetstream(), layout)
        await consumers.subscribe(2)
        info = await client.jetstream().consumer_info(layout.stream, layout.consumer(2))
        assert (info.config.ack_wait, info.config.max_ack_pending) == (seconds, 1)


async def test_an_update_in_hand_past_the_redelivery_time_is_not_delivered_again(client, layout):
    """While the worker is at work on an update for three redelivery times, it reminds the
    broker: another consumer asking the same partition all along gets nothing, and the update
    was delivered once."""
    began, finish = asyncio.Event(), asyncio.Event()

    async def handle(body: bytes) -> None:
        began.set()
        await finish.wait()

    await publish(client, layout, 1, "long")
    running = Running(client, layout, handle)
    other = None
    try:
        await asyncio.wait_for(began.wait(), 15)
        other = await Pull(client, layout.stream, layout.consumer(1), REDELIVER * 3).open()
        assert await other.next() is None  # three redelivery times: nothing came to it
        info = await client.jetstream().consumer_info(layout.stream, layout.consumer(1))
        assert (info.num_ack_pending, info.num_redelivered) == (1, 0)
    finally:
        finish.set()
        await running.stop()
        if other is not None:
            await other.close()
    assert await settled(client, layout, 1) == (0, 0)


@pytest.mark.parametrize(("polls", "in_hand"), [(1, False), (2, False), (1, True), (2, True)])
async def test_a_partition_taken_with_a_frozen_workers_poll_waiting_gets_its_updates_at_once(
        client, broker_server, layout, polls, in_hand):
    """A worker froze with long polls waiting at partition 0 — one, or two (a request given
    up and asked again) — and, `in_hand`, an update one of them had taken before the freeze
    (its lease ran out since; the ack wait here is 30 s). The next owner finds the polls
    there, and each update a frozen poll takes is delivered again at once: every update
    handled once, in order, none waiting for the ack wait."""
    js = client.jetstream()
    await ensure_stream(js, layout)
    await js.add_consumer(layout.stream, consumer_config(layout, 0, 30.0))
    frozen = await nats.connect(broker_server.url)
    swallowed: list[bytes] = []

    async def never_acknowledged(message: Msg) -> None:
        swallowed.append(message.data)

    handled: list[str] = []

    async def handle(body: bytes) -> None:
        handled.append(body.decode())

    running = None
    try:
        await frozen.subscribe("_FROZEN.*", cb=never_acknowledged)
        for number in range(1, polls + 1):
            await frozen.publish(NEXT_API.format(stream=layout.stream,
                                                 consumer=layout.consumer(0)),
                                 json.dumps({"batch": 1, "expires": 120 * 10**9}).encode(),
                                 reply=f"_FROZEN.{number}")
        await frozen.flush()
        earlier = ["z"] if in_hand else []
        for body in earlier:
            await publish(client, layout, 0, body)
            await until(lambda: len(swallowed) == 1)  # taken before the freeze
        running = Running(client, layout, handle, redeliver=30.0)
        await until(lambda: 0 in running.consumers.consuming)
        await publish(client, layout, 0, "a")
        await publish(client, layout, 0, "b")
        expected = [*earlier, "a", "b"]
        await until(lambda: len(handled) == len(expected), timeout=10.0)  # not the 30 s
        assert handled == expected
        assert len(swallowed) == polls  # each frozen poll took one, and it came again
        assert 0 not in running.consumers.suspect  # no other poll waits now
    finally:
        if running is not None:
            await running.stop()
        await frozen.close()
    assert await settled(client, layout, 0) == (0, 0)


async def test_the_next_owner_finds_a_frozen_workers_waiting_poll(client, broker_server,
                                                                  layout):
    """Only the partition with another's poll waiting is polled a second at a time."""
    await ensure_stream(client.jetstream(), layout)
    frozen = await nats.connect(broker_server.url)
    running = None
    try:
        await client.jetstream().add_consumer(layout.stream, consumer_config(layout, 0, 30.0))
        async def never_acknowledged(message: Msg) -> None:
            pass

        await frozen.subscribe("_FROZEN.*", cb=never_acknowledged)
        await frozen.publish(NEXT_API.format(stream=layout.stream, consumer=layout.consumer(0)),
                             json.dumps({"batch": 1, "expires": 120 * 10**9}).encode(),
                             reply="_FROZEN.1")
        await frozen.flush()
        running = Running(client, layout, lambda body: asyncio.sleep(0), redeliver=30.0)
        await until(lambda: running.consumers.consuming == set(range(PARTITIONS)))
        assert running.consumers.suspect == {0}  # the others had no poll of another's
    finally:
        if running is not None:
            await running.stop()
        await frozen.close()


async def test_a_partition_waits_for_no_poll_lost_with_the_broker():
    """The broker killed and back: the worker's client reconnects, its 30 s polls are asked
    anew at once, and an update published then is handled in seconds, not at their expiry."""
    handled: list[str] = []

    async def handle(body: bytes) -> None:
        handled.append(body.decode())

    with BrokerServer() as server:
        config = Config.from_env({"TELEGRAM_BOT_TOKEN": "1:test", "NATS_URL": server.url,
                                  "NATS_STREAM": "OWN", "PARTITIONS": "2"}, env_file=None)
        layout = Layout("OWN", 2)
        async with consumers_of(config, handle, lambda _partition: True) as consumers:
            assert consumers.fetch_seconds >= 30.0
            stopping = asyncio.Event()
            task = asyncio.create_task(consumers.run(stopping, every=True))
            try:
                await until(lambda: consumers.consuming == {0, 1})
                await asyncio.sleep(0.2)  # both polls wait at the broker
                assert server.process is not None
                server.process.send_signal(signal.SIGKILL)
                await asyncio.to_thread(server.restart)
                publisher = await nats.connect(server.url, max_reconnect_attempts=-1)
                try:
                    await until(lambda: consumers.client.is_connected)
                    for partition, body in ((0, "a"), (1, "b")):
                        await publisher.jetstream().publish(layout.subject(partition),
                                                            body.encode(), stream="OWN")
                    await until(lambda: sorted(handled) == ["a", "b"], timeout=10.0)
                finally:
                    await publisher.close()
            finally:
                stopping.set()
                await asyncio.wait_for(task, 30)


class Held:
    """A message in hand, counting the broker's reminders."""

    def __init__(self) -> None:
        self.reminded: list[float] = []

    async def in_progress(self) -> None:
        self.reminded.append(time.monotonic())


async def test_reminders_come_before_their_interval_is_out_and_stop_at_release():
    """Each update in hand is reminded within `every` of its taking and again within each
    `every` after, by one sweep for all; a released one is reminded no more."""
    every = 0.4
    reminders = Reminders(every)
    first, second = Held(), Held()
    taken = time.monotonic()
    reminders.hold(1, first)  # type: ignore[arg-type]
    await asyncio.sleep(every / 2)
    reminders.hold(2, second)  # type: ignore[arg-type]
    second_taken = time.monotonic()
    try:
        await asyncio.sleep(every * 2.6)
        reminders.release(1)
        released = time.monotonic()
        await asyncio.sleep(every * 1.5)
    finally:
        await reminders.stop()
    for held, since in ((first, taken), (second, second_taken)):
        assert held.reminded, "never reminded"
        gaps = [b - a for a, b in zip([since, *held.reminded], held.reminded, strict=False)]
        assert all(gap <= every + 0.08 for gap in gaps), gaps  # never later than `every`
        assert all(gap >= every / 2 for gap in gaps), gaps  # nor far earlier: not per sweep
    assert all(at <= released for at in first.reminded)
    assert second.reminded[-1] > released  # the other goes on
