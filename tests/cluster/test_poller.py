"""The polling ingress end to end: `python -m bot ingress` without WEBHOOK_URL against the Bot API
emulator's getUpdates and a real NATS server. Of two, one polls (every getUpdates is one
process's) and the other stands by; it deletes the webhook keeping the pending updates; each
update reaches the stream once, in Telegram's order. The poller SIGKILLed in the middle of a
batch it published but had not confirmed: the other takes the lease over within seconds and
every update is in the stream exactly once. The broker paused: the offset never moves past the
update whose publish was not acknowledged, and back, the update goes in. And a worker answers
what the polling ingress published."""

from __future__ import annotations

import asyncio
import json
import signal
import time

import nats
import pytest
from nats.aio.client import Client
from nats.js.errors import NotFoundError

from bot.cluster.poll_lease import LEASE, RENEW
from bot.telegram.app import ALLOWED_UPDATES
from demo.broker_server import BrokerServer
from demo.emulator import BotApiEmulator
from tests.cluster.processes import Cluster, RoleProcess, paused
from tests.waiting import until

pytestmark = pytest.mark.slow
GROUP, OTHER_GROUP = -3301, -3302
ANN = {"id": 3311, "is_bot": False, "first_name": "Ann", "language_code": "en"}
TAKEN, STANDING_BY, STARTED = "poll lease taken", "standing by", "polling ingress (health on"


async def stored_ids(client: Client, stream: str) -> list[int]:
    """Each message's Nats-Msg-Id, in the stream's order (the update ids as published)."""
    js = client.jetstream()
    try:
        count = (await js.stream_info(stream)).state.messages
    except NotFoundError:
        return []
    messages = [await js.get_msg(stream, sequence) for sequence in range(1, count + 1)]
    for message in messages:
        assert json.loads(message.data)["update_id"] == int(message.headers["Nats-Msg-Id"])
    return [int(message.headers["Nats-Msg-Id"]) for message in messages]


def polls(telegram: BotApiEmulator) -> list[tuple[float, int | None]]:
    """Each getUpdates: when it came, and from which process."""
    return [(request.at, request.pid) for request in telegram.journal
            if request.method == "getUpdates"]


def offsets(telegram: BotApiEmulator, since: float = 0.0) -> list[int]:
    """The offsets getUpdates was asked for (perf_counter clock) since `since`."""
    return [int(params.get("offset") or 0) for method, params, at in telegram.calls
            if method == "getUpdates" and at >= since]


async def start_poller(running: Cluster, said: str, **env: str) -> tuple[RoleProcess, int]:
    poller, port = running.poller(**env)
    await poller.spawn()
    await poller.until(lambda: poller.said(said), said)
    return poller, port


async def queue(telegram: BotApiEmulator, count: int) -> list[int]:
    """`count` messages in two groups, alternating: their update ids, in Telegram's order."""
    for chat in (GROUP, OTHER_GROUP):
        telegram.chat(chat)
    before = len(telegram.updates_log)
    for n in range(count):
        await telegram.say((GROUP, OTHER_GROUP)[n % 2], ANN, f"/solve 1 1 1 {n}")
    return [update["update_id"] for update in telegram.updates_log[before:]]


