"""The cluster end to end: `python -m bot ingress` and `python -m bot worker` processes against
the Bot API emulator, a real PostgreSQL and a real NATS server. Updates POSTed to the ingress are
answered by the worker owning each chat's partition, each chat's in order while the chats
interleave, over two and three workers, and a round goes on when its partition moves to a
worker that joins; the same update POSTed twice acts once; the broker away, the ingress answers
503 and the update re-POSTed once it is back acts; a worker killed with an update taken and not
acknowledged hands it to the worker taking its partitions over, where it acts once, and the
rounds end on time; a worker paused mid-round is replaced, and once let go it writes and sends
nothing and exits; a worker killed while its result's deal loses its buttons has its result on
record already, and the next owner does not send it again."""

from __future__ import annotations

import asyncio
import signal
import time

import asyncpg
import pytest
from nats.aio.client import Client

from bot.cluster.partitions import partition_of
from bot.cluster.stream import Layout
from demo.emulator import BotApiEmulator
from demo.emulator.records import TelegramError
from solver import solve
from tests.cluster.broker_server import BrokerServer
from tests.cluster.processes import Cluster, RoleProcess
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


# people whose private chats fall in partitions 0, 3, 6, 9, 12 and 15 of 16: every worker of
# two or three owns some of them
SPREAD = [{"id": 320 + n, "is_bot": False, "first_name": f"P{n}", "language_code": "en"}
          for n in (0, 3, 6, 9, 12, 15)]


@pytest.mark.parametrize("count", [2, 3])
async def test_each_chat_is_answered_in_order_by_its_owner_while_the_chats_interleave(
        telegram, cluster, count):
    running = cluster()
    await running.start_ingress()
    workers = [await running.start_worker(name) for name in "abc"[:count]]
    await running.shared(workers)
    chats = [person["id"] for person in SPREAD]
    assert sorted(partition_of(chat, 16) for chat in chats) == [0, 3, 6, 9, 12, 15]
    owners = {chat: await running.owner(chat) for chat in chats}
    asked = dict.fromkeys(chats, ())
    numbers = iter(no_solution(3 * len(chats)))
    for person in SPREAD:
        telegram.chat(person["id"], "private", None)
    for _ in range(3):
        for person in SPREAD:
            number = next(numbers)
            asked[person["id"]] = (*asked[person["id"]], number)
            await telegram.say(person["id"], person, f"/solve 1 1 1 {number}", kind="private")
            assert await running.deliver() == [200]
    for chat in chats:
        replies = await telegram.replies(chat, 3, timeout=30)
        answered = [next(n for n in asked[chat] if str(n) in reply.text) for reply in replies]
        assert answered == list(asked[chat]), [reply.text for reply in replies]
    senders = [request.pid for request in telegram.journal if request.method == "sendMessage"]
    assert set(senders) == {w.pid for w in workers}  # every worker answered its chats
    for chat in chats:  # ... and only its own: the owner sent the chat's three replies
        owner = owners[chat]
        assert owner is not None
        assert {s.pid for s in telegram.sent if s.chat_id == chat} == {owner.pid}


async def test_a_round_goes_on_when_its_partition_moves_to_a_worker_that_joins(
        telegram, cluster, database):
    """Rounds open in every partition of the first worker; a second joins and takes half of
    them over (the first gives them up): each round is answered, won once, by the worker
    owning it now, and the ones nobody answers end on time."""
    running = cluster(round_seconds=25.0)
    await running.start_ingress()
    first = await running.start_worker("a")
    groups = [-(4000 + n) for n in range(16)]  # one in each partition
    assert {partition_of(g, 16) for g in groups} == set(range(16))
    dealer = {group: {"id": 500 + n, "is_bot": False, "first_name": f"D{n}"}
              for n, group in enumerate(groups)}  # three open rounds a person at most
    for group in groups:
        telegram.chat(group)
        await telegram.say(group, dealer[group], "/play")
    assert set(await running.deliver()) == {200}
    hands = {group: hand_of((await telegram.reply(group, timeout=30)).text) for group in groups}
    connection = await asyncpg.connect(database)
    try:
        await until(lambda: connection.fetchval(
            "SELECT COUNT(*) = 16 FROM rounds WHERE status = 'open' AND message_id IS NOT NULL"),
            "every deal's message id stored")
        deadline = await connection.fetchval("SELECT MAX(deadline) FROM rounds")
        second = await running.start_worker("b")
        await running.shared([first, second])
        moved = [g for g in groups if await running.owner(g) is second]
        assert len(moved) == 8
        for group in groups[::2]:  # half of them answered, after the move
            await telegram.say(group, dealer[group], f"/a {solve(hands[group])[0]}")
        assert set(await running.deliver()) == {200}
        for group in groups[::2]:
            won = await telegram.reply(group, timeout=30)
            assert f"{dealer[group]['first_name']} wins" in won.text
            owner = second if group in moved else first
            assert won.pid == owner.pid
        for group in groups[1::2]:
            assert "Time is up" in (await telegram.reply(group, timeout=60)).text
        assert time.time() <= deadline + 5  # on time, wherever they ended
        await asyncio.sleep(2)
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE status = 'won'") == 8
        results = [s for s in telegram.sent if "wins" in s.text or "Time is up" in s.text]
        assert len(results) == 16  # one result a round: none twice
    finally:
        await connection.close()


