"""A creator's /forget leaves their groups playing (issue 70), on each backend: the person who
made a tournament (and joined their own group to it) is forgotten before it starts; the
tournament and every group in it stay, their links to the person dropped, and each group is
dealt every round in nobody's name — while the person's erasure still runs (their name hidden
at once) as after it (their row gone). Each group's deals once went in the name of who joined
it or made the tournament, and with neither left the group was skipped, round after round,
without a word."""

from __future__ import annotations

import asyncio

import pytest

from bot.play.outcomes import Said
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock, FakeScheduler
from tests.bot.play.tournaments.test_service import (
    ANN,
    BEN,
    BLUE,
    CY,
    PAUSE,
    RED,
    Publisher,
    build,
    deals,
    look,
    made,
    started,
)


@pytest.fixture
def publisher() -> Publisher:
    return Publisher()


@pytest.fixture
def wired(stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher
          ) -> tuple[Services, FakeScheduler]:
    return build(stores, pool, clock, publisher)


async def forgotten(services: Services, stores: Stores, monkeypatch: pytest.MonkeyPatch,
                    erased: bool) -> asyncio.Event:
    """Ann, who made the tournament in Red, has herself forgotten: her erasure run to its end,
    or held back (set the event returned to let it go on)."""
    held = asyncio.Event()
    if not erased:
        forget_user = stores.forgetting.forget_user

        async def held_back(user_id: int) -> None:
            await held.wait()
            await forget_user(user_id)

        monkeypatch.setattr(stores.forgetting, "forget_user", held_back)
    await services.community.privacy.forget(ANN.id)
    if erased:
        await services.community.privacy.erased()
    return held


@pytest.mark.parametrize("erased", [False, True], ids=["erasing", "erased"])
async def test_a_makers_forget_leaves_their_groups_playing(
        services: Services, stores: Stores, publisher: Publisher, clock: Clock,
        monkeypatch: pytest.MonkeyPatch, erased: bool):
    code = await made(services)
    held = await forgotten(services, stores, monkeypatch, erased)
    await started(services, clock)
    for number in (1, 2):
        red, blue = deals(publisher, RED), deals(publisher, BLUE)
        assert len(red) == len(blue) == number, "every group is dealt every round"
        assert red[-1].round.hand == blue[-1].round.hand
        assert red[-1].round.started_by is None  # in nobody's name: Ann's is off it
        assert f"round {number} of 3" in red[-1].text and "2 groups" in red[-1].text
        clock.now += 2
        hand = red[-1].round.hand
        await services.rounds.answer(RED, CY, solve(hand)[0], explicit=True)
        await services.rounds.answer(BLUE, BEN, solve(hand)[0], explicit=True)
        await look(services)
        assert any(f"round {number} of 3 is over in every group" in o.text
                   for o in publisher.to(RED) if isinstance(o, Said))
        clock.now += PAUSE
        await look(services)
    held.set()
    await services.community.privacy.erased()
    tournament = await stores.tournaments.by_code(code)
    assert tournament is not None and tournament.status == "running"
    assert tournament.created_by is None and tournament.chat_id == RED.id
    entrants = await stores.tournaments.entrants(tournament.id)
    assert sorted((e.chat_id, e.joined_by, e.playing) for e in entrants) == \
        [(BLUE.id, BEN.id, True), (RED.id, None, True)]
    assert await stores.people.user_name(ANN.id) is None