async def health(port: int) -> int:
    """GET /healthz's status."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    try:
        return int((await asyncio.wait_for(reader.readline(), 10)).split(b" ")[1])
    finally:
        writer.close()


async def test_one_ingress_polls_and_each_update_reaches_the_stream_once_in_order(
        telegram, cluster, stream, client):
    telegram.webhook = {"url": "https://left.example/telegram"}  # an earlier webhook run's
    running = cluster()
    first, first_port = await start_poller(running, TAKEN)
    second, second_port = await start_poller(running, STARTED)  # standing by, or not
    assert telegram.webhook == {}
    [deleted] = [params for method, params, _ in telegram.calls if method == "deleteWebhook"][:1]
    assert str(deleted.get("drop_pending_updates")).lower() in ("false", "none")
    ids = await queue(telegram, 12)
    await until(lambda: stored_ids(client, stream), "the first published")
    await until(lambda: telegram.updates == [], "every update confirmed", timeout=30)
    await asyncio.sleep(2 * RENEW)  # the standby's reads of the lease meanwhile
    assert await stored_ids(client, stream) == ids  # once each, in order
    assert {pid for _, pid in polls(telegram)} == {first.pid}  # no second poller: no 409
    assert second.said(STANDING_BY) and not second.said(TAKEN)
    assert [await health(port) for port in (first_port, second_port)] == [200, 200]
    allowed = [params.get("allowed_updates") for method, params, _ in telegram.calls
               if method == "getUpdates"]
    assert json.loads(allowed[-1]) == list(ALLOWED_UPDATES)


async def test_the_poller_killed_mid_batch_is_replaced_and_each_update_is_in_once(
        telegram, cluster, stream, client):
    """The poller is frozen (SIGSTOP) part way through publishing a batch, so some updates are
    in the stream but not yet confirmed to Telegram; it is SIGKILLed there. The other takes the
    lease over, gets those updates again, and the duplicate window drops their publishes."""
    running = cluster()
    first, _ = await start_poller(running, TAKEN)
    second, _ = await start_poller(running, STANDING_BY)
    first.signal(signal.SIGSTOP)  # so the updates come in batches of 100 once it goes on
    ids = await queue(telegram, 250)
    first.signal(signal.SIGCONT)
    await until(lambda: count_at_least(client, stream, 20), "publishing a batch",
                every=0.005)
    first.signal(signal.SIGSTOP)
    published = set(await stored_ids(client, stream))
    unconfirmed = {update["update_id"] for update in telegram.updates}
    assert published & unconfirmed, "frozen between batches: nothing for the duplicate window"
    assert len(published) < len(ids)  # the stream was still being fed
    await first.kill()
    killed_at = time.time()
    await second.until(lambda: any(pid == second.pid for _, pid in polls(telegram)),
                       "polling in its place")
    taken_at = min(at for at, pid in polls(telegram) if pid == second.pid)
    assert taken_at - killed_at < LEASE + 3 * RENEW
    await until(lambda: telegram.updates == [], "every update confirmed", timeout=30)
    assert await stored_ids(client, stream) == ids  # exactly once each, in order
    assert {pid for at, pid in polls(telegram) if at > killed_at} == {second.pid}


async def count_at_least(client: Client, stream: str, count: int) -> bool:
    try:
        info = await client.jetstream().stream_info(stream)
    except NotFoundError:
        return False
    return info.state.messages >= count


async def test_the_offset_stays_before_an_update_whose_publish_was_not_acknowledged(
        telegram, cluster, stream):
    with BrokerServer() as broker:
        connection = await nats.connect(broker.url)
        try:
            running = cluster(nats_url=broker.url)
            first, _ = await start_poller(running, TAKEN, LOG_LEVEL="DEBUG")
            [before] = await queue(telegram, 1)
            await until(lambda: before + 1 in offsets(telegram), "the first confirmed")
            with paused(broker):
                since = time.perf_counter()
                [held] = await queue(telegram, 1)
                await first.until(lambda: first.said(f"update {held} not confirmed"),
                                  "its publish unacknowledged")
                await first.until(lambda: first.said("poll lease lost"), "the lease run out")
                assert held in offsets(telegram, since)  # asked again, from that update
                assert max(offsets(telegram, since)) == held  # never past it
                assert [update["update_id"] for update in telegram.updates] == [held]
            await until(lambda: held + 1 in offsets(telegram), "confirmed once published",
                        timeout=30)
            assert await stored_ids(connection, stream) == [before, held]
        finally:
            await connection.close()


async def test_an_update_polled_is_answered_by_the_worker(telegram, cluster):
    running = cluster()
    await start_poller(running, TAKEN)
    await running.start_worker("w")
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/solve 3 8 3 8")
    assert (await telegram.reply(GROUP, timeout=30)).formulas == [r"\frac{8}{3 - \frac{8}{3}} = 24"]
