"""A page asked again while the same page waits for its turn is answered with it
(bot/webapp/same_page.py): worked out once for everyone who asked before it began, never shared
with whoever asks once it has begun, its refusal raised to each, and no asker left waiting when
another goes."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from http import HTTPStatus
from typing import Any

import pytest

from bot.webapp.refusal import Refusal
from bot.webapp.same_page import SamePage
from tests.bot.conftest import Harness
from tests.bot.webapp_support import page_server, post


class Lane:
    """A lane of pages that runs what is submitted only when the test opens it."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.submitted = 0

    async def __call__(self, user_id: int, chat_id: int, work: Coroutine[Any, Any, None],
                       page: bool = False) -> None:
        self.submitted += 1
        try:
            await self.open.wait()
        except asyncio.CancelledError:
            work.close()  # never to run, as a lane closing drops what waits
            raise
        await work


class Page:
    """A page worked out: counts how often, and what it read (the count at its start)."""

    def __init__(self) -> None:
        self.made = 0
        self.begun = asyncio.Event()
        self.finish = asyncio.Event()
        self.finish.set()

    async def __call__(self) -> dict[str, int]:
        self.made += 1
        read = self.made
        self.begun.set()
        await self.finish.wait()
        return {"made": read}


async def test_askers_while_it_waits_share_one_page():
    same, lane, page = SamePage(), Lane(), Page()
    askers = [asyncio.create_task(same.asked("p1", lane, 1, page)) for _ in range(12)]
    await asyncio.sleep(0)
    assert len(same) == 1 and lane.submitted == 1  # one in the lane, eleven waiting on it
    lane.open.set()
    assert [await a for a in askers] == [{"made": 1}] * 12
    assert page.made == 1 and len(same) == 0


async def test_an_asker_once_it_has_begun_gets_a_page_of_its_own():
    """A page whose reads began before the request came could miss what changed meanwhile:
    the later asker waits for a fresh one, which those after it share."""
    same, lane, page = SamePage(), Lane(), Page()
    lane.open.set()
    page.finish.clear()
    first = asyncio.create_task(same.asked("p1", lane, 1, page))
    await page.begun.wait()  # its reads are under way
    lane.open.clear()  # what is submitted from now on waits for its turn
    later = [asyncio.create_task(same.asked("p1", lane, 1, page)) for _ in range(3)]
    await asyncio.sleep(0)
    page.finish.set()
    lane.open.set()
    assert await first == {"made": 1}
    assert [await a for a in later] == [{"made": 2}] * 3  # one more page, after they asked
    assert page.made == 2


async def test_other_pages_are_not_shared():
    same, lane, page = SamePage(), Lane(), Page()
    lane.open.set()
    found = await asyncio.gather(same.asked("p1", lane, 1, page), same.asked("p2", lane, 2, page))
    assert sorted(f["made"] for f in found) == [1, 2]


async def test_its_refusal_is_every_asker_s():
    same, lane = SamePage(), Lane()

    async def refused() -> None:
        raise Refusal(HTTPStatus.NOT_FOUND, "no such tournament", "nothing")

    askers = [asyncio.create_task(same.asked("t9", lane, 1, refused)) for _ in range(3)]
    await asyncio.sleep(0)
    lane.open.set()
    for asker in askers:
        with pytest.raises(Refusal) as raised:
            await asker
        assert raised.value.status == HTTPStatus.NOT_FOUND
    assert len(same) == 0


async def test_an_asker_gone_leaves_the_page_to_the_others():
    same, lane, page = SamePage(), Lane(), Page()
    first = asyncio.create_task(same.asked("p1", lane, 1, page))
    joined = [asyncio.create_task(same.asked("p1", lane, 1, page)) for _ in range(2)]
    await asyncio.sleep(0)
    joined[0].cancel()  # one who joined hangs up
    lane.open.set()
    assert await first == {"made": 1} and await joined[1] == {"made": 1}


async def test_the_first_asker_gone_tells_the_others_to_try_again():
    """Cancelled before its turn (the process stopping), the page is never worked out: those
    who joined hear "try again" rather than waiting for ever."""
    same, lane, page = SamePage(), Lane(), Page()
    first = asyncio.create_task(same.asked("p1", lane, 1, page))
    joined = asyncio.create_task(same.asked("p1", lane, 1, page))
    await asyncio.sleep(0)
    first.cancel()
    with pytest.raises(Refusal) as raised:
        await joined
    assert raised.value.status == HTTPStatus.SERVICE_UNAVAILABLE and page.made == 0
    assert len(same) == 0


async def test_a_person_reloading_their_page_a_dozen_times_has_it_worked_out_once(
        harness: Harness, monkeypatch):
    """The real page server: eight requests for a player's page at once (within the person's
    budget), each answered 200 with the same page, worked out at most three times (the slack
    begins two at once; the rest wait for their turn together), not eight."""
    from bot.webapp.init_data import sign, user_fields
    from tests.bot.webapp_support import ANN, hand_clock

    pages = harness.services.pages
    making = pages.player
    made: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(1)
        return making(*args, **kwargs)
    monkeypatch.setattr(pages, "player", counted)
    clock = hand_clock(harness)
    data = sign(user_fields(ANN["id"], ANN["first_name"], int(clock()), "en"),
                harness.telegram.token)
    body = {"init_data": data, "page": f"u{ANN['id']}"}
    async with page_server(harness) as base:
        answers = await asyncio.gather(*(post(base, "api/page", body) for _ in range(8)))
    assert [status for status, _ in answers] == [200] * 8
    assert all(page == answers[0][1] for _, page in answers)
    assert 1 <= len(made) <= 3  # two may begin at once in the slack; the rest share the third


def test_a_card_s_fields_tell_apart_what_python_calls_equal():
    """1, 1.0 and true hash alike: as a card's day or game they must be three requests, not
    one answered with another's; a list or an object is a key too."""
    from bot.webapp.pages_api import _told

    told = [_told(value) for value in (1, 1.0, True, "1", None, [1], {"d": 1})]
    assert len(set(told)) == len(told)
    assert _told([1]) == _told([1]) and _told("2026-11-30") == _told("2026-11-30")
