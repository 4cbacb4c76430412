"""The Mini App's door (issue 70, item 1): every request draws on its asker's budget — the one
their updates draw on — before its work, attacked the ways around it: a flood of one person's
signed answers, a forged flood in another's name, a stranger naming a group's round, a flood
through another door (typed answers) spending what the page may do, a group of many at once,
everyone's requests at once."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from telegram import Update

from bot.runtime.doors import PERSON, WEBAPP_DOOR, Doors, Limits, chat_key, person_key
from bot.webapp import door
from bot.webapp.init_data import sign, user_fields
from tests.bot.conftest import Clock, Harness
from tests.bot.webapp_support import (
    ANN,
    BEN,
    EVE,
    GROUP,
    WRONG,
    deal_known,
    hand_clock,
    page_server,
    signed_for,
)
from tests.waiting import until


@pytest.fixture
def clock(harness: Harness) -> Clock:
    return hand_clock(harness)


@pytest.fixture
def doors(harness: Harness) -> Doors:
    """One budget for the face and the updates, on a clock that stands still (nothing refills
    while the test runs, however slow the machine)."""
    shared = Doors(clock=lambda: 0.0)
    harness.bot.face.doors = shared
    harness.app.update_processor.doors = shared
    return shared


async def post(client: httpx.AsyncClient, base: str, path: str, body: dict
               ) -> httpx.Response:
    return await client.post(base + path, content=json.dumps(body),
                             headers={"Content-Type": "application/json"})


async def test_a_flood_of_answers_past_the_budget(harness: Harness, clock: Clock, doors: Doors):
    """Sixty answers of Ann's at once: those within her budget are judged, the rest refused at
    once, 429 with Retry-After, in her words; none of them reaches the round; Ben, in the same
    group, still answers."""
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    anns = signed_for(ANN, current, harness.telegram.token)
    judged = []
    real = harness.services.rounds.answer

    async def counted(*args, **kwargs):
        judged.append(args)
        return await real(*args, **kwargs)

    harness.services.rounds.answer = counted  # type: ignore[method-assign]
    async with page_server(harness) as base, httpx.AsyncClient(timeout=30) as client:
        responses = await asyncio.gather(*(
            post(client, base, "api/answer", {"init_data": anns, "round": ticket,
                                              "steps": WRONG}) for _ in range(60)))
        statuses = [r.status_code for r in responses]
        assert statuses.count(200) + statuses.count(429) == 60
        assert 1 <= statuses.count(200) <= PERSON.burst  # the clock stands still: no refill
        refused = [r for r in responses if r.status_code == 429]
        assert all(int(r.headers["Retry-After"]) >= 1 for r in refused)
        assert refused[0].json()["said"] == "Slow down a little."
        assert len(judged) == statuses.count(200)
        bens = signed_for(BEN, current, harness.telegram.token)
        ben = await post(client, base, "api/answer", {"init_data": bens, "round": ticket,
                                                      "steps": WRONG})
        assert ben.status_code == 200


async def test_a_forged_flood_spends_nothing_and_is_refused_before_its_signature(
        harness: Harness, clock: Clock, doors: Doors, monkeypatch: pytest.MonkeyPatch):
    """Eve forges Ann's initData (a hash that does not match) two hundred times: each is 403
    and Ann's budget is untouched. Once Ann herself is past her budget, a request in her name
    is refused before its signature is even checked."""
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    forged = sign(user_fields(ANN["id"], "Ann", int(current.started_at), "en", ticket),
                  "999:not-the-token")
    async with page_server(harness) as base, httpx.AsyncClient(timeout=30) as client:
        for _ in range(200):
            response = await post(client, base, "api/round", {"init_data": forged,
                                                              "round": ticket})
            assert response.status_code == 403
        assert doors.held(person_key(ANN["id"])) == 0
        anns = signed_for(ANN, current, harness.telegram.token)
        for _ in range(int(PERSON.burst)):
            assert (await post(client, base, "api/round", {"init_data": anns,
                                                           "round": ticket})).status_code == 200
        checked = []
        real_verify = door.verify
        monkeypatch.setattr(door, "verify", lambda *a: checked.append(a) or real_verify(*a))
        for init_data in (anns, forged):
            response = await post(client, base, "api/round", {"init_data": init_data,
                                                              "round": ticket})
            assert response.status_code == 429
        assert checked == []  # refused on the claim alone: no signature checked


async def test_a_stranger_spends_nothing_of_a_group(harness: Harness, clock: Clock,
                                                    doors: Doors):
    """Eve, not in the group, names its round a hundred times (a start parameter may name any
    group): each is refused as hers, and the group's own budget stays whole for its members."""
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    harness.telegram.leave(GROUP, EVE["id"])
    eves = signed_for(EVE, current, harness.telegram.token)
    async with page_server(harness) as base, httpx.AsyncClient(timeout=30) as client:
        statuses = [(await post(client, base, "api/answer", {
            "init_data": eves, "round": ticket, "steps": WRONG})).status_code
            for _ in range(100)]
        assert set(statuses) == {403, 429}
        assert chat_key(GROUP) not in doors._buckets  # never drawn on
        anns = signed_for(ANN, current, harness.telegram.token)
        response = await post(client, base, "api/round", {"init_data": anns, "round": ticket})
        assert response.status_code == 200


