"""A deal is never edited to what it shows already (issue 35, item 10): Telegram refuses such an
edit (400 "message is not modified"), so play, which knows what it last wrote into the deal,
skips it. A flood of 1,000 wrong answers through the real handlers, on a hand-moved game clock,
counts the edits: none refused, none the same as the one before, the status still current."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.play.ports import STATUS
from bot.runtime.pool import SolverPool
from demo.emulator import BotApiEmulator
from tests.bot.conftest import Clock, Harness, make_config, running

GROUP = -2801
PLAYERS = [{"id": 281 + i, "is_bot": False, "first_name": f"P{i}"} for i in range(4)]


def deal_edits(h: Harness, message_id: int) -> tuple[int, list[tuple[str, object]]]:
    """How many edits of the deal were asked, and those Telegram made (text, buttons)."""
    asked = sum(1 for method, params, _ in h.telegram.calls if method == "editMessageText"
                and int(params.get("message_id") or 0) == message_id)
    made = [(e.html, e.reply_markup) for e in h.telegram.edits if e.message_id == message_id]
    return asked, made


async def status_rang(h: Harness, timeout: float = 10.0) -> None:
    """Until the deal's STATUS alarm (if one is set) has rung (a bounded poll)."""
    scheduler = h.services.table.scheduler
    for _ in range(int(timeout / 0.05)):
        if scheduler.pending(STATUS, GROUP) is None:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the status alarm never rang")


@pytest.fixture
async def harness(telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path
                  ) -> AsyncIterator[Harness]:
    """The real Application, its rounds an hour long: the flood takes a minute of real time on
    a busy machine, and the round must still be on at its end."""
    config = make_config(telegram, tmp_path / "bot.sqlite3", round_seconds=3600.0)
    async with running(telegram, pool, config) as h:
        yield h


async def test_a_flood_of_answers_never_edits_a_deal_to_what_it_shows(harness: Harness):
    clock = Clock(10_000.0)
    harness.services.table.clock = clock  # the game's time: moved by hand
    await harness.send(GROUP, PLAYERS[0], "/play")
    deal = await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None
    a, b, c, d = current.hand
    wrong = [f"/a {a}+{b}+{c}+{d}+{n}" for n in range(1, 5)]  # each player's own, never 24
    # runs of ten: P0 P0 P1 P1 P2 P2 ...; each run a moment after the one before, so its first
    # answer writes the status at once — the same status the previous run left
    for run in range(100):
        player = (run // 2) % len(PLAYERS)
        for _ in range(10):
            await harness.send(GROUP, PLAYERS[player], wrong[player])
        clock.now += 1.5
    await status_rang(harness)
    assert harness.services.rounds.open_round(GROUP) is not None  # nobody won

    asked, made = deal_edits(harness, deal.message_id)
    assert len(made) >= 50  # the status was written, at most once a (game) second
    assert asked == len(made), f"{asked - len(made)} edits refused as not modified"
    assert all(made[i] != made[i - 1] for i in range(1, len(made)))
    last = (99 // 2) % len(PLAYERS)
    shown = harness.telegram.message(GROUP, deal.message_id)
    assert shown is not None and wrong[last][3:] in shown["text"]  # the status is current
