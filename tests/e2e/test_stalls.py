"""A round ends after any stall (issue 25, item 1): the bot process paused (SIGSTOP) past a
round's end says "time is up" once it runs again — APScheduler's default would have dropped a
job more than a second late, and the round would have stayed open until someone answered."""

from __future__ import annotations

import asyncio
import signal

import pytest

from bot.demo.emulator import BotApiEmulator

pytestmark = pytest.mark.slow

GROUP = -2501
ANN = {"id": 251, "is_bot": False, "first_name": "Ann"}


async def test_a_round_ends_after_the_process_was_paused_past_its_end(
        telegram: BotApiEmulator, make_bot):
    bot = make_bot(round_seconds=2)
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    await telegram.reply(GROUP)
    assert bot.process is not None
    bot.process.send_signal(signal.SIGSTOP)
    try:
        await asyncio.sleep(5)  # the round's end falls due while it is stopped
    finally:
        bot.process.send_signal(signal.SIGCONT)
    ended = await telegram.reply(GROUP, timeout=20)
    assert "Time is up" in ended.text