async def test_the_same_update_posted_twice_acts_once(telegram, cluster):
    running = cluster()
    await running.start_ingress()
    await running.start_worker("a")
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
        await running.start_worker("a")
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
        assert (await telegram.reply(GROUP, timeout=30)).formulas == [
            r"\frac{8}{3 - \frac{8}{3}} = 24"]


async def consumer_holds(client: Client, layout: Layout, partition: int) -> bool:
    info = await client.jetstream().consumer_info(layout.stream, layout.consumer(partition))
    return info.num_ack_pending == 1


async def owner_and_other(running: Cluster, chat: int) -> tuple[RoleProcess, RoleProcess]:
    """An ingress and two workers sharing the partitions: the one owning `chat`, the other."""
    await running.start_ingress()
    workers = [await running.start_worker("a"), await running.start_worker("b")]
    await running.shared(workers)
    owner = await running.owner(chat)
    assert owner is not None
    [other] = [w for w in workers if w is not owner]
    return owner, other


async def two_rounds_on_one_worker(running: Cluster, telegram: BotApiEmulator,
                                   connection: asyncpg.Connection
                                   ) -> tuple[RoleProcess, RoleProcess, list[int], float]:
    """Two workers sharing the partitions, a round dealt in GROUP and one in OTHER_GROUP, both
    on one worker: that worker, the other, GROUP's hand and OTHER_GROUP's deadline."""
    owner, other = await owner_and_other(running, GROUP)
    assert await running.owner(OTHER_GROUP) is owner
    for chat in (GROUP, OTHER_GROUP):
        telegram.chat(chat)
        await telegram.say(chat, ANN, "/play")
        assert await running.deliver() == [200]
    hand = hand_of((await telegram.reply(GROUP, timeout=30)).text)
    await telegram.reply(OTHER_GROUP, timeout=30)
    await until(lambda: connection.fetchval(
        "SELECT bool_and(message_id IS NOT NULL) FROM rounds WHERE status = 'open' "
        "HAVING COUNT(*) = 2"), "both deals' message ids stored")
    deadline = await connection.fetchval(
        "SELECT deadline FROM rounds WHERE chat_id = $1 AND status = 'open'", OTHER_GROUP)
    return owner, other, hand, deadline


async def test_a_worker_killed_before_its_ack_hands_the_update_over_and_it_acts_once(
        telegram, cluster, database, broker_server, stream):
    """The answer's claim is held up in the database (an uncommitted row of the same update
    id, as a slow database would), so the worker owning the chat has taken the update and not
    acknowledged it; it is killed there. The other worker takes its partitions over, the
    broker delivers the answer again, and it wins the round once; another chat's round on the
    killed worker ends on time on its new owner."""
    import nats

    connection = await asyncpg.connect(database)
    running = cluster(round_seconds=20.0)
    broker = await nats.connect(broker_server.url)
    try:
        first, second, hand, deadline = await two_rounds_on_one_worker(running, telegram,
                                                                       connection)
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
        await running.shared([second])
        won = await telegram.reply(GROUP, timeout=30)
        assert "Ann wins" in won.text and won.pid == second.pid
        ended = await telegram.reply(OTHER_GROUP, timeout=40)
        assert "Time is up" in ended.text and ended.pid == second.pid
        assert deadline - 1 <= time.time() <= deadline + 5  # on time, on the new owner
        await asyncio.sleep(3)
        assert [s.text for s in telegram.sent if s.chat_id == GROUP and "wins" in s.text] == \
            [won.text]  # once
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE chat_id = $1 AND status = 'won'", GROUP) == 1
    finally:
        await broker.close()
        await connection.close()


