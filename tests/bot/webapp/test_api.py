"""The API's exchange below tornado's request handlers (bot.webapp.api): what a request that is
no request gets (not a POST, too big by its length or as it arrives, not JSON), what every
answer carries, an asker who hung up, and the lane that takes a few requests a turn of the event
loop so a flood never holds the loop in one go."""

from __future__ import annotations

import asyncio
import json

import httpx

from bot.webapp.api import CSP, MAX_BODY, Lane
from tests.bot.conftest import Harness
from tests.bot.webapp_support import page_server


async def test_what_is_no_request_is_refused_and_every_answer_is_secured(harness: Harness):
    async with page_server(harness) as base, httpx.AsyncClient(timeout=30) as client:
        asked = [
            await client.get(base + "api/round"),
            await client.post(base + "api/round", content=b"[1, 2]"),
            await client.post(base + "api/round", content=b"{not json"),
            await client.post(base + "api/round", content=b"x" * (MAX_BODY + 1)),
            await client.post(base + "api/round", content=b"{}"),
        ]
    assert [r.status_code for r in asked] == [405, 400, 400, 413, 403]
    for response in asked:
        assert response.headers["Content-Security-Policy"] == CSP
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Content-Type"] == "application/json; charset=UTF-8"
        assert response.headers["Cache-Control"] == "no-store"
        assert "error" in response.json()


class Looked:
    """An exchange that records the turn of the event loop it was looked at in."""

    def __init__(self, turns: list[int], clock: list[int]) -> None:
        self.turns, self.clock = turns, clock

    def look(self) -> None:
        self.turns.append(self.clock[0])


async def test_the_lane_takes_a_batch_a_turn():
    """Ten requests at once: two looked at each turn of the loop, in the order they came; the
    loop's other work runs between the batches."""
    lane, turns, clock = Lane(batch=2), [], [0]
    for _ in range(10):
        lane.join(Looked(turns, clock))  # type: ignore[arg-type]
    for turn in range(1, 8):
        await asyncio.sleep(0)  # one turn of the loop: another task's step
        clock[0] = turn
    assert turns == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert not lane.waiting


async def test_an_asker_who_hung_up_costs_no_write(harness: Harness):
    """A request whose connection closed before its answer: nothing is written to it, and the
    server goes on answering others."""
    async with page_server(harness) as base:
        port = int(base.split(":")[2].split("/")[0])
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        body = json.dumps({"init_data": "x"}).encode()
        writer.write(b"POST /webapp/api/round HTTP/1.1\r\nHost: x\r\nContent-Length: "
                     + str(len(body)).encode() + b"\r\n\r\n" + body)
        writer.close()
        async with httpx.AsyncClient(timeout=30) as client:
            response = await client.post(base + "api/round", content=b"{}")
        assert response.status_code == 403
