"""End-to-end fixtures: the fake Bot API server, and the real bot as a `python -m bot` process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from demo.emulator import BotApiEmulator
from tests.conftest import ROOT
from tests.fake_telegram import telegram as telegram

if TYPE_CHECKING:
    from tests.e2e.webapp_browser import Browser


class BotProcess:
    """`python -m bot` pointed at the fake server; start, kill and start again."""

    def __init__(self, telegram: BotApiEmulator, database: Path, round_seconds: float) -> None:
        self.env = {**os.environ, "TELEGRAM_BOT_TOKEN": telegram.token,
                    "TELEGRAM_BASE_URL": telegram.base_url, "DATABASE_PATH": str(database),
                    "ROUND_SECONDS": str(round_seconds), "SOLVER_WORKERS": "1",
                    "RATE_LIMIT": "off", "LOG_LEVEL": "INFO"}
        self.telegram = telegram
        self.process: asyncio.subprocess.Process | None = None
        self.database = database
        self.log = database.with_suffix(".log")

    async def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env=self.env,
                stdout=log, stderr=log, stdin=asyncio.subprocess.DEVNULL)
        # ready once this process has polled (its requests name it: bot.telegram.metered_request):
        # it polls only after its start-up has resumed what a kill left (a result owed is sent
        # by then); the menus are no sign of a start, as a restart sends none of them
        for _ in range(600):
            await asyncio.sleep(0.1)
            if any(r.method == "getUpdates" and r.pid == self.process.pid
                   for r in self.telegram.journal):
                return
            assert self.process.returncode is None, self.log.read_text()
        raise AssertionError("the bot did not start:\n" + self.log.read_text())

    async def all_announced(self, timeout: float = 15.0) -> bool:
        """Wait until every closed round's result is marked sent in the database (it is, just
        after Telegram took the message)."""
        for _ in range(int(timeout / 0.05)):
            with contextlib.closing(sqlite3.connect(self.database)) as database:
                rows = database.execute("SELECT COUNT(*) FROM rounds WHERE status != 'open' "
                                        "AND announced = 0").fetchall()
            if rows == [(0,)]:
                return True
            await asyncio.sleep(0.05)
        return False

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 15)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


@pytest.fixture
async def make_bot(telegram: BotApiEmulator, tmp_path: Path) -> AsyncIterator:
    bots: list[BotProcess] = []

    def make(round_seconds: float = 60.0) -> BotProcess:
        bot = BotProcess(telegram, tmp_path / "bot.sqlite3", round_seconds)
        bots.append(bot)
        return bot

    yield make
    for bot in bots:
        await bot.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Browser]:
    """One chromium for the session (for each xdist worker), shared by the browser tests:
    starting one costs seconds (Selenium is imported only by the tests that use it)."""
    from tests.e2e.webapp_browser import Browser

    opened = Browser()
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
async def browser(chromium: Browser) -> AsyncIterator[Browser]:
    """The session's chromium, as a fresh one for this test."""
    await asyncio.to_thread(chromium.reset)
    yield chromium
