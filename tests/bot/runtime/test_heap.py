"""Start-up's objects are kept out of the garbage collector's later collections
(bot/runtime/heap.py): the bot, once open, has frozen them, so a full collection at some later
request walks only what play made since."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from bot.runtime import heap
from bot.runtime.heap import settle
from bot.runtime.pool import SolverPool
from demo.emulator import BotApiEmulator
from tests.bot.conftest import make_config, running


async def test_the_bot_once_open_has_frozen_what_start_up_made(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "_settled", False)  # this test's bot is the process's first
    gc.unfreeze()  # whatever an earlier test of this process froze
    assert gc.get_freeze_count() == 0
    async with running(telegram, pool, make_config(telegram, tmp_path / "bot.sqlite3")):
        assert gc.get_freeze_count() > 10_000  # the modules, catalogs, the Application


def test_settling_again_freezes_what_was_made_since() -> None:
    first = settle()
    made = [[n] for n in range(1000)]  # new containers, tracked by the collector
    assert settle() >= first + len(made)


async def test_a_second_start_up_in_the_process_freezes_nothing_more(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "_settled", False)
    gc.unfreeze()
    async with running(telegram, pool, make_config(telegram, tmp_path / "a.sqlite3")):
        frozen = gc.get_freeze_count()
    async with running(telegram, pool, make_config(telegram, tmp_path / "b.sqlite3")):
        assert gc.get_freeze_count() <= frozen  # nothing of the second bot frozen
