"""The housekeeping jobs run first at start, not an interval later: the heartbeat (a container's
first health probe comes within seconds) and the clean-up of old update ids (a bot restarted
more often than hourly would otherwise never clean up)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

from bot.runtime.health import heartbeat_path
from bot.runtime.pool import SolverPool
from bot.telegram.jobs import FORGET_EVERY, HANDLED_UPDATES_KEPT
from bot.wiring import built, opening, started
from demo.emulator import BotApiEmulator
from tests.bot.conftest import make_config, running

WAIT = 10.0  # seconds: far less than either interval (30 s, an hour)


async def test_the_first_heartbeat_comes_at_start(telegram: BotApiEmulator, pool: SolverPool,
                                                  tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    beat = heartbeat_path(config.database_path)
    async with contextlib.AsyncExitStack() as stack:  # the composition root's steps, in order
        opened = await stack.enter_async_context(opening(config, pool))
        bot = await stack.enter_async_context(built(config, opened))
        await started(bot, stack, asyncio.Event())
        beat.unlink()  # what the start-up wrote itself: only the job can write it again now
        await bot.application.start()
        for _ in range(int(WAIT / 0.05)):
            if beat.exists():
                break
            await asyncio.sleep(0.05)
        assert beat.exists(), "no heartbeat after the job queue started"


async def test_old_update_ids_are_forgotten_at_start(telegram: BotApiEmulator, pool: SolverPool,
                                                     tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    long_ago = time.time() - HANDLED_UPDATES_KEPT - FORGET_EVERY
    async with running(telegram, pool, config) as bot:
        assert await bot.stores.updates.claim_update(41, long_ago)
        assert await bot.stores.updates.claim_update(42, time.time())
    async with running(telegram, pool, config) as bot:
        forgotten = False
        for _ in range(int(WAIT / 0.05)):
            if await bot.stores.updates.claim_update(41, time.time()):
                forgotten = True  # the old id was dropped, so it could be claimed again
                break
            await asyncio.sleep(0.05)
        assert forgotten, "the clean-up did not run at start"
        assert not await bot.stores.updates.claim_update(42, time.time())  # a recent one stays
