"""A round's page once the round is over (issue 74: the themes of a hand): 410 "This round is
over." and, for a member of its chat, one line under it — what every solution of its hand needs,
the line /solve shows — as its result showed the solutions there. Nothing of the hand while it is
live elsewhere (another chat's round, a tournament's), nothing to one the bot knows left."""

from __future__ import annotations

import pytest

from bot.play.words.themes import themes_text
from bot.text.i18n import texts_for
from solver.themes import themes
from tests.bot.conftest import Clock, Harness, closed_outside
from tests.bot.telegram.test_members import handle_queued
from tests.bot.webapp_support import (
    ANN,
    EVE,
    GROUP,
    SOLUTION,
    deal_known,
    hand_clock,
    page_server,
    post,
    signed_for,
)

HAND = (3, 3, 8, 8)
LINE = "🧩 What every solution needs: a fraction on the way · a division last · one solution only"


@pytest.fixture
def clock(harness: Harness) -> Clock:
    return hand_clock(harness)


async def over(harness: Harness, clock: Clock, hand: tuple[int, ...] = HAND,
               missed: bool = False):
    """A round of the hand dealt in the group and ended there (revealed); Ann's initData;
    `missed`: Ann answered it wrong first."""
    current = await deal_known(harness, hand)
    data = signed_for(ANN, current, harness.telegram.token)
    if missed:
        await harness.stores.rounds.record_answer(current.id, ANN["id"], "3+3+8+8", False,
                                                  clock())
    await harness.stores.rounds.close_round(current.id, "revealed", clock())
    closed_outside(harness.services, current)
    return current, data


async def test_a_round_over_says_what_every_solution_of_its_hand_needs(harness: Harness,
                                                                       clock: Clock):
    ended, data = await over(harness, clock)
    assert themes_text(texts_for("en"), themes(HAND)) == LINE  # /solve's line, the same
    async with page_server(harness) as base:
        for path in ("api/round", "api/answer"):
            status, said = await post(base, path, {"init_data": data, "steps": SOLUTION,
                                                   "round": f"{GROUP}_0_{ended.id}"})
            assert (status, said["said"], said.get("after")) == (410, "This round is over.",
                                                                  LINE), path
    assert await harness.stores.rounds.answerers(ended.id) == []  # nothing judged


@pytest.mark.parametrize("hand, after", [
    (HAND, f"{LINE}\n💡 a fraction on the way: 8÷3 first"),
    ((1, 2, 3, 4), "💡 One way starts with 1×2")])  # a hand that needs nothing: the first step
async def test_one_who_missed_reads_the_coachs_line_too(harness: Harness, clock: Clock, hand,
                                                        after):
    ended, data = await over(harness, clock, hand, missed=True)
    async with page_server(harness) as base:
        status, said = await post(base, "api/round", {"init_data": data,
                                                      "round": f"{GROUP}_0_{ended.id}"})
    assert (status, said.get("after")) == (410, after)


@pytest.mark.parametrize("missed", [False, True])
async def test_nothing_of_the_hand_while_it_is_live_in_another_chat(harness: Harness,
                                                                    clock: Clock, missed):
    ended, data = await over(harness, clock, missed=missed)
    await deal_known(harness, HAND, chat=GROUP - 1)  # the same hand, live in another group
    async with page_server(harness) as base:
        status, said = await post(base, "api/round", {"init_data": data,
                                                      "round": f"{GROUP}_0_{ended.id}"})
    assert status == 410 and "after" not in said


async def test_a_hand_that_needs_nothing_in_particular_has_no_line(harness: Harness,
                                                                   clock: Clock):
    ended, data = await over(harness, clock, (1, 2, 3, 4))
    async with page_server(harness) as base:
        status, said = await post(base, "api/round", {"init_data": data,
                                                      "round": f"{GROUP}_0_{ended.id}"})
    assert status == 410 and "after" not in said


async def test_one_who_left_hears_nothing_of_it(harness: Harness, clock: Clock):
    ended, _ = await over(harness, clock)
    await harness.telegram.add_bot(GROUP, ANN, status="administrator")
    await harness.telegram.member_changes(GROUP, EVE, "left")
    await handle_queued(harness)
    eves = signed_for(EVE, ended, harness.telegram.token)
    async with page_server(harness) as base:
        status, said = await post(base, "api/round", {"init_data": eves,
                                                      "round": f"{GROUP}_0_{ended.id}"})
    assert status == 403 and "after" not in said


async def test_the_line_comes_through_the_page_s_own_process(harness: Harness):
    """`python -m bot` with the Mini App serves the page from a process of its own, which
    relays each request to the bot: the line under a refusal comes back with it. (The page's
    process checks the signature by the real time, so the bot's is real here too.)"""
    import time

    import httpx

    from tests.bot.webapp.test_page_process import apart
    from tests.bot.webapp.test_page_process import post as post_apart

    ended, data = await over(harness, time.time)
    async with apart(harness) as base, httpx.AsyncClient(timeout=30) as client:
        said = await post_apart(client, base, "api/round",
                                {"init_data": data, "round": f"{GROUP}_0_{ended.id}"})
    assert (said.status_code, said.json().get("after")) == (410, LINE), said.json()
