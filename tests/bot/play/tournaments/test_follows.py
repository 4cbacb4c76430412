"""Following a tournament, on each backend: a group follows as its admin asks (a private chat as
its person does), and unfollows the same way, one tournament or every one it follows; a
tournament takes so many following chats (TOURNAMENT_FOLLOWERS) and a chat follows so many not
over at once (MAX_FOLLOWED), even when the follows come at the same moment; each past-bound
follow, and an unfollow of what the chat does not follow, is refused politely."""

from __future__ import annotations

import asyncio

from bot.play.chats.people import Chat, Player
from bot.play.services import Services
from bot.play.tournaments.rules import MAX_FOLLOWED, TournamentRequest
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock, FakeScheduler, new_services
from tests.bot.play.tournaments.test_service import (
    ANN,
    BEN,
    BLUE,
    PAUSE,
    RED,
    Publisher,
    admin,
    deals,
    look,
    made,
    not_admin,
    started,
)
from tests.bot.play.tournaments.test_service import publisher as publisher
from tests.bot.play.tournaments.test_service import wired as wired

CHESS = Chat(-301, "supergroup", "Chess club")
EVE = Player(9, "Eve", language_code="en")
ME = Chat(EVE.id, "private")
MOST = 2  # the followers a tournament takes here


async def followers(services: Services, tournament_id: int = 1) -> list[int]:
    return [chat for chat, _ in await services.tournaments.store.followers(tournament_id)]


async def test_only_a_groups_admin_has_it_follow_or_unfollow(services: Services):
    code = await made(services)
    tournaments = services.tournaments
    refused = await tournaments.follow(CHESS, EVE, code, not_admin)
    assert "Only an admin of this group" in refused.text and "private chat" in refused.text
    assert await followers(services) == []
    assert "follows" in (await tournaments.follow(CHESS, ANN, code, admin)).text
    refused = await tournaments.unfollow(CHESS, EVE, code, not_admin)
    assert "Only an admin of this group" in refused.text
    assert await followers(services) == [CHESS.id]
    assert "follows" in (await tournaments.follow(ME, EVE, code, None)).text, "their own chat"
    assert await followers(services) == [CHESS.id, ME.id]


async def test_unfollow_stops_the_boards(services: Services, publisher: Publisher,
                                         clock: Clock):
    code = await made(services)
    tournaments = services.tournaments
    await tournaments.follow(ME, EVE, code, None)
    await tournaments.follow(CHESS, ANN, code, admin)
    said = await tournaments.unfollow(ME, EVE, code.lower(), None)
    assert said.text == "🔕 This chat no longer follows <b>Cup</b>."
    await started(services, clock)
    hand = deals(publisher, RED)[0].round.hand
    for chat, player in ((RED, ANN), (BLUE, BEN)):
        await services.rounds.answer(chat, player, solve(hand)[0], explicit=True)
    await look(services, clock)
    assert any("round 1 of 3 is over" in getattr(o, "text", "") for o in publisher.to(CHESS))
    assert publisher.to(ME) == [], "no board to a chat that unfollowed"


async def test_unfollow_of_what_the_chat_does_not_follow(services: Services):
    code = await made(services)
    tournaments = services.tournaments
    said = await tournaments.unfollow(ME, EVE, code, None)
    assert said.text == "This chat does not follow <b>Cup</b>."
    said = await tournaments.unfollow(ME, EVE, None, None)
    assert said.text.startswith("This chat follows no tournament.")
    assert "No tournament has the code" in (await tournaments.unfollow(ME, EVE, "ZZZZZZ",
                                                                       None)).text


async def test_unfollow_without_a_code_unfollows_every_one_and_names_them(services: Services):
    first = await made(services)
    other = await services.tournaments.new(CHESS, ANN, TournamentRequest(name="Open"), admin)
    assert other.code is not None
    for code in (first, other.code):
        await services.tournaments.follow(ME, EVE, code, None)
    said = await services.tournaments.unfollow(ME, EVE, None, None)
    assert said.text == "🔕 This chat no longer follows <b>Cup</b> and <b>Open</b>."
    assert await services.tournaments.store.followed(ME.id) == []


async def test_a_tournament_takes_so_many_followers(stores: Stores, pool: SolverPool,
                                                    clock: Clock):
    services, _ = build_with(stores, pool, clock)
    code = await made(services)
    chats = [Chat(-400 - n, "supergroup", f"Fans {n}") for n in range(MOST + 1)]
    for chat in chats[:MOST]:
        assert "follows" in (await services.tournaments.follow(chat, ANN, code, admin)).text
    refused = await services.tournaments.follow(chats[-1], ANN, code, admin)
    assert refused.text == ("<b>Cup</b> has as many following chats as it takes (2): this one "
                            "cannot follow it.")
    assert refused.tournament_id == 1, "its page, where there is one, shows it to anyone"
    assert await followers(services) == sorted(c.id for c in chats[:MOST])
    assert "follows" in (await services.tournaments.follow(chats[0], ANN, code, admin)).text
    await services.tournaments.unfollow(chats[0], ANN, code, admin)
    assert "follows" in (await services.tournaments.follow(chats[-1], ANN, code, admin)).text


async def test_follows_at_once_keep_the_bound(stores: Stores, pool: SolverPool, clock: Clock):
    """Many chats follow at the same moment, each past the look before any wrote: the
    tournament takes its bound, and the rest are refused."""
    services, _ = build_with(stores, pool, clock)
    code = await made(services)
    store = services.tournaments.store
    follow, barrier = store.follow, asyncio.Barrier(MOST + 3)

    async def together(*args: object) -> str:
        await barrier.wait()
        return await follow(*args)  # type: ignore[arg-type]

    store.follow = together  # type: ignore[method-assign]
    chats = [Chat(-500 - n, "supergroup", f"Fans {n}") for n in range(MOST + 3)]
    said = await asyncio.gather(*(services.tournaments.follow(c, ANN, code, admin)
                                  for c in chats))
    assert sum("follows <b>Cup</b>" in s.text for s in said) == MOST
    assert sum("as many following chats" in s.text for s in said) == 3
    assert len(await followers(services)) == MOST


async def test_a_chat_follows_so_many_tournaments_not_over(services: Services, clock: Clock):
    codes = []
    for n in range(MAX_FOLLOWED + 1):
        said = await services.tournaments.new(Chat(-600 - n, "supergroup", f"Host {n}"), ANN,
                                              TournamentRequest(name=f"Cup {n}"), admin)
        assert said.code is not None
        codes.append(said.code)
    for code in codes[:MAX_FOLLOWED]:
        assert "follows" in (await services.tournaments.follow(ME, EVE, code, None)).text
    refused = await services.tournaments.follow(ME, EVE, codes[-1], None)
    assert refused.text == (f"This chat follows as many tournaments as it can at once "
                            f"({MAX_FOLLOWED}): <code>/tournament unfollow CODE</code> stops "
                            "following one.")
    assert "called off" in (await services.tournaments.cancel(
        Chat(-600, "supergroup", "Host 0"), ANN, admin)).text  # one of them is over now
    assert "follows" in (await services.tournaments.follow(ME, EVE, codes[-1], None)).text
    assert len(await services.tournaments.store.followed(ME.id)) == MAX_FOLLOWED


def build_with(stores: Stores, pool: SolverPool, clock: Clock) -> tuple[Services, FakeScheduler]:
    """The services, with a tournament taking MOST following chats."""
    return new_services(stores, pool, clock, publisher=Publisher(), seconds={"24": 60},
                        deal_rate=1000.0, tournament_pause=PAUSE, tournament_followers=MOST)
