"""A result is on record (announced) once Telegram took it, before its deal loses its buttons
(issue 70): the buttons' edit waits its turn behind Telegram's send limit, seconds under a
tournament's load, and a process killed before the record sends the result again when another
takes the chat up. So the record follows the result's own send, and the edit follows the
record (`Delivery.then`)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

from bot.runtime.pool import SolverPool
from demo.emulator import BotApiEmulator
from solver import solve
from tests.bot.conftest import make_config, running
from tests.waiting import until

GROUP = -4451
ANN = {"id": 451, "is_bot": False, "first_name": "Ann", "language_code": "en"}
STALL = 3.0  # the buttons' edit held at Telegram this long (the bot's timeout is 5 s)


def announced(database: Path) -> list[tuple[str, int]]:
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return connection.execute("SELECT status, announced FROM rounds").fetchall()


async def test_a_result_is_on_record_before_its_deal_loses_its_buttons(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3", round_seconds=120.0)
    async with running(telegram, pool, config) as h:
        telegram.chat(GROUP)
        await h.send(GROUP, ANN, "/play")
        current = h.services.rounds.open_round(GROUP)
        assert current is not None and current.message_id is not None
        telegram.stalls["editmessagereplymarkup"] = STALL
        answering = asyncio.ensure_future(h.send(GROUP, ANN, f"/a {solve(current.hand)[0]}"))
        await until(lambda: any(e.reply_markup is None for e in telegram.markup_edits),
                    "the deal's buttons asked off")
        # the edit is on its way (held at Telegram): the result was taken, and is on record
        assert any("wins" in s.text for s in telegram.sent if s.chat_id == GROUP)
        assert announced(config.database_path) == [("won", 1)]
        await answering
        telegram.stalls.clear()
