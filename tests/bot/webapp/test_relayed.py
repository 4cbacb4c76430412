"""What the page's own process (or the cluster's Mini App role) relays and what comes back
(bot/webapp/relayed.py): a refusal whole — its status, words, wait, the line under it and whose
budget it was — and a group or a person the bot said is past its budget held where the request
arrives, for the wait the bot named, so fifty members each within their own budget cost the bot
nothing more once their group's is spent (issue 70). Attacked: another chat, another person in
the group, the wait over, a request forged in the held group's name."""

from __future__ import annotations

import json
import time
from http import HTTPStatus

import pytest

from bot.webapp.init_data import sign, user_fields
from bot.webapp.refusal import Refusal
from bot.webapp.relayed import RelayedFace, answer_request

TOKEN = "123:relayed"
GROUP, OTHER = -1001, -1002


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


class Bot:
    """The answering side: says each round's chat is past its budget, or a person is, as told."""

    def __init__(self, by: str = "chat", wait: int = 3) -> None:
        self.asked: list[int | None] = []
        self.by, self.wait = by, wait

    async def ask(self, chat: int | None, data: bytes) -> bytes:
        self.asked.append(chat)
        refused = [429, f"past the {self.by}'s budget", "held", self.wait]
        return json.dumps({"refused": refused, "after": "", "by": self.by}).encode()


def body(chat: int, user: int = 7, token: str = TOKEN) -> dict:
    signed = sign(user_fields(user, "Ann", int(time.time()), "en", None), token)
    return {"round": f"{chat}_0_5", "init_data": signed, "steps": []}


async def refusal(face: RelayedFace, asked: dict) -> Refusal:
    with pytest.raises(Refusal) as raised:
        await face.relay("answer", asked)
    return raised.value


async def test_a_group_past_its_budget_is_held_where_the_request_arrives():
    bot, clock = Bot(), Clock()
    face = RelayedFace(bot.ask, TOKEN, clock)
    first = await refusal(face, body(GROUP))
    assert (first.status, first.retry_after, first.by) == (429, 3, "chat")
    for user in (7, 8, 9):  # every member of the group: its budget is everyone's in it
        held = await refusal(face, body(GROUP, user))
        assert (held.status, held.said, held.retry_after, held.by) == (429, "held", 3, "chat")
    assert bot.asked == [GROUP]  # the bot was asked once
    await refusal(face, body(OTHER))  # another group is asked as ever
    assert bot.asked == [GROUP, OTHER]
    clock.now += 2.5
    assert (await refusal(face, body(GROUP))).retry_after == 1  # what is left of the wait
    clock.now += 0.6
    await refusal(face, body(GROUP))  # the wait is over: asked again
    assert bot.asked == [GROUP, OTHER, GROUP]


async def test_a_person_past_their_own_budget_is_held_and_holds_no_one_else():
    """Ann spent her budget on updates (one budget, every door): her requests are held here
    for the wait named, in every chat; Ben's are asked for, in the same group."""
    bot, clock = Bot(by="person", wait=2), Clock()
    face = RelayedFace(bot.ask, TOKEN, clock)
    assert (await refusal(face, body(GROUP, 7))).by == "person"
    for chat in (GROUP, OTHER):
        held = await refusal(face, body(chat, 7))
        assert (held.status, held.retry_after, held.by) == (429, 2, "person")
    assert bot.asked == [GROUP]
    await refusal(face, body(GROUP, 8))
    assert bot.asked == [GROUP, GROUP]  # Ben is asked for: Ann's budget is not his
    clock.now += 2.1
    await refusal(face, body(OTHER, 7))
    assert bot.asked == [GROUP, GROUP, OTHER]


async def test_a_forged_request_naming_a_held_group_is_refused_and_spends_nothing():
    bot = Bot()
    face = RelayedFace(bot.ask, TOKEN, Clock())
    await refusal(face, body(GROUP))
    forged = await refusal(face, body(GROUP, token="999:another"))
    assert forged.status in (HTTPStatus.FORBIDDEN, HTTPStatus.TOO_MANY_REQUESTS)
    assert bot.asked == [GROUP]


async def test_a_refusal_comes_back_whole_with_its_line_and_whose_budget():
    said = Refusal(HTTPStatus.GONE, "over", "over", None, after="🧩 a line", by="")

    class Face:  # the bot's Face as answer_request calls it: an act that refuses
        doors = None
        token = TOKEN

    async def act(face: object, asked: dict) -> dict:
        raise said

    from bot.webapp import relayed
    relayed.ACTS["test_gone"] = act
    try:
        reply = await answer_request(Face(), json.dumps({"act": "test_gone", "body": {}}).encode())
    finally:
        del relayed.ACTS["test_gone"]

    async def ask(chat: int | None, data: bytes) -> bytes:
        return reply

    back = await refusal(RelayedFace(ask, TOKEN, Clock()), body(GROUP))
    assert (back.status, back.why, back.said, back.after) == (410, "over", "over", "🧩 a line")


async def test_a_refusal_from_a_worker_of_the_version_before_is_read_as_ever():
    """During a rolling upgrade a worker of the version before answers with the refusal's list
    alone: the role reads it, and holds nothing it was not told to."""
    asked: list[int | None] = []

    async def ask(chat: int | None, data: bytes) -> bytes:
        asked.append(chat)
        return json.dumps({"refused": [429, "past the chat's budget", "held", 3]}).encode()

    face = RelayedFace(ask, TOKEN, Clock())
    for _ in range(2):
        back = await refusal(face, body(GROUP))
        assert (back.status, back.retry_after, back.after, back.by) == (429, 3, "", "")
    assert asked == [GROUP, GROUP]
