"""The ingress's health check against a real NATS server: `GET /healthz` is 200 while the
ingress could publish (its broker connection up, the stream there), 503 with the reason while it
could not (the broker stopped, the stream gone), and 200 again once the broker is back, so a
load balancer or compose's health check takes an ingress that would only answer 503 out of the
rotation and brings it back by itself."""

from __future__ import annotations

import httpx
import nats

from bot.cluster.ingress import HEALTH_PATH
from tests.cluster.broker_server import BrokerServer
from tests.cluster.test_ingress import serving as serving
from tests.waiting import until


async def health(port: int) -> tuple[int, str]:
    async with httpx.AsyncClient(timeout=10) as client:
        answer = await client.get(f"http://127.0.0.1:{port}/{HEALTH_PATH}")
    return answer.status_code, answer.text


async def answers(port: int, status: int) -> bool:
    return (await health(port))[0] == status


async def test_healthy_while_the_broker_is_up_503_while_it_is_stopped_and_again_after(
        serving, stream):
    with BrokerServer() as broker:
        port = await serving(broker.url, stream)
        assert await health(port) == (200, "ok\n")
        broker.halt()
        await until(lambda: answers(port, 503), "503 with the broker stopped")
        status, reason = await health(port)
        assert status == 503 and reason.startswith("unavailable: ")
        broker.restart()  # the same port and store: the client reconnects by itself
        await until(lambda: answers(port, 200), "200 once the broker is back")


async def test_the_stream_gone_is_503_though_the_connection_is_up(serving, stream,
                                                                  broker_server):
    port = await serving(broker_server.url, stream)
    assert (await health(port))[0] == 200
    client = await nats.connect(broker_server.url)
    try:
        await client.jetstream().delete_stream(stream)
    finally:
        await client.close()
    status, reason = await health(port)
    assert status == 503 and f"stream {stream}" in reason
