"""The ingress over loopback against a real NATS server: the webhook's checks first (secret,
size, an update at all), then each update published to its partition's subject with its id as
`Nats-Msg-Id`, 200 only once JetStream confirmed it; the same update twice is one message; the
broker away is 503 (Telegram delivers again), and back, the update goes in."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import nats
import pytest

from bot.cluster import ingress
from bot.cluster.partitions import partition_of
from bot.cluster.stream import MSG_ID
from bot.runtime.config import Config
from bot.telegram import webhook
from tests.cluster.broker_server import BrokerServer, free_port
from tests.e2e.test_webhook import post, update_headers

SECRET = "s3cret_for-this-test"
GROUP = {"id": -1001234567890, "type": "supergroup", "title": "G"}
ANN = {"id": 4242, "is_bot": False, "first_name": "Ann"}


def update(update_id: int, chat: dict = GROUP) -> bytes:
    return json.dumps({"update_id": update_id, "message": {
        "message_id": update_id, "date": 0, "chat": chat, "from": ANN, "text": "/play"}}).encode()


Serve = Callable[[str, str], Coroutine[Any, Any, int]]


@pytest.fixture
async def serving() -> AsyncIterator[Serve]:
    """Start ingresses in this loop (`await serving(nats_url, stream)` → its port); all are
    stopped at the end."""
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []

    async def start(url: str, stream: str) -> int:
        config = Config(token="1:x", webhook_url="https://bot.example/telegram",
                        webhook_port=free_port(), webhook_secret=SECRET, nats_url=url,
                        nats_stream=stream, partitions=8, startup_seconds=10.0)
        listening: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def ready(port: int) -> None:
            listening.set_result(port)

        tasks.append(asyncio.create_task(ingress.serve(
            config, webhook.admit, webhook.update_server, webhook.WEBHOOK_PATH, stop,
            ready=ready)))
        done, _ = await asyncio.wait({tasks[-1], listening}, timeout=20,
                                     return_when=asyncio.FIRST_COMPLETED)
        assert listening in done, tasks[-1].exception() if tasks[-1].done() else "no answer"
        return listening.result()

    yield start
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 30)


async def stored(url: str, stream: str) -> list[Any]:
    """Every message of the stream, in order."""
    client = await nats.connect(url)
    try:
        js = client.jetstream()
        count = (await js.stream_info(stream)).state.messages
        return [await js.get_msg(stream, sequence) for sequence in range(1, count + 1)]
    finally:
        await client.close()


async def test_an_update_is_published_to_its_partition_with_its_id(broker_server, stream,
                                                                   serving):
    port = await serving(broker_server.url, stream)
    private = {"id": ANN["id"], "type": "private", "first_name": "Ann"}
    bodies = [update(11), update(12, private)]
    for body in bodies:
        assert (await post(port, update_headers(body, SECRET), body))[0] == 200
    first, second = await stored(broker_server.url, stream)
    assert first.subject == f"{stream.lower()}.{partition_of(GROUP['id'], 8)}"
    assert second.subject == f"{stream.lower()}.{partition_of(ANN['id'], 8)}"
    assert (first.data, second.data) == tuple(bodies)  # the raw body, untouched
    assert (first.headers[MSG_ID], second.headers[MSG_ID]) == ("11", "12")


async def test_the_same_update_twice_is_one_message(broker_server, stream, serving):
    port = await serving(broker_server.url, stream)
    again = await serving(broker_server.url, stream)  # another ingress behind the balancer
    body = update(21)
    for where in (port, port, again):
        assert (await post(where, update_headers(body, SECRET), body))[0] == 200
    assert len(await stored(broker_server.url, stream)) == 1


@pytest.mark.parametrize(("headers", "body", "status"), [
    (update_headers(update(1), "wrong"), update(1), 403),
    (update_headers(update(1), None), update(1), 403),
    ({**update_headers(update(1), SECRET), "Content-Length": str(webhook.MAX_BODY + 1)}, b"",
     413),
    (update_headers(b"{}", SECRET), b"{}", 400),
    (update_headers(b"not json", SECRET), b"not json", 400),
    (update_headers(b'{"update_id": true}', SECRET), b'{"update_id": true}', 400),
])
async def test_the_webhooks_checks_come_first(broker_server, stream, serving, headers, body,
                                              status):
    port = await serving(broker_server.url, stream)
    assert (await post(port, headers, body))[0] == status
    assert await stored(broker_server.url, stream) == []


async def test_the_broker_away_is_503_and_back_the_update_goes_in(stream, serving):
    with BrokerServer() as broker:
        port = await serving(broker.url, stream)
        body = update(31)
        broker.halt()
        status, response = await post(port, update_headers(body, SECRET), body)
        assert status == 503 and b"Retry-After: 5" in response
        broker.restart()  # the same port and store: the ingress's connection comes back
        for _ in range(30):
            status, _ = await post(port, update_headers(body, SECRET), body)
            if status == 200:
                break
            await asyncio.sleep(0.5)
        assert status == 200
        [message] = await stored(broker.url, stream)
        assert message.data == body
