"""What a freshly started `python -m bot` does at once, not a period later: it tells systemd it
is ready and feeds the watchdog (NOTIFY_SOCKET), forgets update ids older than Telegram's
redelivery window, and keeps the scheduler's INFO lines out of the log."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sqlite3
import time
from pathlib import Path

from bot.store.sqlite import open_sqlite
from demo.emulator import BotApiEmulator

DAY = 24 * 3600.0


async def received(listening: socket.socket, wanted: bytes, timeout: float = 30.0) -> bool:
    """Whether a datagram holding the line `wanted` arrives within `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        try:
            message = listening.recv(4096)
        except BlockingIOError:
            await asyncio.sleep(0.05)
            continue
        if wanted in message.split(b"\n"):
            return True
    return False


async def test_ready_and_watchdog_at_start(telegram: BotApiEmulator, make_bot, tmp_path: Path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listening:
        listening.bind(str(tmp_path / "notify"))
        listening.setblocking(False)
        bot = make_bot()
        bot.env["NOTIFY_SOCKET"] = str(tmp_path / "notify")
        await bot.start()
        assert await received(listening, b"READY=1")
        assert await received(listening, b"WATCHDOG=1")
    assert bot.database.with_name(bot.database.name + ".heartbeat").read_text() == "leader\n"
    assert "apscheduler" not in bot.log.read_text()  # its INFO: a line per job added or run


async def test_old_update_claims_are_forgotten_at_start(telegram: BotApiEmulator, make_bot):
    bot = make_bot()
    stores = await open_sqlite(bot.database)
    await stores.updates.claim_update(1, time.time() - 3 * DAY)  # past the redelivery window
    await stores.updates.claim_update(2, time.time() - 60)  # recent: kept
    await stores.close()
    await bot.start()

    def claims() -> list[int]:
        with contextlib.closing(sqlite3.connect(bot.database)) as database:
            return [row[0] for row in
                    database.execute("SELECT update_id FROM handled_updates ORDER BY 1")]

    assert await telegram.wait_for(lambda: 1 not in claims(), 15), claims()
    assert 2 in claims()
