"""Fixtures for bot tests: a fake Bot API server, one solver pool, and the real Application."""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from telegram import Update
from telegram.ext import Application

from bot.play.rounds import Game
from bot.runtime.config import Config
from bot.runtime.pool import SolverPool
from bot.store.storage import Storage
from bot.telegram.app import build_application, on_startup
from tests.fake_telegram import FakeTelegram
from tests.fake_telegram import telegram as telegram


@pytest.fixture(scope="session")
def pool() -> Iterator[SolverPool]:
    shared = SolverPool(2)
    yield shared
    shared.shutdown()


class Harness:
    """The real Application wired to the fake server; `send` feeds an Update and waits for it."""

    def __init__(self, app: Application, telegram: FakeTelegram) -> None:
        self.app = app
        self.telegram = telegram
        self.ids = itertools.count(1)

    async def send(self, chat_id: int, user: dict, text: str, reply_to: int | None = None,
                   kind: str = "group") -> None:
        message = await self.telegram.say(chat_id, user, text, reply_to, kind)
        self.telegram.updates.clear()  # delivered directly, not through getUpdates
        update = Update.de_json({"update_id": next(self.ids), "message": message}, self.app.bot)
        await self.app.process_update(update)

    async def inline(self, user: dict, query: str):
        """An inline query; returns what the bot answered to it."""
        query_id = await self.telegram.inline_query(user, query)
        [update] = [u for u in self.telegram.updates if "inline_query" in u]
        self.telegram.updates.clear()
        await self.app.process_update(Update.de_json(
            {k: v for k, v in update.items() if not k.startswith("_")}, self.app.bot))
        return next(a for a in self.telegram.inline_answers if a.query_id == query_id)

    @property
    def game(self):
        return self.app.bot_data["game"]


def make_config(telegram: FakeTelegram, database: Path, round_seconds: float = 60.0) -> Config:
    return Config(token=telegram.token, base_url=telegram.base_url, database_path=database,
                  round_seconds=round_seconds, countdown_seconds=60.0, yahtzee_seconds=60.0,
                  solver_workers=1, rate_limit=False, solve_timeout=10.0)


@contextlib.asynccontextmanager
async def running(telegram: FakeTelegram, pool: SolverPool, config: Config
                  ) -> AsyncIterator[Harness]:
    """The real Application started as the bot starts it (rounds resumed), then stopped as on
    SIGTERM."""
    app = build_application(config)
    app.bot_data["pool"] = pool
    await app.initialize()
    await on_startup(app)
    await app.start()
    try:
        yield Harness(app, telegram)
    finally:
        await app.stop()
        await app.shutdown()
        await app.post_shutdown(app)  # type: ignore[misc]


@pytest.fixture
async def harness(telegram: FakeTelegram, pool: SolverPool, tmp_path: Path
                  ) -> AsyncIterator[Harness]:
    async with running(telegram, pool, make_config(telegram, tmp_path / "bot.sqlite3")) as h:
        yield h


class Clock:
    """A clock the test moves by hand (`clock.now += 120`)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def game(tmp_path: Path, pool: SolverPool) -> AsyncIterator[Game]:
    """The round service over a fresh database, without Telegram, on a hand-moved clock."""
    storage = await Storage.open(tmp_path / "g.sqlite3")
    yield Game(storage, pool, {"24": 60, "countdown": 60, "yahtzee": 60}, clock=Clock(),
               rng=random.Random(1))
    await storage.close()
