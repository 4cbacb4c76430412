"""A result said late, after a restart, carries the achievements the round earned, as the result
said on time does, through the real Application on both backends: whether the stop came before
the close's check (the late close checks it) or after it (the line is the stored facts), and
said again after a second restart, with the same line, each achievement once; and a round that
ran out while the bot was down (through the services, as the start resumes them)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.services import Services
from bot.runtime.config import Config
from bot.runtime.pool import SolverPool
from bot.store.stores import Stores
from demo.emulator import BotApiEmulator
from solver import solve
from tests.bot.conftest import Clock, Harness, make_config, new_services, opened_outside, running
from tests.postgres import BACKENDS, emptied

GROUP = -4848
ZOE = {"id": 81, "is_bot": False, "first_name": "Zoe", "language_code": "en"}
MAX = {"id": 82, "is_bot": False, "first_name": "Max", "language_code": "en"}
LATE = "Sent after a restart"
LINE = "🏅 Zoe earned: First win"


@pytest.fixture(params=BACKENDS)
async def config(request: pytest.FixtureRequest, telegram: BotApiEmulator,
                 tmp_path: Path) -> Config:
    """The bot's configuration on SQLite, or on PostgreSQL (the session's server, emptied)."""
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        await emptied(url)
        config = dataclasses.replace(config, database_url=url)
    return config


@asynccontextmanager
async def started(telegram: BotApiEmulator, pool: SolverPool, config: Config
                  ) -> AsyncIterator[tuple[Harness, list[str]]]:
    """The bot started again over the same database; what it said in the group at start-up
    (the results it owed, sent before `running` returns)."""
    sent = len(telegram.sent)
    async with running(telegram, pool, config) as h:
        yield h, [s.text for s in telegram.sent[sent:] if s.chat_id == GROUP]


async def dealt(h: Harness) -> tuple[int, str]:
    """Zoe deals a round of 24 in the group and Max answers it wrong: its id, and a right
    answer."""
    await h.send(GROUP, ZOE, "/play")
    await h.telegram.reply(GROUP)
    current = h.services.rounds.open_round(GROUP)
    assert current is not None
    await h.send(GROUP, MAX, "/a 1+2")
    return current.id, solve(current.hand)[0]


async def unsent(h: Harness) -> None:
    """As if the bot had stopped before Telegram took the result: owed again."""
    await h.stores.rounds.db.run(  # type: ignore[attr-defined]
        "UPDATE rounds SET announced = 0 WHERE status <> 'open'")


def medals(text: str) -> list[str]:
    """A result's achievement lines."""
    return [line for line in text.splitlines() if line.startswith("🏅")]


async def earned(h: Harness) -> list[tuple[str, int | None]]:
    return [(row.code, row.round_id) for row in await h.stores.achievements.earned(ZOE["id"])]


async def test_a_stop_before_the_check_is_checked_late(
        config: Config, telegram: BotApiEmulator, pool: SolverPool):
    """Zoe's right answer was stored, then the bot stopped before closing the round (so before
    its check): the start closes it in her favour, awards, and its late result says so; said
    again after a second restart, the line is the same, once."""
    async with running(telegram, pool, config) as h:
        round_id, answer = await dealt(h)
        current = h.services.rounds.open_round(GROUP)
        assert current is not None  # Zoe's answer, 10 s in: not a quick draw
        await h.stores.rounds.record_answer(round_id, ZOE["id"], answer, True,
                                            current.started_at + 10)
        assert await earned(h) == []
    async with started(telegram, pool, config) as (h, said):
        [late] = said
        assert LATE in late and "Zoe wins" in late and LINE in medals(late)
        assert late.index("Zoe wins") < late.index(LINE)  # under the result's head
        awarded = await earned(h)  # First win, and what else the dealt hand's level gives
        assert all(at == round_id for _, at in awarded)
        assert len(medals(late)) == len(set(medals(late))) == len(awarded)
        await unsent(h)
    async with started(telegram, pool, config) as (h, said):
        assert said == [late]
        assert await earned(h) == awarded


async def test_a_stop_after_the_check_says_what_it_awarded(
        config: Config, telegram: BotApiEmulator, pool: SolverPool):
    """The round closed and its check awarded First win, then the bot stopped before the
    result reached the chat: the late result says the award the check stored."""
    async with running(telegram, pool, config) as h:
        round_id, answer = await dealt(h)
        await h.send(GROUP, ZOE, f"/a {answer}")
        [on_time] = [s.text for s in telegram.sent if s.chat_id == GROUP and "🏅" in s.text]
        assert LINE in on_time
        awarded = await earned(h)
        assert ("first_win", round_id) in awarded
        await unsent(h)
    async with started(telegram, pool, config) as (h, said):
        [late] = said
        assert LATE in late and medals(late) == medals(on_time)
        assert await earned(h) == awarded
        await unsent(h)
    async with started(telegram, pool, config) as (h, said):
        assert said == [late]


async def test_a_round_that_ran_out_while_down_says_its_achievements(
        services: Services, stores: Stores, pool: SolverPool, clock: Clock):
    """A round of Countdown whose time ran out while the bot was down: the start closes it,
    the closest answer wins it, and its late result says what that earned."""
    group = Chat(-4849, "group", "G")
    ann, ben = Player(1, "Ann", language_code="en"), Player(2, "Ben", language_code="en")
    await stores.people.remember_chat(group.id, group.type, group.title)
    await services.people.remember(group, ann)
    record = await stores.rounds.open_round(group.id, "countdown", (1, 3, 7, 10, 25, 50), 831,
                                            "", 10, "en", clock(), clock() + 60)
    assert record is not None
    await opened_outside(services, record)
    await services.rounds.answer(group, ben, "1+3", explicit=True)
    await services.rounds.answer(group, ann, "10*(3*25+1+7)", explicit=True)  # 830: 1 away
    clock.now += 120  # the bot stopped, and stayed down past the round's end
    again, _ = new_services(stores, pool, clock, seed=2)
    [late] = await again.recovery.resume()
    assert "Time is up" in late.text and "<b>Ann</b> was closest" in late.text
    assert medals(late.text) == ["🏅 Ann earned: First win"]
    assert late.text.index("was closest") < late.text.index("🏅") < late.text.index("closest is")
