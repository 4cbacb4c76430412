"""The Mini App as a role of its own, end to end: `python -m bot webapp` beside an ingress and
two workers (the Bot API emulator, a real PostgreSQL and NATS). Whichever worker owns a group,
the role shows its round and an answer made on the page wins it there, judged by that owner;
once the owner is killed, the worker taking its partitions over answers the same page; a private
page follows its streak's next hand through the role."""

from __future__ import annotations

import time

import asyncpg
import pytest

from bot.runtime.config import WEBAPP
from bot.webapp.init_data import sign, user_fields
from bot.webapp.tickets import Ticket
from demo.broker_server import free_port
from tests.bot.webapp_support import post, steps_to
from tests.cluster.processes import RoleProcess
from tests.e2e.test_bot_process import hand_of
from tests.waiting import until

pytestmark = pytest.mark.slow
ANN = {"id": 611, "is_bot": False, "first_name": "Ann", "language_code": "en"}
PAGE_URL = "https://bot.example/webapp/"
RELAYING = "relayed to the workers"  # the role's log line once it serves
PACE = 0.5  # seconds between a page's asks in a wait: within the person's budget (5 a second)


def signed(chat: int, round_id: int, token: str) -> dict:
    ticket = Ticket(chat, 0, round_id).text
    return {"round": ticket, "init_data": sign(user_fields(
        ANN["id"], ANN["first_name"], int(time.time()), "en", ticket), token)}


async def test_the_role_reaches_the_owner_of_each_round_and_its_successor(
        telegram, cluster, database):
    running = cluster()
    running.env["WEBAPP_URL"] = PAGE_URL
    await running.start_ingress()
    workers = [await running.start_worker("a"), await running.start_worker("b")]
    await running.shared(workers)
    groups: dict[int, int] = {}  # worker's pid -> a group it owns
    for group in range(-6001, -6040, -1):
        owner = await running.owner(group)
        assert owner is not None and owner.pid is not None
        groups.setdefault(owner.pid, group)
    assert len(groups) == 2
    port = free_port()
    role = RoleProcess(WEBAPP, "webapp", running.folder,
                       {**running.env, "WEBAPP_PORT": str(port)})
    running.processes.append(role)
    await role.spawn()
    await role.until(lambda: role.said(RELAYING), "serving the page")
    base = f"http://127.0.0.1:{port}/webapp/"
    assert (await post(base, "api/round", {"round": "1_0_1"}))[0] == 403  # unsigned

    connection = await asyncpg.connect(database)
    try:
        hands, ids = {}, {}
        for group in groups.values():
            telegram.chat(group)
            await telegram.say(group, ANN, "/play")
            assert await running.deliver() == [200]
            hands[group] = hand_of((await telegram.reply(group, timeout=30)).text)
            ids[group] = await connection.fetchval(
                "SELECT id FROM rounds WHERE chat_id = $1 AND status = 'open'", group)
        for group in groups.values():  # each shown by the role, whoever owns it
            status, page = await post(base, "api/round", signed(group, ids[group],
                                                                telegram.token))
            assert status == 200, page
            assert sorted(page["puzzle"]["tiles"]) == sorted(hands[group])
            assert page["title"] and page["seconds_left"] > 0

        [won, other] = groups.values()
        steps = steps_to(hands[won])
        status, verdict = await post(base, "api/answer",
                                     {**signed(won, ids[won], telegram.token), "steps": steps})
        assert status == 200 and verdict["right"], verdict
        result = await telegram.reply(won, timeout=30)
        assert "Ann wins" in result.text
        assert result.pid == (await running.owner(won)).pid  # judged and sent by the owner
        status, _ = await post(base, "api/round", signed(won, ids[won], telegram.token))
        assert status == 410  # over: the owner says so, and the role passes it on

        # a private page follows its streak's next hand through the role (`next` goes to the
        # owner of the person's chat: any other worker has no round of it and answers none)
        telegram.chat(ANN["id"], "private", None)
        await telegram.say(ANN["id"], ANN, "/streak", kind="private")
        assert await running.deliver() == [200]
        hand = hand_of((await telegram.reply(ANN["id"], timeout=30)).text)
        first = await connection.fetchval(
            "SELECT id FROM rounds WHERE chat_id = $1 AND status = 'open'", ANN["id"])
        private = {"round": Ticket(ANN["id"], 0, first).text, "init_data": sign(user_fields(
            ANN["id"], ANN["first_name"], int(time.time()), "en", None), telegram.token)}
        status, verdict = await post(base, "api/answer", {**private, "steps": steps_to(hand)})
        assert status == 200 and verdict["right"] and verdict["over"], verdict
        followed: list[dict] = []

        async def dealt() -> bool:
            status, said = await post(base, "api/next", private)
            assert status in (200, 503), said
            followed.append(said)
            return status == 200 and said["round"] is not None
        # asked at about the page's pace (app.js asks once a second): every 20 ms, a slow deal
        # on a loaded machine spent the person's budget (5 a second) and drew a 429
        await until(dealt, "the next hand followed through the role", 30, every=PACE)
        second = await connection.fetchval(
            "SELECT id FROM rounds WHERE chat_id = $1 AND status = 'open'", ANN["id"])
        assert followed[-1]["round"] == Ticket(ANN["id"], 0, second).text
        # ... so does a page from the menu, which names no round (her chat is its owner's)
        assert await post(base, "api/next", {"init_data": private["init_data"]}) == \
            (200, {"round": Ticket(ANN["id"], 0, second).text})
        # ... and a mode started from it reaches that owner too, whose table has the hand on
        status, started = await post(base, "api/start", {**private, "mode": "storm"})
        assert status == 200 and not started["dealt"] and started["text"], started

        dead = await running.owner(other)
        assert dead is not None
        [survivor] = [w for w in workers if w is not dead]
        await dead.kill()
        await until(lambda: running.owner(other), "the partition taken over", 30)
        assert await running.owner(other) is survivor
        shown: list[tuple[int, dict]] = []

        async def answered() -> bool:
            shown.append(await post(base, "api/round", signed(other, ids[other],
                                                               telegram.token)))
            return shown[-1][0] != 503  # "try again" while the partition changes hands
        await until(answered, "the page answered by the new owner", 30, every=PACE)
        assert shown[-1][0] == 200 and sorted(shown[-1][1]["puzzle"]["tiles"]) == \
            sorted(hands[other])
    finally:
        await connection.close()
