"""The Mini App's requests on the real broker (bot/cluster/relay.py, bot/webapp/relayed.py): a
request about a round reaches the worker owning its chat's partition and no other, a page any
worker; nobody owning it, a worker that has just let it go, or one that never replies is "try
again" (503), never a wrong answer; a refusal comes back as the worker said it; and a worker
gives a partition up only once its requests about it were answered."""

from __future__ import annotations

import asyncio
import json
import time
from http import HTTPStatus
from typing import Any

import pytest
from nats.aio.client import Client

from bot.cluster.partitions import partition_of
from bot.cluster.relay import Relay, Responder
from bot.cluster.stream import Layout
from bot.webapp.init_data import sign, user_fields
from bot.webapp.refusal import Refusal
from bot.webapp.relayed import RELAYED, RelayedFace, answer_request, request
from bot.webapp.server import ACTS

PARTITIONS = 8
GROUP, OTHER = -1001, -1002  # in partitions 7 and 6 of 8
TOKEN = "123:relay"
SIGNED = sign(user_fields(7, "Ann", int(time.time()), "en", None), TOKEN)


class Worker:
    """A worker's side of the relay with a Face of its own that says who answered."""

    def __init__(self, client: Client, layout: Layout, name: str) -> None:
        self.name = name
        self.owned: set[int] = set()
        self.answered: list[str] = []
        self.hold: asyncio.Event | None = None
        self.responder = Responder(client, layout, self.answer, self.owned.__contains__)

    async def answer(self, data: bytes) -> bytes:
        asked = json.loads(data)
        self.answered.append(asked["act"])
        if self.hold is not None:
            await self.hold.wait()
        return json.dumps({"ok": {"by": self.name, "act": asked["act"]}}).encode()

    async def own(self, *partitions: int) -> None:
        for partition in partitions:
            self.owned.add(partition)
            await self.responder.add(partition)


def ticket(chat: int) -> dict[str, Any]:
    return {"round": f"{chat}_0_5", "init_data": SIGNED}


@pytest.fixture
def layout(stream: str) -> Layout:
    return Layout(stream, PARTITIONS)


@pytest.fixture
async def two(client: Client, layout: Layout):
    """Two workers, each owning half the partitions, both on the shared subject."""
    one, two = Worker(client, layout, "one"), Worker(client, layout, "two")
    await one.own(*range(0, PARTITIONS, 2))
    await two.own(*range(1, PARTITIONS, 2))
    for worker in (one, two):
        await worker.responder.add(None)
    yield one, two
    for worker in (one, two):
        if worker.hold is not None:
            worker.hold.set()
        await worker.responder.close()


def relayed(client: Client, layout: Layout, seconds: float = 5.0) -> RelayedFace:
    return RelayedFace(Relay(client, layout, seconds).ask, TOKEN)


async def test_a_rounds_request_reaches_the_owner_of_its_chat(client, layout, two):
    face = relayed(client, layout)
    owner = {0: "one", 1: "two"}
    for chat in (GROUP, OTHER, 42, -7):
        for act in ("round", "answer"):
            said = await RELAYED[act](face, ticket(chat))
            assert said == {"by": owner[partition_of(chat, PARTITIONS) % 2], "act": act}
    pages = [await RELAYED["page"](face, {"page": "p_1", "init_data": SIGNED}) for _ in range(6)]
    assert {said["act"] for said in pages} == {"page"}  # any worker: one of the two


async def test_nobody_owning_it_or_an_owner_that_let_it_go_is_try_again(client, layout, two):
    one, _ = two
    face = relayed(client, layout)
    group = partition_of(GROUP, PARTITIONS)
    mine = one if group % 2 == 0 else two[1]
    await mine.responder.remove([group])  # given up: nobody listens
    mine.owned.discard(group)
    with pytest.raises(Refusal) as refused:
        await RELAYED["round"](face, ticket(GROUP))
    assert refused.value.status == HTTPStatus.SERVICE_UNAVAILABLE
    assert refused.value.said == "try_again"
    await mine.responder.add(group)  # still listening, no longer owning (its give-up begun)
    with pytest.raises(Refusal) as refused:
        await RELAYED["answer"](face, ticket(GROUP))
    assert refused.value.status == HTTPStatus.SERVICE_UNAVAILABLE
    assert "answer" not in mine.answered  # it did not act on it
    with pytest.raises(Refusal) as refused:  # no ticket: no partition to ask
        await RELAYED["answer"](face, {"round": "nonsense", "init_data": SIGNED})
    assert refused.value.status == HTTPStatus.BAD_REQUEST


async def test_an_owner_that_does_not_reply_in_time_is_try_again(client, layout, two):
    one, other = two
    for worker in two:
        worker.hold = asyncio.Event()
    with pytest.raises(Refusal) as refused:
        await RELAYED["round"](relayed(client, layout, seconds=0.3), ticket(GROUP))
    assert refused.value.status == HTTPStatus.SERVICE_UNAVAILABLE
    assert one.answered + other.answered == ["round"]


async def test_a_give_up_waits_for_the_requests_in_hand(client, layout, two):
    """The owner stops listening at once, but its give-up returns only once the answer it
    was judging has been replied to."""
    one, other = two
    group = partition_of(GROUP, PARTITIONS)
    mine = one if group % 2 == 0 else other
    mine.hold = asyncio.Event()
    asking = asyncio.create_task(RELAYED["answer"](relayed(client, layout), ticket(GROUP)))
    while "answer" not in mine.answered:
        await asyncio.sleep(0.01)
    mine.owned.discard(group)
    giving_up = asyncio.create_task(mine.responder.remove([group]))
    await asyncio.sleep(0.2)
    assert not giving_up.done() and not asking.done()
    mine.hold.set()
    assert (await asking)["by"] == mine.name  # what it did is said, not "try again"
    await giving_up


async def test_a_workers_refusal_comes_back_as_it_said_it(client, layout, stream):
    """The worker's own Face refuses (a forged signature): the role refuses with the same
    status and word; a request that is not one is refused, not a crash."""

    class Refusing:
        token = "123:another"  # the worker's: the role's signature is not its
        doors = None

        def leading(self) -> bool:
            return True

        def now(self) -> float:
            return 1_800_000_000.0

    async def answer(data: bytes) -> bytes:
        return await answer_request(Refusing(), data)  # type: ignore[arg-type]

    responder = Responder(client, layout, answer, lambda partition: True)
    await responder.add(None)
    try:
        with pytest.raises(Refusal) as refused:
            await RELAYED["page"](relayed(client, layout), {"page": "p_1", "init_data": SIGNED})
        assert refused.value.status == HTTPStatus.FORBIDDEN
        assert refused.value.said == "page_forbidden"
        said = json.loads(await answer(b"{not json"))
        assert said["refused"][0] == HTTPStatus.BAD_REQUEST
        said = json.loads(await answer(request("nothing", {})))
        assert said["refused"][0] == HTTPStatus.BAD_REQUEST
        assert set(RELAYED) == set(ACTS)
    finally:
        await responder.close()

