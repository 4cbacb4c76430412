"""Who plays for which group of a tournament, on each backend: Telegram sends every group's
anonymous admins as one user (GroupAnonymousBot) and whoever writes as a channel as another
(Channel_Bot); each such sender plays for the group it writes in, so one group's anonymous
admins answering first takes nothing from another group's, and a win counts for the group it
was won in. A person still plays for the first group they answered in."""

from __future__ import annotations

import pytest

from bot.play.chats.people import Player
from bot.play.outcomes import Closed, Said
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock, FakeScheduler
from tests.bot.play.tournaments.test_service import (
    BLUE,
    CY,
    RED,
    Publisher,
    build,
    deals,
    look,
    made,
    started,
)

GROUP_ADMIN = Player(1087968824, "Group")  # GroupAnonymousBot: every group's anonymous admins
CHANNEL = Player(136817688, "Channel")  # Channel_Bot: whoever writes as a channel


@pytest.fixture
def publisher() -> Publisher:
    return Publisher()


@pytest.fixture
def wired(stores: Stores, pool: SolverPool, clock: Clock, publisher: Publisher
          ) -> tuple[Services, FakeScheduler]:
    """The services as test_service builds them: sending, a second's pause, a fast deal."""
    return build(stores, pool, clock, publisher)


async def test_each_groups_anonymous_admins_play_for_their_own_group(
        services: Services, publisher: Publisher, clock: Clock):
    await made(services)
    await started(services, clock)
    right = solve(deals(publisher, RED)[0].round.hand)[0]
    for speaker in (GROUP_ADMIN, CHANNEL, CY):  # each answers in Blue first
        assert not isinstance(await services.rounds.answer(BLUE, speaker, "1+1", explicit=True),
                              Said)
    refused = await services.rounds.answer(RED, CY, right, explicit=True)  # a person: bound
    assert isinstance(refused, Said) and "you play this tournament for Blue" in refused.text
    clock.now += 2
    won = await services.rounds.answer(RED, GROUP_ADMIN, right, explicit=True)
    assert isinstance(won, Closed), won  # Red's anonymous admins are Red's
    assert "<b>Group</b> solves it in 2.0 s" in won.text
    clock.now += 1
    won = await services.rounds.answer(BLUE, GROUP_ADMIN, right, explicit=True)
    assert isinstance(won, Closed), won  # and Blue's are Blue's, after Red's won
    await look(services)
    standings = await services.tournaments.store.players(1, 5)
    assert sorted((p.user_id, p.chat_id, p.wins) for p in standings) == \
        sorted([(GROUP_ADMIN.id, RED.id, 1), (GROUP_ADMIN.id, BLUE.id, 1)])


async def test_a_channel_writing_in_two_groups_is_refused_in_neither(
        services: Services, publisher: Publisher, clock: Clock):
    """Channel_Bot is every channel's: a win as a channel in Red does not bind it to Red."""
    await made(services)
    await started(services, clock)
    right = solve(deals(publisher, RED)[0].round.hand)[0]
    for group in (RED, BLUE):
        won = await services.rounds.answer(group, CHANNEL, right, explicit=True)
        assert isinstance(won, Closed), won
