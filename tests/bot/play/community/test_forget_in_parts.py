"""/forget is answered before the person's rows go (issue 71, item 4), on both backends: the
confirmation notes the forget and returns while the erasure still waits; from that moment no
board, /stats, daily board, rating board, round result or page shows anything of the person;
the erasure's progress is the note in the database, so a process stopped mid-erasure leaves it
to the next start, which finishes it. (The confirmation once waited for every row of a year's
history to go: 341 ms at the median on a year-old SQLite file.)"""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.community import privacy as privacy_module
from bot.play.community.boards import BoardAsk
from bot.play.daily.puzzle import day_of
from bot.play.outcomes import Closed, Dealt
from bot.play.services import Services
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from bot.text.i18n import texts_for
from solver import solve
from tests.bot.conftest import Clock, new_services

GROUP = Chat(-3101, "group", "Group")
ZED = Player(3101, "Zedekiah", language_code="en")
BEN = Player(3102, "Ben", language_code="en")
NAME = ZED.first_name
BOARDS = (BoardAsk("all"), BoardAsk("all", everywhere=True), BoardAsk("week"),
          BoardAsk("week", everywhere=True), BoardAsk("rating"),
          BoardAsk("rating", everywhere=True))


async def won(services: Services, clock: Clock, winner: Player, loser: Player) -> int:
    """A round of 24 in the group, answered wrong by `loser`, won by `winner`: its id."""
    dealt = await services.rounds.play(GROUP, winner, "24")
    assert isinstance(dealt, Dealt)
    clock.now += 3
    await services.rounds.answer(GROUP, loser, "1+1", explicit=True)
    closed = await services.rounds.answer(GROUP, winner, solve(list(dealt.round.hand))[0],
                                          explicit=True)
    assert isinstance(closed, Closed)
    clock.now += 3
    return dealt.round.id


async def a_life(services: Services, clock: Clock) -> list[int]:
    """Zed wins and loses in the group (rated rounds), and solves the day's puzzle."""
    rounds = [await won(services, clock, ZED, BEN), await won(services, clock, BEN, ZED),
              await won(services, clock, ZED, BEN)]
    daily = services.community.daily
    hand = daily.hand_of(day_of(clock()))
    await daily.answer(Chat(ZED.id, "private"), ZED, solve(list(hand))[0])
    return rounds


async def shown(services: Services) -> str:
    """Everything the others are shown: every board, the daily board, the group's page."""
    community = services.community
    said = [await community.standings.board(GROUP, BEN, ask) for ask in BOARDS]
    said.append(await community.daily.board(GROUP, BEN))
    said.append(json.dumps(await services.pages.group(GROUP.id, texts_for("en"))))
    return "\n".join(said)


async def test_the_answer_comes_first_and_nothing_of_the_person_is_shown_meanwhile(
        stores: Stores, pool: SolverPool, monkeypatch: pytest.MonkeyPatch):
    clock = Clock(1_900_000_000.0)
    services, _ = new_services(stores, pool, clock)
    rounds = await a_life(services, clock)
    assert NAME in await shown(services)  # the checks see the person while they are shown
    held, erase = asyncio.Event(), stores.forgetting.forget_user

    async def held_back(user_id: int) -> None:  # the process stops before its rows go
        await held.wait()
        await erase(user_id)

    monkeypatch.setattr(stores.forgetting, "forget_user", held_back)
    async with asyncio.timeout(10):  # answered while the erasure waits
        await services.community.privacy.forget(ZED.id)

    assert NAME not in await shown(services)
    assert await stores.forgetting.unfinished_forgets() == [ZED.id]  # its progress, stored
    assert await stores.scores.stats(GROUP.id, ZED.id) == []  # /stats: nothing of theirs
    assert await stores.ratings.player_ratings(ZED.id, "24") == []
    assert [await stores.rounds.winner_name(r) for r in rounds] == [None, "Ben", None]
    nobody = await services.pages.player(0, NAME, texts_for("en"))
    assert await services.pages.player(ZED.id, NAME, texts_for("en")) == nobody
    assert await services.pages.season_card(ZED.id, NAME, "24", texts_for("en")) is None
    assert await stores.pages.game_totals(ZED.id) != []  # the rows are still there

    monkeypatch.undo()  # a start after the stop: its housekeeping's first run finishes it
    again, _ = new_services(stores, pool, clock)
    await again.community.retention.expire()
    assert await stores.forgetting.unfinished_forgets() == []
    assert await stores.pages.game_totals(ZED.id) == []
    assert await stores.daily.daily_days(ZED.id, "24") == []
    assert await stores.rounds.answerers(rounds[1]) == [BEN.id]
    assert NAME not in await shown(again)
    assert "Ben" in await shown(again)
    held.set()  # the stopped process's erasure, let go, finds nothing left
    await services.community.privacy.erased()
    assert await stores.forgetting.unfinished_forgets() == []


async def test_an_erasure_tried_again_says_one_line_and_its_last_try_the_traceback(
        stores: Stores, pool: SolverPool, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture):
    """A try that fails and is tried again (the database locked past its busy timeout on a
    loaded machine) is one line, no traceback (the demo's stderr must stay clean of them);
    only the last try's failure, left to the housekeeping, carries its traceback."""
    clock = Clock(1_900_000_000.0)
    services, _ = new_services(stores, pool, clock)
    await a_life(services, clock)
    erase, failures = stores.forgetting.forget_user, [2]

    async def locked_twice(user_id: int) -> None:
        if failures[0]:
            failures[0] -= 1
            raise RuntimeError("database is locked")
        await erase(user_id)

    monkeypatch.setattr(privacy_module, "ERASE_PAUSE", 0.0)
    monkeypatch.setattr(privacy_module, "ERASE_TRIES", 2)
    monkeypatch.setattr(stores.forgetting, "forget_user", locked_twice)
    await services.community.privacy.forget(ZED.id)
    await services.community.privacy.erased()
    said = [record for record in caplog.records if "an erasure stopped" in record.getMessage()]
    assert [bool(record.exc_info) for record in said] == [False, True]
    assert "database is locked" in said[0].getMessage() and "trying again" in said[0].getMessage()
    assert await stores.forgetting.unfinished_forgets() == [ZED.id]  # the housekeeping's
