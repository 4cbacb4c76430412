"""A group is in one tournament not over at a time, and the database holds it (schema step 27),
on each backend: two /tournament join, or a join beside a /tournament new, that both passed the
service's own look before either wrote (held there until both had) leave the group in exactly one,
and the other caller hears the refusal the look gives; likewise two bot processes on one
PostgreSQL database, each with its own connections. A tournament's end frees its groups."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.services import Services
from bot.play.tournaments.rules import TournamentRequest
from bot.play.tournaments.service import Announced
from bot.runtime.pool import SolverPool
from bot.store.postgres import open_postgres
from bot.store.stores import Stores
from tests.bot.conftest import Clock, new_services
from tests.bot.play.tournaments.test_service import ANN, BEN, BLUE, RED, admin
from tests.postgres import emptied

GREEN = Chat(-103, "group", "Green")
CY = Player(3, "Cy", language_code="en")


def held_at_the_write(services: Services, barrier: asyncio.Barrier) -> None:
    """The service's join waits, just before the store writes it, until every caller sharing
    `barrier` is there: each has passed the look for a tournament the group is in already."""
    store = services.tournaments.store
    join = store.join

    async def together(*args: object, **kwargs: object) -> str:
        await barrier.wait()
        return await join(*args, **kwargs)  # type: ignore[arg-type]

    store.join = together  # type: ignore[method-assign]


async def two_open(services: Services) -> tuple[str, str]:
    """Red's Cup and Blue's Open, both taking groups; their codes."""
    cup = await services.tournaments.new(RED, ANN, TournamentRequest(name="Cup"), admin)
    other = await services.tournaments.new(BLUE, BEN, TournamentRequest(name="Open"), admin)
    assert cup.code is not None and other.code is not None
    return cup.code, other.code


async def green_in(stores: Stores) -> list[tuple[int, int]]:
    """(tournament, ongoing) of every place of Green's."""
    db = stores.tournaments.db  # type: ignore[attr-defined]
    return [(t, int(on)) for t, on in await db.fetch(
        f"SELECT tournament_id, ongoing FROM tournament_groups WHERE chat_id = {GREEN.id} "
        "ORDER BY tournament_id")]


def one_in_one_refused(said: list[Announced]) -> tuple[Announced, Announced]:
    """The one that went in (made or joined: it has its code) and the one refused as the look
    refuses (no code)."""
    [refused] = [s for s in said if "already (code" in s.text]
    [went_in] = [s for s in said if s is not refused]
    assert "one tournament at a time" in refused.text and refused.code is None, refused
    assert went_in.code is not None, went_in
    return went_in, refused


async def test_two_joins_at_once_leave_the_group_in_one(services: Services, stores: Stores):
    cup, other = await two_open(services)
    held_at_the_write(services, asyncio.Barrier(2))
    said = await asyncio.gather(*(services.tournaments.join(GREEN, CY, code, admin)
                                  for code in (cup, other)))
    joined, _ = one_in_one_refused(said)
    places = await green_in(stores)
    assert len(places) == 1 and places[0][1] == 1
    assert joined.tournament_id == places[0][0]
    assert (await stores.tournaments.of_chat(GREEN.id)).id == places[0][0]  # type: ignore


async def test_a_new_beside_a_join_leaves_one_and_no_trace_of_the_other(
        services: Services, stores: Stores):
    cup, _ = await two_open(services)
    held_at_the_write(services, asyncio.Barrier(2))
    made, joined = await asyncio.gather(
        services.tournaments.new(GREEN, CY, TournamentRequest(name="Own"), admin),
        services.tournaments.join(GREEN, CY, cup, admin))
    one_in_one_refused([made, joined])
    [(kept, ongoing)] = await green_in(stores)
    assert ongoing == 1
    db = stores.tournaments.db  # type: ignore[attr-defined]
    names = [name for (name,) in await db.fetch("SELECT name FROM tournaments ORDER BY id")]
    assert names in (["Cup", "Open"], ["Cup", "Open", "Own"])
    assert ("Own" in names) == (made.code is not None), "a tournament lost is not left behind"
    assert kept == (3 if made.code is not None else 1)


async def test_joins_from_two_processes_on_one_database(postgres_url: str, pool: SolverPool):
    """Two bots' services, each over its own pool of connections to one PostgreSQL database,
    join the same group to two tournaments at the same moment."""
    await emptied(postgres_url)
    opened = [await open_postgres(postgres_url) for _ in range(2)]
    try:
        clock = Clock()
        first, second = (new_services(stores, pool, clock, seed=n)[0]
                         for n, stores in enumerate(opened))
        cup, other = await two_open(first)
        barrier = asyncio.Barrier(2)
        for services in (first, second):
            held_at_the_write(services, barrier)
        said = await asyncio.gather(first.tournaments.join(GREEN, CY, cup, admin),
                                    second.tournaments.join(GREEN, CY, other, admin))
        one_in_one_refused(said)
        places = await green_in(opened[1])
        assert len(places) == 1 and places[0][1] == 1
    finally:
        for stores in opened:
            await stores.close()


async def test_a_tournament_s_end_frees_its_groups(services: Services, stores: Stores):
    cup, other = await two_open(services)
    assert "joined" in (await services.tournaments.join(GREEN, CY, cup, admin)).text
    refused = await services.tournaments.join(GREEN, CY, other, admin)
    assert "one tournament at a time" in refused.text
    assert "called off" in (await services.tournaments.cancel(RED, ANN, admin)).text
    assert "joined" in (await services.tournaments.join(GREEN, CY, other, admin)).text
    assert await green_in(stores) == [(1, 0), (2, 1)]


@pytest.mark.parametrize("verb", ["join", "new"])
async def test_the_database_refuses_what_the_look_missed(services: Services, stores: Stores,
                                                         verb: str):
    """Where the look finds nothing (as when another's write is not visible to it yet), the
    database still refuses: the caller hears the same refusal."""
    cup, other = await two_open(services)
    assert "joined" in (await services.tournaments.join(GREEN, CY, cup, admin)).text
    look = services.tournaments.store.of_chat
    looked: list[int] = []

    async def blind(chat_id: int) -> object:
        looked.append(chat_id)
        return None if len(looked) == 1 else await look(chat_id)

    services.tournaments.store.of_chat = blind  # type: ignore[method-assign,assignment]
    ask: Callable[[], Awaitable[Announced]] = (
        (lambda: services.tournaments.join(GREEN, CY, other, admin)) if verb == "join" else
        (lambda: services.tournaments.new(GREEN, CY, TournamentRequest(name="Own"), admin)))
    said = await ask()
    assert said.code is None and "already" in said.text and "<b>Cup</b>" in said.text
    assert await green_in(stores) == [(1, 1)]
    db = stores.tournaments.db  # type: ignore[attr-defined]
    assert [n for (n,) in await db.fetch("SELECT name FROM tournaments")] == ["Cup", "Open"]
