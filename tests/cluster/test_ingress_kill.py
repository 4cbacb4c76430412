"""An ingress killed between Telegram's POST and the broker's confirm, end to end (the Bot API
emulator, PostgreSQL, a NATS server of the test's own, two `python -m bot ingress` and a
`python -m bot worker`). Ingress A never answers 200, so Telegram delivers the update again, here
to ingress B; it acts once either way:

- killed before the broker got it (the broker stopped: A's publish never leaves A): the stream
  is empty until B publishes;
- killed after the broker got it (the broker paused with A's publish unread in its socket): the
  broker stores A's publish once it goes on, and B's publish of the same update id is dropped by
  the stream's duplicate window — the stream holds one message, the worker's claim is not even
  needed.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from demo.broker_server import BrokerServer, free_port
from demo.roles import post_update
from tests.cluster.processes import SECRET, Cluster, RoleProcess, paused, unread_by_broker
from tests.cluster.test_ingress import stored
from tests.waiting import until

pytestmark = pytest.mark.slow
GROUP = -3201
ANN = {"id": 3211, "is_bot": False, "first_name": "Ann", "language_code": "en"}


async def message_count(url: str, stream: str) -> int:
    return len(await stored(url, stream))


async def deliver_until_200(running: Cluster, update: dict, port: int) -> None:
    """Telegram's redelivery: POST again until an ingress confirms (its broker connection
    comes back within a second or so after a restart)."""
    status = 0
    for _ in range(40):
        status = await running.post(update, port)
        if status == 200:
            return
        await asyncio.sleep(0.5)
    raise AssertionError(f"ingress B answered {status}")


async def post_and_kill(ingress: RoleProcess, port: int, update: dict,
                        published: object) -> None:
    """POST `update` to `ingress`, wait for `published()` (the publish under way), SIGKILL it:
    the POST was never answered."""
    posting = asyncio.create_task(post_update(port, update, SECRET))
    await until(lambda: ingress.said(f"update {update['update_id']}: publishing"),
                "ingress A publishing")
    await until(published, "A's publish on its way")  # type: ignore[arg-type]
    await ingress.kill()
    assert await posting == 0  # no status at all: Telegram keeps the update


async def acted_once(telegram, database: str, update_id: int) -> None:
    """One deal in the chat (and nothing more past the worker's redelivery time), one round
    in PostgreSQL, one claim of the update."""
    assert "Make 24" in (await telegram.reply(GROUP, timeout=30)).text
    await asyncio.sleep(3)  # past REDELIVER_SECONDS: nothing more comes
    assert len([sent for sent in telegram.sent if sent.chat_id == GROUP]) == 1
    connection = await asyncpg.connect(database)
    try:
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE chat_id = $1", GROUP) == 1
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM handled_updates WHERE update_id = $1", update_id) == 1
    finally:
        await connection.close()


async def two_ingresses(running: Cluster) -> tuple[RoleProcess, int, int]:
    """Ingress A (saying when it publishes) and B on ports of their own, and a leader."""
    a_port, b_port = free_port(), free_port()
    first = await running.start_ingress(a_port, LOG_LEVEL="DEBUG")
    await running.start_ingress(b_port)
    await running.start_worker("w")
    return first, a_port, b_port


async def a_play(telegram, running: Cluster) -> dict:
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    [update] = running.take()
    return update


async def test_killed_before_the_broker_got_it(telegram, cluster, database, stream):
    with BrokerServer() as broker:
        running = cluster(nats_url=broker.url)
        first, a_port, b_port = await two_ingresses(running)
        update = await a_play(telegram, running)
        broker.halt()  # A's publish waits in A for a broker that is not there
        await post_and_kill(first, a_port, update, lambda: True)
        broker.restart()
        assert await message_count(broker.url, stream) == 0  # it never reached the broker
        await deliver_until_200(running, update, b_port)
        await acted_once(telegram, database, update["update_id"])
        assert await message_count(broker.url, stream) == 1


async def test_killed_after_the_broker_got_it(telegram, cluster, database, stream):
    with BrokerServer() as broker:
        running = cluster(nats_url=broker.url)
        first, a_port, b_port = await two_ingresses(running)
        update = await a_play(telegram, running)
        assert first.pid is not None
        with paused(broker):
            await post_and_kill(first, a_port, update,
                                lambda: unread_by_broker(broker.port, first.pid or 0) > 0)
        await until(lambda: message_count(broker.url, stream), "A's publish stored")
        await deliver_until_200(running, update, b_port)  # its publish: a duplicate, dropped
        await acted_once(telegram, database, update["update_id"])
        assert await message_count(broker.url, stream) == 1
