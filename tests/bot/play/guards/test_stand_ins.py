"""Telegram's stand-ins for a chat (bot/play/guards/stand_ins.py) are one person a chat for every
limit kept per person, never one across chats: every group's anonymous admins come as one account
(GroupAnonymousBot), so counted as one, three groups' anonymous admins with a round open each
would keep every other group's from /play, their solver time would be every group's, and one
group's rare deal in the making would refuse another's. Within its own chat each limit still
holds. On each backend where a store counts (PostgreSQL counting a starter's open rounds itself,
as a cluster's workers do)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.play.asking.requests import SolveRequest
from bot.play.chats.people import Chat, Player
from bot.play.games import PART_GAMES
from bot.play.outcomes import Dealt, Said
from bot.play.round.dealing import ROUNDS_PER_PLAYER
from bot.play.rules import PlayOptions
from bot.play.rules.batches import deal_slice
from bot.play.services import Services
from bot.play.solving.solving import Solving
from bot.play.tournaments.rules import TournamentRequest
from bot.runtime.pool import SolverPool
from bot.store.postgres.live_rounds import shared_rounds
from bot.store.stores import Stores
from bot.text.i18n import Texts
from tests.bot.conftest import Clock, FakePublisher, new_services

EN = Texts("en")
GROUP_ADMIN = Player(1087968824, "Group")  # GroupAnonymousBot: every group's anonymous admins
CHANNEL = Player(136817688, "Channel")  # Channel_Bot: whoever writes as a channel
ANN = Player(1, "Ann", language_code="en")
GROUPS = [Chat(-1_000_000_000_200 - n, "supergroup", f"G{n}") for n in range(5)]
TOO_MANY = EN("play_too_many_rounds", most=ROUNDS_PER_PLAYER)


@pytest.fixture
def bound_by_the_store(stores: Stores, pool: SolverPool, clock: Clock, backend: str
                       ) -> Services:
    """The services, counting a starter's open rounds where the store does: on PostgreSQL the
    database's count under the starter's lock (a cluster's workers'), on SQLite the table's."""
    open_rounds = shared_rounds(stores, PART_GAMES) if backend == "postgres" else None
    return new_services(stores, pool, clock, open_rounds=open_rounds)[0]


async def test_each_groups_anonymous_admins_have_their_own_open_rounds(
        bound_by_the_store: Services):
    services = bound_by_the_store
    for group in GROUPS[:4]:  # a round open in each of three groups does not keep the fourth
        assert isinstance(await services.rounds.play(group, GROUP_ADMIN, "24"), Dealt), group
    first = GROUPS[0]
    for topic in (11, 12):  # in their own group, the bound holds: three at most
        assert isinstance(await services.rounds.play(Chat(first.id, first.type, first.title,
                                                          topic), GROUP_ADMIN, "24"), Dealt)
    assert await services.rounds.play(Chat(first.id, first.type, first.title, 13), GROUP_ADMIN,
                                      "24") == Said(TOO_MANY)
    # every stand-in writing in a group counts as that group: a channel writing there too
    assert await services.rounds.play(Chat(first.id, first.type, first.title, 14), CHANNEL,
                                      "24") == Said(TOO_MANY)
    assert isinstance(await services.rounds.play(GROUPS[4], CHANNEL, "24"), Dealt)


async def test_a_person_is_still_one_across_chats(bound_by_the_store: Services):
    services = bound_by_the_store
    for group in GROUPS[:ROUNDS_PER_PLAYER]:
        assert isinstance(await services.rounds.play(group, ANN, "24"), Dealt)
    assert await services.rounds.play(GROUPS[3], ANN, "24") == Said(TOO_MANY)


async def admin() -> bool:
    return True


async def test_tournament_rounds_dealt_for_anonymous_admins_keep_no_other_group_from_play(
        services: Services, clock: Clock):
    """Three groups joined a tournament by their anonymous admins: while its round is live,
    each group's round is dealt in the name of who joined, the shared account. Another group's
    anonymous admins still /play."""
    made = await services.tournaments.new(GROUPS[0], GROUP_ADMIN, TournamentRequest(
        name="Cup", rounds=2, seconds=60, starts_in=60), admin)
    assert made.code is not None, made.text
    for group in GROUPS[1:3]:
        joined = await services.tournaments.join(group, GROUP_ADMIN, made.code, admin)
        assert "joined" in joined.text, joined.text
    clock.now += 61
    await services.tournaments.tick()
    await services.tournaments.settled()
    assert all(services.rounds.open_round(group.id) is not None for group in GROUPS[:3])
    assert isinstance(await services.rounds.play(GROUPS[3], GROUP_ADMIN, "24"), Dealt)


