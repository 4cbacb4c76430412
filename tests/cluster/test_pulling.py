"""A partition's pull against a real NATS server: the acknowledgement and the request for the next
in one message, the next delivered to it, in order, one unacknowledged at most; a request that
expired asked again, once; the end of a request given up never makes it ask twice; a request
lost with the broker (killed) given up at its expiry, or at once when declared lost (the client
reconnected), and asked anew; a request's life shortened for one call; one ended by its shutdown
refused and asked anew; a deleted consumer's refusal raised; an update a dead reader had in hand
handed back to the next at once."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator

import nats
import pytest
from nats.aio.client import Client

from bot.cluster.pulling import Pull, PullRefused, hand_back
from bot.cluster.stream import Layout, consumer_config, ensure_stream
from tests.cluster.broker_server import BrokerServer

EXPIRES = 0.4  # seconds: a request's life here, short so expiries come quickly


@pytest.fixture
def layout(stream) -> Layout:
    return Layout(stream, 2)


async def declared(client: Client, layout: Layout, partition: int = 0,
                   expires: float = EXPIRES) -> Pull:
    js = client.jetstream()
    await ensure_stream(js, layout)
    await js.add_consumer(layout.stream, consumer_config(layout, partition, 30.0))
    return await Pull(client, layout.stream, layout.consumer(partition), expires).open()


async def publish(client: Client, layout: Layout, *bodies: str, partition: int = 0) -> None:
    for body in bodies:
        await client.jetstream().publish(layout.subject(partition), body.encode(),
                                         stream=layout.stream)


async def consumer(client: Client, layout: Layout, partition: int = 0):
    return await client.jetstream().consumer_info(layout.stream, layout.consumer(partition))


async def test_each_done_acknowledges_and_brings_the_next_in_order(client, layout):
    pull = await declared(client, layout)
    await publish(client, layout, "a", "b", "c")
    taken = []
    try:
        for _ in range(3):
            message = await pull.next()
            assert message is not None
            info = await consumer(client, layout)
            assert info.num_ack_pending == 1  # one in hand, never two
            taken.append(message.data.decode())
            await pull.done(message)
        for _ in range(100):  # the last acknowledgement reaches the broker
            if (await consumer(client, layout)).num_ack_pending == 0:
                break
            await asyncio.sleep(0.02)
        info = await consumer(client, layout)
        assert taken == ["a", "b", "c"]
        assert (info.num_ack_pending, info.num_pending, info.delivered.consumer_seq) == (0, 0, 3)
        assert info.num_waiting == 1  # the last done() asked for the next: one request waits
    finally:
        await pull.close()


async def test_a_request_that_expired_is_asked_again_once(client, layout):
    pull = await declared(client, layout)
    try:
        assert await pull.next() is None  # it expired: nothing came
        asked = pull.number
        await publish(client, layout, "late")
        message = await pull.next()  # asked again
        assert message is not None and message.data == b"late"
        assert pull.number == asked + 1
    finally:
        await pull.close()


async def test_the_end_of_a_request_given_up_does_not_make_it_ask_twice(client, layout):
    pull = await declared(client, layout)
    try:
        await pull.ask()  # a request that will be given up: the next one is awaited instead
        await pull.ask()
        assert await pull.next() is None  # the awaited one's expiry, the other's ignored
        assert pull.number == 2
        await asyncio.sleep(EXPIRES * 2)
        assert (await consumer(client, layout)).num_waiting == 0  # nothing asked meanwhile
        await publish(client, layout, "x")
        message = await pull.next()
        assert message is not None and message.data == b"x" and pull.number == 3
    finally:
        await pull.close()


async def test_a_message_brought_by_a_request_given_up_is_taken(client, layout):
    pull = await declared(client, layout)
    try:
        await pull.ask()
        await pull.ask()  # two wait: the first is given up
        await publish(client, layout, "m")
        message = await pull.next()
        assert message is not None and message.data == b"m"
    finally:
        await pull.close()


@contextlib.asynccontextmanager
async def broker_of_its_own(expires: float) -> AsyncIterator[tuple[BrokerServer, Client, Pull]]:
    """A server of the test's own (it is killed or restarted), a client that reconnects, and a
    pull with requests of `expires` seconds."""
    with BrokerServer() as server:
        client = await nats.connect(server.url, max_reconnect_attempts=-1,
                                    reconnect_time_wait=0.1)
        try:
            pull = await declared(client, Layout("OWN", 1), expires=expires)
            yield server, client, pull
            await pull.close()
        finally:
            await client.close()


async def back_and_published(client: Client, body: str) -> None:
    for _ in range(100):
        if client.is_connected:
            break
        await asyncio.sleep(0.05)
    await publish(client, Layout("OWN", 1), body)


async def test_a_request_lost_with_the_broker_is_given_up_at_its_expiry_and_asked_anew():
    # long enough for the broker's death to fall inside the request
    async with broker_of_its_own(1.5) as (server, client, pull):
        await pull.ask()
        assert server.process is not None
        server.process.send_signal(signal.SIGKILL)  # no word to the request: it is lost
        await asyncio.to_thread(server.restart)
        await back_and_published(client, "after")
        assert await pull.next() is None  # given up at its expiry (and the grace)
        found = await pull.next()  # asked anew
        assert found is not None and found.data == b"after"


async def test_a_request_declared_lost_ends_at_once_and_the_next_call_asks_anew():
    """The client reconnected (the broker killed and back): the worker declares its requests
    lost, and a 30 s request ends now rather than at its expiry."""
    async with broker_of_its_own(30.0) as (server, client, pull):
        waiting = asyncio.create_task(pull.next())
        await asyncio.sleep(0.2)
        assert server.process is not None
        server.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(server.restart)
        await back_and_published(client, "after")
        assert not waiting.done()  # the lost request would be waited for until its expiry
        pull.lost()
        assert await asyncio.wait_for(waiting, 2.0) is None
        found = await asyncio.wait_for(pull.next(), 5.0)  # asked anew
        assert found is not None and found.data == b"after"


async def test_a_request_of_a_shorter_life_than_the_pulls_expires_at_its_own(client, layout):
    pull = await declared(client, layout, expires=30.0)
    try:
        assert await asyncio.wait_for(pull.next(expires=0.3), 5.0) is None
        await publish(client, layout, "a", "b")
        message = await pull.next(expires=0.3)
        assert message is not None and message.data == b"a"
        await pull.done(message, expires=0.3)
        message = await pull.next()  # brought by done's request
        assert message is not None and message.data == b"b"
        await pull.done(message, expires=0.3)
        assert await asyncio.wait_for(pull.next(), 5.0) is None  # done's request: 0.3 s
    finally:
        await pull.close()


async def test_a_shutdown_ends_a_request_with_a_refusal_and_the_next_call_asks_anew():
    async with broker_of_its_own(30.0) as (server, client, pull):
        waiting = asyncio.create_task(pull.next())
        await asyncio.sleep(0.2)
        await asyncio.to_thread(server.restart)  # SIGTERM: the server tells its requests
        with pytest.raises(PullRefused, match="409"):
            await asyncio.wait_for(waiting, 10)
        await back_and_published(client, "after")
        found = await pull.next()
        assert found is not None and found.data == b"after"


async def test_a_refusal_is_raised(client, layout):
    pull = await declared(client, layout)
    try:
        waiting = asyncio.create_task(pull.next())
        for _ in range(100):
            if (await consumer(client, layout)).num_waiting == 1:
                break
            await asyncio.sleep(0.02)
        await client.jetstream().delete_consumer(layout.stream, layout.consumer(0))
        with pytest.raises(PullRefused, match="409"):
            await waiting
    finally:
        await pull.close()


async def test_an_update_its_last_reader_had_in_hand_is_handed_back_at_once(client, layout):
    """A reader takes an update and dies with it (the ack wait: 30 s): the next reader's
    declaration says one is in hand, and `hand_back` has the broker deliver it again now —
    then, acknowledged, the next in order. Once nothing is in hand, nothing is handed back."""
    dying = await declared(client, layout)
    await publish(client, layout, "a", "b")
    taken = await dying.next()
    assert taken is not None and taken.data == b"a"
    await dying.close()  # never acknowledged
    await publish(client, layout, "c")
    info = await client.jetstream().add_consumer(layout.stream,
                                                 consumer_config(layout, 0, 30.0))
    assert info.num_ack_pending == 1
    assert await hand_back(client, info)
    pull = await Pull(client, layout.stream, layout.consumer(0), 5.0).open()
    try:
        again = await asyncio.wait_for(pull.next(), 3.0)  # not the ack wait's 30 s
        assert again is not None and again.data == b"a"
        assert again.metadata.num_delivered == 2
        await pull.done(again)
        after = await pull.next()
        assert after is not None and after.data == b"b"
        await pull.done(after)
        last = await pull.next()
        assert last is not None and last.data == b"c"
        await pull.done(last)
        for _ in range(100):
            info = await consumer(client, layout)
            if info.num_ack_pending == 0:
                break
            await asyncio.sleep(0.02)
        assert not await hand_back(client, info)
    finally:
        await pull.close()
