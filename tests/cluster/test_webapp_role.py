"""The Mini App as a role of its own, end to end: `python -m bot webapp` beside an ingress and
two workers (the Bot API emulator, a real PostgreSQL and NATS). Whichever worker owns a group,
the role shows its round and an answer made on the page wins it there, judged by that owner;
once the owner is killed, the worker taking its partitions over answers the same page."""

from __future__ import annotations

import time
from fractions import Fraction
from itertools import permutations

import asyncpg
import pytest

from bot.runtime.config import WEBAPP
from bot.webapp.init_data import sign, user_fields
from bot.webapp.tickets import Ticket
from demo.broker_server import free_port
from tests.bot.webapp_support import post
from tests.cluster.processes import RoleProcess
from tests.e2e.test_bot_process import hand_of
from tests.waiting import until

pytestmark = pytest.mark.slow
ANN = {"id": 611, "is_bot": False, "first_name": "Ann", "language_code": "en"}
PAGE_URL = "https://bot.example/webapp/"
RELAYING = "relayed to the workers"  # the role's log line once it serves
OPERATIONS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
              "/": lambda a, b: a / b if b else None}


def steps_to(tiles: list[Fraction], target: int) -> list[list] | None:
    """Taps on the page that make the target from every tile: each step two tiles' indexes and
    an operation, its result put at the end of the row (bot/webapp/steps.py)."""
    if len(tiles) == 1:
        return [] if tiles[0] == target else None
    for i, j in permutations(range(len(tiles)), 2):
        for name, operation in OPERATIONS.items():
            made = operation(tiles[i], tiles[j])
            if made is None:
                continue
            rest = [tile for k, tile in enumerate(tiles) if k not in (i, j)] + [made]
            after = steps_to(rest, target)
            if after is not None:
                return [[i, name, j], *after]
    return None


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
        steps = steps_to([Fraction(n) for n in hands[won]], 24)
        assert steps is not None
        status, verdict = await post(base, "api/answer",
                                     {**signed(won, ids[won], telegram.token), "steps": steps})
        assert status == 200 and verdict["right"], verdict
        result = await telegram.reply(won, timeout=30)
        assert "Ann wins" in result.text
        assert result.pid == (await running.owner(won)).pid  # judged and sent by the owner
        status, _ = await post(base, "api/round", signed(won, ids[won], telegram.token))
        assert status == 410  # over: the owner says so, and the role passes it on

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
        await until(answered, "the page answered by the new owner", 30)
        assert shown[-1][0] == 200 and sorted(shown[-1][1]["puzzle"]["tiles"]) == \
            sorted(hands[other])
    finally:
        await connection.close()
