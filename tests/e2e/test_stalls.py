"""A round ends after any stall (issue 25, item 1): the bot process paused (SIGSTOP) past a
round's end says "time is up" once it runs again — APScheduler's default would have dropped a
job more than a second late, and the round would have stayed open until someone answered."""

from __future__ import annotations

import contextlib
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from demo.emulator import BotApiEmulator
from demo.freezing import freeze
from tests.e2e.test_bot_process import open_deadline
from tests.waiting import until

pytestmark = pytest.mark.slow
LATE = 3.0  # seconds past the round's end: more than the 1 s APScheduler forgives by default

GROUP = -2501


def deal_stored(database: Path) -> bool:
    """The open round's deal message id is stored: the /play that dealt it has had the Bot
    API's answer (a pause before that would time its request out instead)."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        rows = connection.execute("SELECT message_id FROM rounds WHERE status = 'open'").fetchall()
    return bool(rows) and rows[0][0] is not None

ANN = {"id": 251, "is_bot": False, "first_name": "Ann"}


async def test_a_round_ends_after_the_process_was_paused_past_its_end(
        telegram: BotApiEmulator, make_bot):
    bot = make_bot(round_seconds=2)
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    await telegram.reply(GROUP)
    assert bot.process is not None
    await until(lambda: deal_stored(bot.database), "the deal's message id stored")
    deadline = open_deadline(bot.database)
    freeze(bot.process.pid)
    try:  # the round's end falls due while it is stopped, and LATE seconds go by after it
        await until(lambda: time.time() > deadline + LATE, "the round's end long past")
    finally:
        bot.process.send_signal(signal.SIGCONT)
    ended = await telegram.reply(GROUP, timeout=20)
    assert "Time is up" in ended.text
