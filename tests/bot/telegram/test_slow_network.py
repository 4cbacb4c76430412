"""A slow network is not the user's error (issue 44, item 5): the Bot API answers a call only
after the bot's request has timed out — the message reached the chat all the same. A deal so
sent leaves its round on and ending on time, with no "something went wrong"; a result so sent is
counted as announced, so a restart does not send it twice; an apology is said only when the bot
itself failed."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path

from bot.runtime.pool import SolverPool
from bot.telegram.errors import in_transport
from demo.emulator import BotApiEmulator
from solver import solve
from tests.bot.conftest import Harness, make_config, running
from tests.waiting import until

GROUP = -4401
ANN = {"id": 441, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 442, "is_bot": False, "first_name": "Ben", "language_code": "en"}
# past the bot's read timeout (PTB's default, 5 s): its request gives up before the answer
STALL = 5.6
APOLOGY = "went wrong"


def announced(database: Path) -> list[tuple[str, int]]:
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return connection.execute("SELECT status, announced FROM rounds").fetchall()


def in_group(h: Harness) -> list[str]:
    return [sent.text for sent in h.telegram.sent if sent.chat_id == GROUP]


async def test_a_deal_that_timed_out_plays_on_and_ends_on_time(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3", round_seconds=12.0)
    async with running(telegram, pool, config) as h:
        telegram.chat(GROUP)
        telegram.stalls["sendmessage"] = STALL
        began = time.monotonic()
        await h.send(GROUP, ANN, "/play")
        assert time.monotonic() - began >= 5.0, "the deal's request did time out"
        telegram.stalls.clear()
        [deal] = in_group(h)
        assert "24" in deal and APOLOGY not in deal
        current = h.services.rounds.open_round(GROUP)
        assert current is not None and current.message_id is None  # never learnt
        await h.send(GROUP, BEN, "/a 1+1")  # the round takes answers: words stand in for edits
        assert h.services.rounds.open_round(GROUP) is not None
        await until(lambda: announced(config.database_path) == [("expired", 1)],
                    "the round's end announced")
        assert any("Time is up" in text for text in in_group(h))
        assert not any(APOLOGY in text for text in in_group(h))


async def test_a_result_that_timed_out_is_not_sent_again_after_a_restart(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path):
    config = make_config(telegram, tmp_path / "bot.sqlite3", round_seconds=120.0)
    async with running(telegram, pool, config) as h:
        telegram.chat(GROUP)
        await h.send(GROUP, ANN, "/play")
        current = h.services.rounds.open_round(GROUP)
        assert current is not None
        telegram.stalls["sendmessage"] = STALL
        await h.send(GROUP, BEN, f"/a {solve(current.hand)[0]}")
        telegram.stalls.clear()
        await until(lambda: announced(config.database_path) == [("won", 1)],
                    "the win counted as announced")
        wins = [text for text in in_group(h) if "wins" in text]
        assert len(wins) == 1 and not any(APOLOGY in text for text in in_group(h))
    before = len(in_group(h))
    async with running(telegram, pool, config) as again:
        await asyncio.sleep(0)  # the start's owed results were sent before `running` returned
        assert in_group(again)[before:] == []


async def test_a_command_whose_reply_timed_out_gets_no_apology(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path):
    async with running(telegram, pool, make_config(telegram, tmp_path / "b.sqlite3")) as h:
        telegram.chat(GROUP)
        telegram.stalls["sendmessage"] = STALL
        await h.send(GROUP, ANN, "/help")
        telegram.stalls.clear()
        texts = in_group(h)
        assert len(texts) == 1 and "/play" in texts[0]  # the help, once, no apology after it


def test_only_the_transport_is_spared_the_apology():
    from telegram.error import BadRequest, Forbidden, NetworkError, TimedOut

    assert in_transport(TimedOut()) and in_transport(NetworkError("cut"))
    assert not in_transport(BadRequest("message is too long"))
    assert not in_transport(Forbidden("blocked")) and not in_transport(RuntimeError("bug"))
    assert not in_transport(None)