async def test_a_paused_worker_is_replaced_and_once_let_go_does_nothing(
        telegram, cluster, database):
    """SIGSTOP of the worker owning a group mid-round: the other takes its partitions over
    within the lease, and ends the round on time; an answer sent meanwhile wins it, once.
    SIGCONT: the paused worker finds its lease gone and exits (status 3) having written and
    sent nothing more."""
    connection = await asyncpg.connect(database)
    running = cluster(round_seconds=20.0)
    try:
        paused, other, hand, deadline = await two_rounds_on_one_worker(running, telegram,
                                                                       connection)
        paused.signal(signal.SIGSTOP)
        stopped_at = time.time()
        await telegram.say(GROUP, ANN, f"/a {solve(hand)[0]}")
        assert await running.deliver() == [200]
        await running.shared([other])
        assert time.time() - stopped_at <= 10  # the lease (4 s) and a look at the owners
        won = await telegram.reply(GROUP, timeout=30)
        assert "Ann wins" in won.text and won.pid == other.pid
        ended = await telegram.reply(OTHER_GROUP, timeout=40)
        assert "Time is up" in ended.text and ended.pid == other.pid
        assert deadline - 1 <= time.time() <= deadline + 5
        sent_before = len(telegram.journal)
        paused.signal(signal.SIGCONT)
        assert paused.process is not None
        assert await asyncio.wait_for(paused.process.wait(), 30) == 3  # LOST_LEAD
        await asyncio.sleep(2.0)  # multiprocessing's resource tracker speaks after the exit
        assert "leaked" not in paused.log.read_text()  # its solver pool stopped first
        assert [r for r in telegram.journal[sent_before:] if r.pid == paused.pid] == []
        assert [s.text for s in telegram.sent if "wins" in s.text or "Time is up" in s.text] \
            == [won.text, ended.text]  # once each
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE status = 'won'") == 1
    finally:
        await connection.close()


async def test_a_worker_stopped_cleanly_gives_its_partitions_up_at_once(
        telegram, cluster, database):
    """SIGTERM (a rolling restart): the stopping worker finishes, then frees its partitions
    and its lease's row at once — no waiting for the lease to run out — and the other takes
    them over and ends the open round on time."""
    connection = await asyncpg.connect(database)
    running = cluster(round_seconds=20.0)
    stopping, other = await owner_and_other(running, GROUP)
    try:
        telegram.chat(GROUP)
        await telegram.say(GROUP, ANN, "/play")
        assert await running.deliver() == [200]
        await telegram.reply(GROUP, timeout=30)
        deadline = await connection.fetchval(
            "SELECT deadline FROM rounds WHERE chat_id = $1 AND status = 'open'", GROUP)
        epoch = await connection.fetchval(
            "SELECT epoch FROM worker_leases WHERE holder LIKE $1", f"{stopping.pid}@%")
        await stopping.stop()
        assert stopping.process is not None and stopping.process.returncode == 0
        assert await connection.fetchval(  # released, not left to run out
            "SELECT COUNT(*) FROM worker_leases WHERE epoch = $1", epoch) == 0
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM partition_owners WHERE owner = $1", epoch) == 0
        await running.shared([other])
        ended = await telegram.reply(GROUP, timeout=40)
        assert "Time is up" in ended.text and ended.pid == other.pid
        assert deadline - 1 <= time.time() <= deadline + 5
    finally:
        await connection.close()


