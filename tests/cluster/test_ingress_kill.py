"""An ingress killed between Telegram's POST and the broker's confirm, end to end (the Bot API
emulator, PostgreSQL, a NATS server of the test's own, two `python -m bot ingress` and a
`python -m bot worker`). Ingress A never answers 200, so Telegram delivers the update again, here
to ingress B; it acts once either way:

- killed before the broker got it (the broker stopped: A's publish never leaves A): the stream
  is empty until B publishes;
- killed after the broker got it (A reaches the broker through a link whose way back is held:
  A's publish is stored, its confirm never reaches A): B's publish of the same update id is
  dropped by the stream's duplicate window — the stream holds one message, the worker's claim
  is not even needed.
"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.cluster.stream import MSG_ID
from demo.broker_server import BrokerServer, free_port
from demo.roles import post_update
from tests.cluster.held_link import HeldLink
from tests.cluster.processes import SECRET, Cluster, RoleProcess
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
    try:
        await until(published, "A's publish on its way")  # type: ignore[arg-type]
    except AssertionError as error:  # what A did meanwhile, for whoever reads the failure
        raise AssertionError(f"{error}; A's log ends:\n{ingress.log.read_text()[-3000:]}") \
            from None
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


async def two_ingresses(running: Cluster, **a_env: str) -> tuple[RoleProcess, int, int]:
    """Ingress A (saying when it publishes, `a_env` added) and B on ports of their own, and a
    leader."""
    a_port, b_port = free_port(), free_port()
    first = await running.start_ingress(a_port, LOG_LEVEL="DEBUG", **a_env)
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
        async with HeldLink(broker.port) as link:
            running = cluster(nats_url=broker.url)
            first, a_port, b_port = await two_ingresses(running, NATS_URL=link.url)
            update = await a_play(telegram, running)
            link.hold()  # from here on, nothing the broker says reaches A
            await post_and_kill(first, a_port, update,
                                lambda: link.forwarded(f"{MSG_ID}: {update['update_id']}"))
            await until(lambda: message_count(broker.url, stream), "A's publish stored")
            await deliver_until_200(running, update, b_port)  # its publish: a duplicate, dropped
            await acted_once(telegram, database, update["update_id"])
            assert await message_count(broker.url, stream) == 1
