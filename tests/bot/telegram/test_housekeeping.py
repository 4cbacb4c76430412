"""The housekeeping jobs run first at start, not an interval later: the heartbeat (a container's
first health probe comes within seconds) and the clean-up of old update ids (a bot restarted
more often than hourly would otherwise never clean up)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.runtime.health import heartbeat_path
from bot.runtime.pool import SolverPool
from bot.telegram.jobs import FORGET_EVERY, HANDLED_UPDATES_KEPT
from bot.wiring import build_bot
from demo.emulator import BotApiEmulator
from tests.bot.conftest import make_config, running

WAIT = 10.0  # seconds: far less than either interval (30 s, an hour)


async def test_the_first_heartbeat_comes_at_start(telegram: BotApiEmulator, pool: SolverPool,
                                                  tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    beat = heartbeat_path(config.database_path)
    bot = build_bot(config, pool, webapp=None)
    app = bot.application
    await app.initialize()
    await bot.open(app)
    beat.unlink()  # what the start-up wrote itself: only the job can write it again now
    await app.start()
    try:
        for _ in range(int(WAIT / 0.05)):
            if beat.exists():
                break
            await asyncio.sleep(0.05)
        assert beat.exists(), "no heartbeat after the job queue started"
    finally:
        await app.stop()
        await app.shutdown()
        await bot.close()


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
