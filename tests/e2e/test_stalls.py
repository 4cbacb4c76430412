"""A round ends after any stall (issue 25, item 1): the bot process paused (SIGSTOP) past a
round's end says "time is up" once it runs again — APScheduler's default would have dropped a
job more than a second late, and the round would have stayed open until someone answered."""

from __future__ import annotations

import signal
import time

import pytest

from bot.demo.emulator import BotApiEmulator
from tests.e2e.test_bot_process import open_deadline
from tests.waiting import until

pytestmark = pytest.mark.slow
LATE = 3.0  # seconds past the round's end: more than the 1 s APScheduler forgives by default

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
    deadline = open_deadline(bot.database)
    bot.process.send_signal(signal.SIGSTOP)
    try:  # the round's end falls due while it is stopped, and LATE seconds go by after it
        await until(lambda: time.time() > deadline + LATE, "the round's end long past")
    finally:
        bot.process.send_signal(signal.SIGCONT)
    ended = await telegram.reply(GROUP, timeout=20)
    assert "Time is up" in ended.text