async def test_a_live_hand_is_refused_by_the_worker_that_does_not_own_the_group(
        telegram, cluster):
    """A round dealt in a group on one worker; a member asks /solve of its hand in private,
    where the other worker owns the member's chat: refused (the open rounds are read from
    PostgreSQL). Someone not in the group is answered; so is the member once the round is
    over."""
    running = cluster()
    await running.start_ingress()
    workers = [await running.start_worker("a"), await running.start_worker("b")]
    await running.shared(workers)
    dealer = await running.owner(GROUP)
    assert dealer is not None
    owned = await running.owners()
    asker_ids = [user for user in range(700, 800)
                 if owned[partition_of(user, 16)] != dealer.pid][:2]
    member, stranger = ({"id": user, "is_bot": False, "first_name": name, "language_code": "en"}
                        for user, name in zip(asker_ids, ("Mo", "Sy"), strict=True))
    telegram.chat(GROUP)
    telegram.leave(GROUP, stranger["id"])
    await telegram.say(GROUP, ANN, "/play")
    assert await running.deliver() == [200]
    deal = await telegram.reply(GROUP, timeout=30)
    assert deal.pid == dealer.pid
    hand = hand_of(deal.text)
    ask = "/solve " + " ".join(map(str, hand))
    for person in (member, stranger):
        telegram.chat(person["id"], "private", None)
        await telegram.say(person["id"], person, ask, kind="private")
    assert await running.deliver() == [200, 200]
    refused = await telegram.reply(member["id"], timeout=30)
    answered = await telegram.reply(stranger["id"], timeout=30)
    assert refused.pid != dealer.pid and answered.pid != dealer.pid  # the other worker
    assert "being played in a chat you are in" in refused.text
    assert "= 24" in answered.text and "= 24" not in refused.text
    await telegram.say(GROUP, ANN, f"/a {solve(hand)[0]}")
    assert await running.deliver() == [200]
    assert "Ann wins" in (await telegram.reply(GROUP, timeout=30)).text
    await telegram.say(member["id"], member, ask, kind="private")
    assert await running.deliver() == [200]
    assert "= 24" in (await telegram.reply(member["id"], timeout=30)).text


async def settled_and_sent_once(connection: asyncpg.Connection, telegram: BotApiEmulator,
                                update_id: int, text: str) -> None:
    """The update's owed claim settled, and `text` the one message GROUP got (nothing more
    within two seconds)."""
    await until(lambda: connection.fetchval(
        "SELECT owed_by IS NULL FROM handled_updates WHERE update_id = $1", update_id),
        "the claim settled")
    await asyncio.sleep(2)
    assert [s.text for s in telegram.sent if s.chat_id == GROUP] == [text]  # once


async def test_a_worker_killed_after_claiming_a_solve_does_not_lose_its_reply(
        telegram, cluster, database, monkeypatch):
    """The worker owning a group claims a /solve (owed: bot.play.guards.once) and is killed
    while its reply is on the way, before Telegram took it (the emulator holds the call, then
    refuses it). The other worker takes the partition over, the broker delivers the /solve
    again, and the other worker, finding it owed by the dead one, answers it: once, and the
    claim settled."""
    connection = await asyncpg.connect(database)
    running = cluster()
    held, release = asyncio.Event(), asyncio.Event()
    original = telegram.call

    async def holding(method: str, params: dict, agent: str = "") -> object:
        if method.lower() in ("sendmessage", "sendrichmessage") \
                and str(params.get("chat_id")) == str(GROUP) \
                and not held.is_set():
            held.set()
            await release.wait()
            raise TelegramError(502, "Bad Gateway")  # never taken: its sender is gone
        return await original(method, params, agent)

    monkeypatch.setattr(telegram, "call", holding)
    try:
        owner, other = await owner_and_other(running, GROUP)
        telegram.chat(GROUP)
        await telegram.say(GROUP, ANN, "/solve 3 3 8 8")
        [asked] = running.take()
        assert await running.post(asked) == 200
        await until(held.is_set, "the owner's reply on its way")
        assert await connection.fetchval(
            "SELECT owed_by IS NOT NULL FROM handled_updates WHERE update_id = $1",
            asked["update_id"])  # claimed, owed
        await owner.kill()
        release.set()
        await running.shared([other])
        reply = await telegram.reply(GROUP, timeout=30)
        assert "1 distinct solution" in reply.text and reply.pid == other.pid
        await settled_and_sent_once(connection, telegram, asked["update_id"], reply.text)
    finally:
        await connection.close()