async def test_solver_time_is_each_groups_own(pool: SolverPool):
    """/solve reserves its time limit (10 s) from the asker's allowance (20 s) while it runs:
    a third at once is refused in one group, and three at once in three groups are not."""
    solving = Solving(pool, 10.0)
    hands = iter([(1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6), (1, 3, 4, 6), (2, 2, 3, 5),
                  (1, 5, 5, 5)])

    async def solve(group: Chat) -> str:
        return await solving.solve(SolveRequest(next(hands), 24), EN, (GROUP_ADMIN.id, group.id))

    busy = EN("busy", seconds=0).split("0")[0]  # "Busy: ... Try again in", whatever the wait
    apart = await asyncio.gather(*(solve(group) for group in GROUPS[:3]))
    assert not any(busy in said for said in apart), apart
    together = await asyncio.gather(*(solve(GROUPS[3]) for _ in range(3)))
    assert [busy in said for said in together] == [False, False, True], together


class HeldDeals:
    """The solver pool, with the slices of rare deals held until `go` is set (the deal in the
    making meanwhile); `entered` once one waits, and whose turn each was asked in."""

    def __init__(self, pool: SolverPool) -> None:
        self.pool = pool
        self.go, self.entered = asyncio.Event(), asyncio.Event()
        self.turns: list[object] = []

    async def run_heavy(self, fn: Callable[..., Any], *args: Any, **options: Any) -> Any:
        if fn is deal_slice:
            self.turns.append(options.get("who"))
            self.entered.set()
            await self.go.wait()
        return await self.pool.run_heavy(fn, *args, **options)


async def test_a_rare_deal_in_the_making_is_one_groups(stores: Stores, pool: SolverPool,
                                                       clock: Clock):
    """A rare deal (five numbers) waits for its hand: the same group's anonymous admins are
    told theirs is in the making, another group's get their own."""
    held = HeldDeals(pool)
    services = new_services(stores, held, clock,  # type: ignore[arg-type]
                            publisher=FakePublisher())[0]
    five = PlayOptions(count=5)
    first = asyncio.ensure_future(services.rounds.play(GROUPS[0], GROUP_ADMIN, "24", five))
    await asyncio.wait_for(held.entered.wait(), 30)
    second = asyncio.ensure_future(services.rounds.play(GROUPS[1], GROUP_ADMIN, "24", five))
    again = Chat(GROUPS[0].id, GROUPS[0].type, GROUPS[0].title, 7)
    assert await services.rounds.play(again, GROUP_ADMIN, "24", five) == \
        Said(EN("deal_in_the_making"))
    held.go.set()
    dealt = await asyncio.wait_for(asyncio.gather(first, second), 60)
    assert all(isinstance(outcome, Dealt) and len(outcome.round.hand) == 5
               for outcome in dealt), dealt
    assert held.turns[0] == GROUPS[0].id, "its work waits in the group's turn, not everyone's"


async def test_a_groups_anonymous_admins_take_their_groups_turn_in_the_heavy_lane(
        pool: SolverPool):
    """The heavy lane serves whoever was served least lately: a group's anonymous admins wait
    their own group's turn, never every group's anonymous admins' together."""
    turns: list[int | None] = []

    class Recorded:
        """The pool, recording whose turn each piece of heavy work takes."""

        async def run_heavy(self, fn: Callable[..., Any], *args: Any, **options: Any) -> Any:
            turns.append(options.get("who"))
            return await pool.run_heavy(fn, *args, **options)

    solving = Solving(Recorded(), 10.0)  # type: ignore[arg-type]
    await solving.solve(SolveRequest((1, 2, 3, 4), 24), EN, (GROUP_ADMIN.id, GROUPS[0].id))
    await solving.solve(SolveRequest((2, 3, 4, 5), 24), EN, (GROUP_ADMIN.id, GROUPS[1].id))
    await solving.solve(SolveRequest((3, 4, 5, 6), 24), EN, (42, GROUPS[1].id))
    assert turns == [GROUPS[0].id, GROUPS[1].id, 42]
