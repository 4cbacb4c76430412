"""The cluster end to end: `python -m bot ingress` and `python -m bot worker` processes against
the Bot API emulator, a real PostgreSQL and a real NATS server. Updates POSTed to the ingress are
answered by the leading worker, each chat's in order while the chats interleave, and a standby
consumes nothing; the same update POSTed twice acts once; the broker away, the ingress answers
503 and the update re-POSTed once it is back acts; a worker killed with an update taken and not
acknowledged hands it to the next leader, where it acts once, and the rounds end on time."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest
from nats.aio.client import Client

from bot.cluster.partitions import partition_of
from bot.cluster.stream import Layout
from solver import solve
from tests.cluster.broker_server import BrokerServer
from tests.e2e.test_bot_process import hand_of
from tests.waiting import until

pytestmark = pytest.mark.slow
GROUP, OTHER_GROUP = -3101, -3102
ANN = {"id": 311, "is_bot": False, "first_name": "Ann", "language_code": "en"}
PEOPLE = [{"id": 320 + n, "is_bot": False, "first_name": f"P{n}", "language_code": "en"}
          for n in range(4)]


def no_solution(count: int) -> list[int]:
    """Numbers n for which /solve 1 1 1 n has no solution: each reply names its n."""
    return [n for n in range(100, 1000) if not solve((1, 1, 1, n))][:count]


async def test_each_chat_is_answered_in_order_while_the_chats_interleave(telegram, cluster):
    running = cluster()
    await running.start_ingress()
    leader = await running.start_leader("a")
    standby = await running.start_standby("b")
    chats = [person["id"] for person in PEOPLE]
    asked = dict.fromkeys(chats, ())
    numbers = iter(no_solution(3 * len(chats)))
    for person in PEOPLE:
        telegram.chat(person["id"], "private", None)
    for _ in range(3):
        for person in PEOPLE:
            number = next(numbers)
            asked[person["id"]] = (*asked[person["id"]], number)
            await telegram.say(person["id"], person, f"/solve 1 1 1 {number}", kind="private")
            assert await running.deliver() == [200]
    assert len({partition_of(chat, 16) for chat in chats}) == len(chats)  # apart
    for chat in chats:
        replies = await telegram.replies(chat, 3, timeout=30)
        answered = [next(n for n in asked[chat] if str(n) in reply.text) for reply in replies]
        assert answered == list(asked[chat]), [reply.text for reply in replies]
    assert leader.process is not None
    senders = {request.pid for request in telegram.journal if request.method == "sendMessage"}
    assert senders == {leader.process.pid}  # the standby consumed nothing
    assert not standby.said("consuming") and standby.role() == "standby"


async def test_the_same_update_posted_twice_acts_once(telegram, cluster):
    running = cluster()
    await running.start_ingress()
    await running.start_leader("a")
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    [update] = running.take()
    assert [await running.post(update) for _ in range(3)] == [200, 200, 200]
    assert "Make 24" in (await telegram.reply(GROUP, timeout=30)).text
    await asyncio.sleep(3)  # past the redelivery time: nothing more comes
    assert [sent.text for sent in telegram.sent if sent.chat_id == GROUP][1:] == []


async def test_the_broker_away_is_503_and_the_update_posted_again_acts(telegram, cluster):
    with BrokerServer() as broker:
        running = cluster(nats_url=broker.url)
        await running.start_ingress()
        await running.start_leader("a")
        telegram.chat(GROUP)
        await telegram.say(GROUP, ANN, "/solve 3 8 3 8")
        [update] = running.take()
        broker.halt()
        assert await running.post(update) == 503  # Telegram keeps it and sends it again
        broker.restart()
        status = 503
        for _ in range(30):  # the ingress's connection comes back within a second or so
            status = await running.post(update)
            if status == 200:
                break
            await asyncio.sleep(0.5)
        assert status == 200
        assert "8÷(3−8÷3) = 24" in (await telegram.reply(GROUP, timeout=30)).text


async def consumer_holds(client: Client, layout: Layout, partition: int) -> bool:
    info = await client.jetstream().consumer_info(layout.stream, layout.consumer(partition))
    return info.num_ack_pending == 1


async def test_a_worker_killed_before_its_ack_hands_the_update_over_and_it_acts_once(
        telegram, cluster, database, broker_server, stream):
    """The answer's claim is held up in the database (an uncommitted row of the same update
    id, as a slow database would), so the leader has taken the update and not acknowledged
    it; it is killed there. The standby takes the lead, the broker delivers the answer again,
    and it wins the round once; another chat's round ends on time on the new leader."""
    import nats

    connection = await asyncpg.connect(database)
    running = cluster(round_seconds=20.0)
    await running.start_ingress()
    first = await running.start_leader("a")
    second = await running.start_standby("b")
    broker = await nats.connect(broker_server.url)
    try:
        telegram.chat(GROUP)
        telegram.chat(OTHER_GROUP)
        for chat in (GROUP, OTHER_GROUP):
            await telegram.say(chat, ANN, "/play")
            assert await running.deliver() == [200]
        hand = hand_of((await telegram.reply(GROUP, timeout=30)).text)
        await telegram.reply(OTHER_GROUP, timeout=30)
        await until(lambda: connection.fetchval(
            "SELECT bool_and(message_id IS NOT NULL) FROM rounds WHERE status = 'open' "
            "HAVING COUNT(*) = 2"), "both deals' message ids stored")
        deadline = await connection.fetchval(
            "SELECT deadline FROM rounds WHERE chat_id = $1 AND status = 'open'", OTHER_GROUP)
        await telegram.say(GROUP, ANN, f"/a {solve(hand)[0]}")
        [answer] = running.take()
        holding = connection.transaction()
        await holding.start()
        await connection.execute("INSERT INTO handled_updates (update_id, at) VALUES ($1, 0)",
                                 answer["update_id"])
        assert await running.post(answer) == 200
        layout = Layout(stream, 16)
        await until(lambda: consumer_holds(broker, layout, partition_of(GROUP, 16)),
                    "the answer taken, not acknowledged")
        await until(lambda: connection.fetchval(
            "SELECT COUNT(*) > 0 FROM pg_locks WHERE NOT granted"), "its claim waiting")
        await first.kill()
        watching = await asyncpg.connect(database)
        try:
            await until(lambda: watching.fetchval(
                "SELECT COUNT(*) = 0 FROM pg_locks WHERE NOT granted"),
                "the killed worker's statement gone with it")
        finally:
            await watching.close()
        await holding.rollback()
        await second.until(lambda: second.said("consuming"), "taking over")
        won = await telegram.reply(GROUP, timeout=30)
        assert "Ann wins" in won.text
        ended = await telegram.reply(OTHER_GROUP, timeout=40)
        assert "Time is up" in ended.text
        assert deadline - 1 <= time.time() <= deadline + 5  # on time, on the new leader
        await asyncio.sleep(3)
        assert [s.text for s in telegram.sent if s.chat_id == GROUP and "wins" in s.text] == \
            [won.text]  # once
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE chat_id = $1 AND status = 'won'", GROUP) == 1
        assert second.role() == "leader"
    finally:
        await broker.close()
        await connection.close()