async def test_a_worker_killed_after_claiming_a_play_does_not_lose_its_deal(
        telegram, cluster, database):
    """The worker owning a group claims a /play (owed: bot.telegram.app.OWED_COMMANDS) and is
    killed before its round is stored: the test holds the starter's lock that the opening
    waits on (schema step 26), so the claim is committed and the round not. The other worker
    takes the partition over, the broker delivers the /play again, and the other worker,
    finding it owed by the dead one, deals it: one deal, one round, the claim settled by the
    round's insert. (The dead worker's session, still waiting on the lock when it is let go,
    stores nothing: the claim is no longer its own.)"""
    connection = await asyncpg.connect(database)
    running = cluster()
    starter_lock = (1 << 62) + ANN["id"]
    try:
        owner, other = await owner_and_other(running, GROUP)
        telegram.chat(GROUP)
        await connection.execute("SELECT pg_advisory_lock($1)", starter_lock)
        await telegram.say(GROUP, ANN, "/play")
        [asked] = running.take()
        assert await running.post(asked) == 200
        await until(lambda: connection.fetchval(
            "SELECT COUNT(*) > 0 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"),
            "the owner's opening waiting on the starter's lock")
        assert await connection.fetchval(
            "SELECT owed_by IS NOT NULL FROM handled_updates WHERE update_id = $1",
            asked["update_id"])  # claimed, owed; no round yet
        await owner.kill()
        await running.shared([other])
        await connection.execute("SELECT pg_advisory_unlock($1)", starter_lock)
        deal = await telegram.reply(GROUP, timeout=30)
        assert "Make 24" in deal.text and deal.pid == other.pid
        await settled_and_sent_once(connection, telegram, asked["update_id"], deal.text)
        assert await connection.fetchval(
            "SELECT COUNT(*) FROM rounds WHERE chat_id = $1", GROUP) == 1
    finally:
        await connection.close()


async def test_a_worker_killed_while_its_results_deal_loses_its_buttons_sends_it_once(
        telegram, cluster, database, monkeypatch):
    """The worker owning a group sends a round's result, Telegram takes it, and the worker is
    killed while the deal's buttons are being taken off (the emulator holds that call, behind
    the send limit as it were, then refuses it). The result went on record before that call,
    so the worker taking the partition over owes nothing: the group sees one result (issue 70:
    the record came after the buttons' call, and the next owner sent the result again, late)."""
    connection = await asyncpg.connect(database)
    running = cluster()
    held, release = asyncio.Event(), asyncio.Event()
    original = telegram.call

    async def holding(method: str, params: dict, agent: str = "") -> object:
        if method.lower() == "editmessagereplymarkup" \
                and str(params.get("chat_id")) == str(GROUP) and not held.is_set():
            held.set()
            await release.wait()
            raise TelegramError(502, "Bad Gateway")  # its sender is gone
        return await original(method, params, agent)

    monkeypatch.setattr(telegram, "call", holding)
    try:
        owner, other = await owner_and_other(running, GROUP)
        telegram.chat(GROUP)
        await telegram.say(GROUP, ANN, "/play")
        assert await running.deliver() == [200]
        hand = hand_of((await telegram.reply(GROUP, timeout=30)).text)
        await until(lambda: connection.fetchval(
            "SELECT message_id IS NOT NULL FROM rounds WHERE chat_id = $1", GROUP),
            "the deal's message id stored")
        await telegram.say(GROUP, ANN, f"/a {solve(hand)[0]}")
        assert await running.deliver() == [200]
        await until(held.is_set, "the deal's buttons being taken off")
        [won] = [s for s in telegram.sent if s.chat_id == GROUP and "wins" in s.text]
        assert won.pid == owner.pid
        await owner.kill()
        release.set()
        await running.shared([other])
        await telegram.say(GROUP, ANN, "/solve 3 3 8 8")  # answered once the group is taken up
        assert await running.deliver() == [200]
        await until(lambda: any("distinct solution" in s.text for s in telegram.sent
                                if s.chat_id == GROUP), "the next owner answering the group")
        results = [s.text for s in telegram.sent if s.chat_id == GROUP
                   and ("wins" in s.text or "Late" in s.text)]
        assert results == [won.text]
        assert await connection.fetchval(
            "SELECT announced FROM rounds WHERE chat_id = $1", GROUP) == 1
    finally:
        await connection.close()
