"""The polling ingress end to end: `python -m bot ingress` without WEBHOOK_URL against the Bot API
emulator's getUpdates and a real NATS server. Of two, one polls (every getUpdates is one
process's) and the other stands by; it deletes the webhook keeping the pending updates; each
update reaches the stream once, in Telegram's order. The poller SIGKILLed after it published a
batch and before Telegram had its confirmation: the other takes the lease over within seconds
and every update is in the stream exactly once. A publish JetStream refused: the offset never
moves past that update, and once the stream takes it, it goes in. The broker paused: the lease
runs out, the poll stops short of the update, and back, the update goes in. And a worker
answers what the polling ingress published."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace

import nats
import pytest
from nats.aio.client import Client
from nats.js.api import DiscardPolicy
from nats.js.errors import NotFoundError

from bot.cluster.poll_lease import LEASE, RENEW
from bot.cluster.stream import Layout, stream_config
from bot.telegram.app import ALLOWED_UPDATES
from demo.broker_server import BrokerServer
from demo.emulator import BotApiEmulator
from tests.cluster.processes import PARTITIONS, Cluster, RoleProcess, paused
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


async def test_the_poller_killed_after_publishing_a_batch_is_replaced_and_each_update_is_in_once(
        telegram, cluster, stream, client):
    """The poller publishes a batch of a hundred and is held in the getUpdates that would
    confirm it (the emulator never applies that offset), so the batch is in the stream and
    still with Telegram; it is SIGKILLed there. The other takes the lease over, gets those
    updates again, and the duplicate window drops their second publishes."""
    ids = await queue(telegram, 250)
    running = cluster()
    first, _ = running.poller()
    await first.spawn()
    telegram.confirms_held.add(first.pid)  # no await since the spawn: before its first import
    await first.until(lambda: first.said(TAKEN), TAKEN)
    await until(lambda: any(pid == first.pid for pid, _ in telegram.held),
                "the first batch published, its confirmation held")
    second, _ = await start_poller(running, STANDING_BY)
    published = await stored_ids(client, stream)
    assert published == ids[:100]
    assert set(published) <= {update["update_id"] for update in telegram.updates}
    await first.kill()
    killed_at = time.time()
    await second.until(lambda: any(pid == second.pid for _, pid in polls(telegram)),
                       "polling in its place")
    taken_at = min(at for at, pid in polls(telegram) if pid == second.pid)
    assert taken_at - killed_at < LEASE + 3 * RENEW
    await until(lambda: telegram.updates == [], "every update confirmed", timeout=30)
    assert await stored_ids(client, stream) == ids  # exactly once each, in order
    assert {pid for at, pid in polls(telegram) if at > killed_at} == {second.pid}


async def test_the_offset_stays_before_an_update_the_broker_refused_and_moves_once_it_is_in(
        telegram, cluster, stream, client):
    """JetStream refuses the update's publish (its stream full, new messages discarded) while
    the lease goes on being renewed: the poller asks again from that update, never past it,
    until the stream takes it."""
    running = cluster()
    first, _ = await start_poller(running, TAKEN)
    [before] = await queue(telegram, 1)
    await until(lambda: before + 1 in offsets(telegram), "the first confirmed")
    js = client.jetstream()
    full = stream_config(Layout(stream, PARTITIONS))
    await js.update_stream(replace(full, max_msgs=1, discard=DiscardPolicy.NEW))
    since = time.perf_counter()
    [held] = await queue(telegram, 1)
    await first.until(lambda: first.said(f"update {held} not confirmed"), "its publish refused")
    await until(lambda: offsets(telegram, since).count(held) >= 3, "asked again from it")
    assert max(offsets(telegram, since)) == held  # never past it
    assert [update["update_id"] for update in telegram.updates] == [held]
    assert not first.said("poll lease lost")
    await js.update_stream(full)
    await until(lambda: held + 1 in offsets(telegram), "confirmed once published", timeout=30)
    assert await stored_ids(client, stream) == [before, held]


async def test_a_paused_broker_stops_the_poll_and_back_the_update_goes_in(telegram, cluster,
                                                                           stream):
    """The broker paused (SIGSTOP): the lease runs out and the poll stops, and whether or not
    the update came before that, the offset never moves past it; the broker back, the lease is
    taken again and the update goes in once."""
    with BrokerServer() as broker:
        connection = await nats.connect(broker.url)
        try:
            running = cluster(nats_url=broker.url)
            first, _ = await start_poller(running, TAKEN)
            [before] = await queue(telegram, 1)
            await until(lambda: before + 1 in offsets(telegram), "the first confirmed")
            with paused(broker):
                since = time.perf_counter()
                [held] = await queue(telegram, 1)
                await first.until(lambda: first.said("poll lease lost"), "the lease run out")
                await asyncio.sleep(2 * RENEW)  # a poll after the loss would be in by now
                assert max(offsets(telegram, since), default=held) <= held  # never past it
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
