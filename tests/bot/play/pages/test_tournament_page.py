"""A tournament's page without Telegram, on each backend: a round still played in some group
counts in none of its standings — not the best players, not the groups' points — until it closed
in every group (one group's win there would tell the others who won it, and how fast); the link
the bot shows opens the page with its key; who may see it without the key (bot.webapp's
`concerned` asks Telegram about the chats named here)."""

from __future__ import annotations

import pytest

from bot.play.chats.people import Chat
from bot.play.pages import PageAsk, read_page
from bot.play.pages.tournament import ASKED
from bot.play.ports import PageLink
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from solver import solve
from tests.bot.conftest import Clock, FakeScheduler, new_services, ring_due
from tests.bot.play.tournaments.test_service import (
    ANN,
    BEN,
    BLUE,
    CY,
    PAUSE,
    RED,
    Publisher,
    admin,
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
    """The services as test_service builds them, with a page opener that shows the page's
    start parameter as its link."""
    return new_services(stores, pool, clock, seed=1, publisher=publisher, seconds={"24": 60},
                        deal_rate=1000.0, tournament_pause=PAUSE,
                        page_links=lambda ask, chat_id: PageLink(ask.param, web_app=False))


async def standings(services: Services) -> tuple[list, list]:
    """The page's best players (name, group) and its groups' points, as the page shows them."""
    texts = await services.people.texts(RED, ANN)
    page = await services.pages.tournament(1, texts)
    assert page is not None
    sections = {section["kind"]: section for section in page["sections"]}
    return ([(row["name"], row["detail"]) for row in sections["players"]["rows"]],
            [(row["name"], row["value"]) for row in sections["groups"]["rows"]])


async def test_a_live_rounds_wins_count_in_no_standing_until_every_group_closed_it(
        services: Services, scheduler: FakeScheduler, publisher: Publisher, clock: Clock):
    await made(services)
    await started(services, clock)
    first = deals(publisher, RED)[0].round
    clock.now += 4
    await services.rounds.answer(RED, ANN, solve(first.hand)[0], explicit=True)
    players, groups = await standings(services)
    assert players == [] and [points for _, points in groups] == ["0 points", "0 points"]
    assert await services.tournaments.store.players(1, 5) == []  # the board's too
    clock.now += 60
    await ring_due(services, scheduler)  # Blue's round runs out: round 1 is over everywhere
    await look(services)
    players, groups = await standings(services)
    assert players == [("Ann", "Red")]
    assert groups == [("Red", f"{first.points} points"), ("Blue", "0 points")]
    clock.now += PAUSE
    await look(services)  # round 2: Ben wins it in Blue, while Red still plays it
    second = deals(publisher, BLUE)[-1].round
    assert second.id != first.id
    await services.rounds.answer(BLUE, BEN, solve(second.hand)[0], explicit=True)
    players, groups = await standings(services)
    assert players == [("Ann", "Red")], "round 2 counts nowhere yet"
    assert groups == [("Red", f"{first.points} points"), ("Blue", "0 points")]


async def test_the_bots_link_carries_the_key_and_who_else_may_see_the_page(
        services: Services, publisher: Publisher, clock: Clock):
    code = await made(services)
    link = await services.pages.tournament_link(1, RED.id)
    assert link is not None and link.url == f"t1_{code}"
    assert read_page(link.url) == PageAsk("tournament", 1, key=code)
    pages = services.pages
    keyed = await pages.tournament_readers(PageAsk("tournament", 1, key=code), 99)
    assert keyed is not None and keyed.anyone
    stranger = await pages.tournament_readers(PageAsk("tournament", 1, key="ZZZZZZ"), 99)
    assert stranger is not None and not stranger.anyone
    joined = tuple(e.chat_id for e in await services.tournaments.store.entrants(1))
    assert joined == (BLUE.id, RED.id)  # joined in the same second: by id
    assert stranger.chats == joined, "Telegram is asked about its groups"
    followed = await services.tournaments.follow(Chat(CY.id, "private"), CY, code, admin)
    assert "follows" in followed.text
    follower = await pages.tournament_readers(PageAsk("tournament", 1), CY.id)
    assert follower is not None and follower.anyone, "her own private chat follows it"
    assert await pages.tournament_readers(PageAsk("tournament", 9), 99) is None
    await started(services, clock)
    await services.rounds.answer(RED, ANN, "1+1", explicit=True)  # Ann plays for Red
    ann = await pages.tournament_readers(PageAsk("tournament", 1), ANN.id)
    assert ann is not None and ann.chats == (RED.id, BLUE.id), "her group is asked first"


async def test_telegram_is_asked_about_a_bounded_number_of_its_chats(services: Services):
    groups = tuple(Chat(-200 - n, "supergroup", f"G{n}") for n in range(ASKED + 5))
    await made(services, groups=groups)
    readers = await services.pages.tournament_readers(PageAsk("tournament", 1), 99)
    assert readers is not None and not readers.anyone
    joined = [e.chat_id for e in await services.tournaments.store.entrants(1)]
    assert len(joined) == ASKED + 5 and readers.chats == tuple(joined[:ASKED])
