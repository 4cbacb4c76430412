"""After downtime (issue 25, item 5): a command written longer ago than a round lasts is not acted
on when the bot comes back — a /play sent six hours earlier deals nothing, an old answer judges
nothing — and the log says how many were skipped; fresh messages go through as ever."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from telegram import Update

from bot.runtime.pool import SolverPool
from bot.store.protocols import StoreBusy
from bot.telegram import app
from demo.emulator import BotApiEmulator
from tests.bot.conftest import Harness, make_config, running

GROUP = -7601
ANN = {"id": 761, "is_bot": False, "first_name": "Ann", "language_code": "en"}


NOW = 1_800_000_000  # the face's clock in these tests (a whole second, as a message's date)


async def send_written(h: Harness, text: str, ago: int) -> None:
    message = await h.telegram.say(GROUP, ANN, text)
    h.telegram.updates.clear()
    message = {**message, "date": NOW - ago}
    await h.app.process_update(Update.de_json({"update_id": next(h.ids), "message": message},
                                              h.app.bot))


async def test_a_play_from_hours_ago_deals_nothing(harness: Harness, caplog, monkeypatch):
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(app, "time", SimpleNamespace(time=lambda: float(NOW)))
    longest = int(harness.app.bot_data.longest_round)  # a round's longest
    await send_written(harness, "/play", ago=6 * 3600)
    await send_written(harness, "/countdown", ago=longest + 1)
    assert harness.services.rounds.open_round(GROUP) is None
    assert not [s for s in harness.telegram.sent if s.chat_id == GROUP]
    assert "skipped 1 stale updates" in caplog.text
    await send_written(harness, "/play", ago=longest)  # late, but within a round: acted on
    assert harness.services.rounds.open_round(GROUP) is not None


async def test_a_deal_whose_message_id_was_lost_is_shown_again_at_start(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path):
    """The bot stopped between sending a deal and storing its id (a kill): at start the round,
    still running, is dealt again, and replies and hints tie to that message."""
    config = make_config(telegram, tmp_path / "bot.sqlite3", round_seconds=120.0)
    async with running(telegram, pool, config) as bot:
        await bot.stores.people.remember_chat(GROUP, "group", "G")
        await bot.stores.people.remember_user(ANN["id"], "Ann")
        now = time.time()
        made = await bot.stores.rounds.open_round(GROUP, "24", (3, 3, 8, 8), 24, "hard", 30,
                                                  "en", now, now + 120, ANN["id"])
        assert made is not None and made.message_id is None  # sent, id never stored
    telegram.chat(GROUP)
    async with running(telegram, pool, config) as bot:
        again = await telegram.reply(GROUP)
        assert again.text.startswith("3 3 8 8")
        stored = await bot.stores.rounds.get_round(made.id)
        assert stored is not None and stored.message_id == again.message_id
        held = bot.services.table.get(GROUP)
        assert held is not None and held.is_deal(again.message_id)


async def test_a_player_hears_back_when_the_database_stays_busy(harness: Harness,
                                                                monkeypatch):
    """The claim waits on a lock past BUSY_NOTICE: the player hears "hold on" at once; and
    when it stays locked through every retry, "send it again" — the update is not handled
    (never twice: it was not claimed)."""
    monkeypatch.setattr(app, "BUSY_NOTICE", 0.05)
    gate = asyncio.Event()

    async def locked(update_id: int, at: float, owner: int | None = None) -> bool:
        await gate.wait()
        raise StoreBusy("database is locked")

    monkeypatch.setattr(harness.stores.updates, "claim_update", locked)
    monkeypatch.setattr(harness.stores.updates, "claim_owed", locked)  # /play's
    handling = asyncio.ensure_future(harness.send(GROUP, ANN, "/play"))
    await harness.telegram.wait_for(lambda: any(
        s.chat_id == GROUP for s in harness.telegram.sent), 10)
    assert "hold on" in [s for s in harness.telegram.sent if s.chat_id == GROUP][-1].text
    gate.set()
    await handling
    said = [s.text for s in harness.telegram.sent if s.chat_id == GROUP]
    assert len(said) == 2 and "send it again" in said[-1]
    assert harness.services.rounds.open_round(GROUP) is None


@pytest.mark.parametrize("error", [ConnectionRefusedError(111, "Connection refused"),
                                   TimeoutError(), RuntimeError("connection was closed")])
async def test_an_update_the_database_cannot_claim_is_not_handled(harness: Harness,
                                                                  monkeypatch, error):
    """The database out of reach when the update is claimed (PostgreSQL restarting, a cut
    link): the player hears "busy, send it again" and nothing acts — not even /help, which
    writes nothing — since an unclaimed update could come again and act twice."""

    async def unreachable(update_id: int, at: float, owner: int | None = None) -> bool:
        raise error

    monkeypatch.setattr(harness.stores.updates, "claim_update", unreachable)
    monkeypatch.setattr(harness.stores.updates, "claim_owed", unreachable)  # /play's, /help's
    await harness.send(GROUP, ANN, "/play")
    await harness.send(GROUP, ANN, "/help")
    await harness.send(GROUP, ANN, "/hint")  # a plain claim's
    said = [s.text for s in harness.telegram.sent if s.chat_id == GROUP]
    assert len(said) == 3 and all("busy" in text for text in said)
    assert harness.services.rounds.open_round(GROUP) is None


async def test_a_database_out_of_reach_is_one_warning_line_not_a_traceback_each_time(caplog):
    """A timer's work failing because the database is down (a standby's housekeeping, the
    sweep) is said once a minute in one line; any other error keeps its traceback."""
    from types import SimpleNamespace

    from bot.telegram import errors

    caplog.set_level(logging.WARNING)
    for _ in range(5):
        await errors.on_error(None, SimpleNamespace(  # type: ignore[arg-type]
            error=ConnectionRefusedError(111, "Connection refused")))
    down = [r for r in caplog.records if r.name == errors.__name__]
    assert len(down) == 1 and down[0].exc_info is None
    assert "out of reach" in down[0].getMessage()
    caplog.clear()
    await errors.on_error(None, SimpleNamespace(error=ValueError("a bug")))  # type: ignore
    assert [r.exc_info is not None for r in caplog.records] == [True]