async def test_one_budget_for_every_door(harness: Harness, clock: Clock, doors: Doors):
    """Ann floods another group with messages: past her budget the page refuses her too (a
    person's budget is one, whichever door their work comes by)."""
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    for number in range(int(PERSON.burst) + 5):  # one after another, each handled
        message = await harness.telegram.say(GROUP - 1, ANN, f"hello {number}")
        await harness.app.update_queue.put(Update.de_json(
            {"update_id": 10_000 + number, "message": message}, harness.app.bot))
        await until(lambda: harness.app.update_queue.in_hand == 0, "every update handled")
    harness.telegram.updates.clear()
    assert doors.refusals == 5
    anns = signed_for(ANN, current, harness.telegram.token)
    async with page_server(harness) as base, httpx.AsyncClient(timeout=30) as client:
        response = await post(client, base, "api/round", {"init_data": anns, "round": ticket})
        assert response.status_code == 429
        bens = signed_for(BEN, current, harness.telegram.token)
        response = await post(client, base, "api/round", {"init_data": bens, "round": ticket})
        assert response.status_code == 200


async def test_a_group_together_meets_the_group_s_budget(harness: Harness, clock: Clock):
    """Many members, each within their own budget, together past the group's: the group's
    requests past it are refused, another group's are not."""
    shared = Doors(chat=Limits(rate=30.0, burst=10.0, at_once=64), clock=lambda: 0.0)
    harness.bot.face.doors = shared
    current = await deal_known(harness)
    ticket = f"{GROUP}_0_{current.id}"
    members = [{"id": 8000 + n, "is_bot": False, "first_name": f"M{n}", "language_code": "en"}
               for n in range(15)]
    async with page_server(harness) as base, httpx.AsyncClient(timeout=30) as client:
        statuses = [(await post(client, base, "api/round", {
            "init_data": signed_for(member, current, harness.telegram.token),
            "round": ticket})).status_code for member in members]
        assert statuses == [200] * 10 + [429] * 5


async def test_everyone_s_requests_at_once_meet_the_door_s(harness: Harness, clock: Clock):
    """The door's own bound, everyone together: past it 503 and Retry-After."""
    shared = Doors(webapp=Limits(rate=400.0, burst=400.0, at_once=2), clock=lambda: 0.0)
    harness.bot.face.doors = shared
    current = await deal_known(harness)
    held = [shared.enter("view", person_key(n), WEBAPP_DOOR) for n in (1, 2)]
    anns = signed_for(ANN, current, harness.telegram.token)
    async with page_server(harness) as base, httpx.AsyncClient(timeout=30) as client:
        response = await post(client, base, "api/round", {
            "init_data": anns, "round": f"{GROUP}_0_{current.id}"})
        assert response.status_code == 503 and response.headers["Retry-After"] == "1"
        for admitted in held:
            shared.leave(admitted)  # type: ignore[arg-type]
        response = await post(client, base, "api/round", {
            "init_data": anns, "round": f"{GROUP}_0_{current.id}"})
        assert response.status_code == 200
