"""The token never reaches the logs: a whole session of `python -m bot` at DEBUG (PTB, httpx and
httpcore included) and a rejected token, each log read in full."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from demo.emulator import BotApiEmulator
from solver import solve
from tests.conftest import ROOT
from tests.e2e.conftest import BotProcess
from tests.e2e.test_bot_process import ANN, BEN, GROUP, hand_of

# the shape of a real token: the bot's id, a colon, 35 characters of secret
SECRET = "AAH3kq9Zx_b7-Yt2LmQpW4vRcE8sN1uJd0o"
TOKEN = f"5829144031:{SECRET}"


@pytest.fixture
async def telegram_with_token() -> AsyncIterator[BotApiEmulator]:
    server = BotApiEmulator(token=TOKEN)
    await server.start()
    yield server
    await server.stop()


async def test_a_debug_session_never_logs_the_token(telegram_with_token: BotApiEmulator,
                                                    tmp_path: Path):
    telegram = telegram_with_token
    bot = BotProcess(telegram, tmp_path / "bot.sqlite3", round_seconds=60)
    bot.env["LOG_LEVEL"] = "DEBUG"
    try:
        await bot.start()
        telegram.chat(GROUP)
        await telegram.say(GROUP, ANN, "/play")
        deal = await telegram.reply(GROUP)
        await telegram.say(GROUP, BEN, "/a 1+2+3+4")
        assert await telegram.wait_for(lambda: any("👎 Ben" in e.text for e in telegram.edits),
                                       15)
        await telegram.say(GROUP, ANN, f"/a {solve(hand_of(deal.text))[0]}")
        assert "wins" in (await telegram.reply(GROUP)).text
        for command in ("/solve 3 8 3 8", "/countdown 1 3 7 10 25 50 = 765", "/top", "/stats",
                        "/play ²"):
            await telegram.say(GROUP, ANN, command)
            await telegram.reply(GROUP)
    finally:
        await bot.stop()
    log = bot.log.read_text(encoding="utf-8", errors="replace")
    # the log is the whole, noisy one: PTB's URL line, the transport's request lines
    assert "Set Bot API URL" in log and " bot.telegram.lean_request: HTTP Request" in log
    assert SECRET not in log and SECRET.replace("-", "%2D") not in log
    assert "bot5829144031:[secret]/sendMessage" in log  # masked where it was


async def test_a_rejected_token_is_named_but_never_shown(telegram_with_token: BotApiEmulator,
                                                         tmp_path: Path):
    wrong_secret = "AAF0000000000000000000000000wrongXYZ"
    log = tmp_path / "bot.log"
    for level in ("INFO", "DEBUG"):
        env = {**os.environ, "TELEGRAM_BOT_TOKEN": f"5829144031:{wrong_secret}",
               "TELEGRAM_BASE_URL": telegram_with_token.base_url, "LOG_LEVEL": level,
               "DATABASE_PATH": str(tmp_path / "bot.sqlite3"), "SOLVER_WORKERS": "1"}
        with log.open("ab") as out:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=ROOT, env=env, stdout=out, stderr=out,
                stdin=asyncio.subprocess.DEVNULL)
        assert await asyncio.wait_for(process.wait(), 60) == 2
    text = log.read_text(encoding="utf-8", errors="replace")
    assert text.count("Telegram rejected TELEGRAM_BOT_TOKEN") == 2
    assert "InvalidToken" in text and "was rejected by the server" in text  # PTB's traceback
    assert wrong_secret not in text and "[secret]" in text
