"""/match through the real Application: JobQueue deals the rounds, the notices and the podium;
a restart of the application resumes the match."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.runtime.pool import SolverPool
from demo.emulator import BotApiEmulator
from solver import solve
from tests.bot.conftest import Harness, make_config
from tests.bot.conftest import running as started

GROUP = -3001
ALICE = {"id": 31, "is_bot": False, "first_name": "Alice", "language_code": "en"}
BOB = {"id": 32, "is_bot": False, "first_name": "Bob", "language_code": "en"}
UPDATE_IDS = itertools.count(1, 1000)
CARL = {"id": 33, "is_bot": False, "first_name": "Carl", "language_code": "en"}


@contextlib.asynccontextmanager
async def running(telegram: BotApiEmulator, pool: SolverPool, database: Path,
                  round_seconds: float) -> AsyncIterator[Harness]:
    """The application started (rounds and matches resumed), then stopped as on SIGTERM."""
    config = make_config(telegram, database, round_seconds=round_seconds)
    async with started(telegram, pool, config) as harness:
        harness.ids = itertools.count(next(UPDATE_IDS))  # one database: ids are never reused
        yield harness


async def win(h: Harness, user: dict) -> None:
    current = h.services.rounds.open_round(GROUP)
    assert current is not None
    await h.send(GROUP, user, f"/a {solve(current.hand)[0]}")


@pytest.mark.slow
async def test_a_short_match_plays_itself_out(telegram: BotApiEmulator, pool: SolverPool,
                                              tmp_path: Path):
    telegram.chat(GROUP)
    async with running(telegram, pool, tmp_path / "b.sqlite3", round_seconds=4.0) as h:
        await h.send(GROUP, ALICE, "/match 2")
        first = await h.telegram.reply(GROUP)
        assert "Match: round 1 of 2" in first.text
        await win(h, BOB)
        won = await h.telegram.reply(GROUP)  # the scores ride on the result
        assert "Bob wins" in won.text
        assert "Scores after round 1 of 2" in won.text and "1. Bob" in won.text
        # the next deal (after a pause of a quarter round), the notice, the end with the podium
        deal = await h.telegram.reply(GROUP, timeout=30)
        assert "Match: round 2 of 2" in deal.text
        timeout = (await h.telegram.reply(GROUP, timeout=30)).text
        notice = [e for e in h.telegram.edits if e.message_id == deal.message_id]
        assert notice and notice[0].text.startswith(deal.text)  # the deal, a line added
        assert notice[0].text.endswith("⏳ 2 s left.")
        assert "Time is up" in timeout
        assert "Match over: 2 of 2 rounds played" in timeout and "🥇 Bob" in timeout
        await h.send(GROUP, ALICE, "/match stop")
        assert "No match is on" in (await h.telegram.reply(GROUP)).text


async def test_usage_refusals_and_stop(harness: Harness):
    harness.telegram.chat(GROUP)
    for bad in ("/match 1", "/match 21", "/match many"):
        await harness.send(GROUP, ALICE, bad)
        assert "Usage: /match" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, ALICE, "/match")
    assert "round 1 of 10" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, BOB, "/match 3")
    assert "A match is on here (round 1 of 10)" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, BOB, "/match stop")
    assert "Only <b>Alice</b>" in (await harness.telegram.reply(GROUP)).html
    harness.telegram.promote(GROUP, CARL["id"])  # (Bob's answer is cached for a minute)
    await harness.send(GROUP, CARL, "/match stop")
    stopped = await harness.telegram.reply(GROUP)
    assert "Ended early" in stopped.text and "Match stopped after 1 of 10 rounds" in stopped.text
    assert harness.services.rounds.open_round(GROUP) is None
    assert harness.services.table.scheduler.pending("round", GROUP) is None


@pytest.mark.slow
async def test_a_restart_between_rounds_resumes_the_match(telegram: BotApiEmulator,
                                                          pool: SolverPool, tmp_path: Path):
    telegram.chat(GROUP)
    database = tmp_path / "r.sqlite3"
    async with running(telegram, pool, database, round_seconds=60.0) as h:
        await h.send(GROUP, ALICE, "/match 3")
        await h.telegram.reply(GROUP)
        await win(h, ALICE)
        await h.telegram.reply(GROUP)  # the win, with the scores; stopped in the pause
    async with running(telegram, pool, database, round_seconds=60.0) as h:
        resumed = await h.telegram.reply(GROUP)
        assert "goes on after a restart: round 2 of 3 is next" in resumed.text
        assert "1. Alice" in resumed.text
        deal = await h.telegram.reply(GROUP, timeout=20)
        assert "Match: round 2 of 3" in deal.text
        for _ in range(100):  # the deal's id is stored once Telegram answered the send
            current = h.services.rounds.open_round(GROUP)
            if current is not None and current.message_id is not None:
                break
            await asyncio.sleep(0.05)
        assert current is not None and current.message_id == deal.message_id
    async with running(telegram, pool, database, round_seconds=60.0) as h:
        # mid-round: the round goes on (no new deal), and replies to its message still count
        await h.send(GROUP, BOB, solve(current.hand)[0], reply_to=deal.message_id)
        won = await h.telegram.reply(GROUP)
        assert "Bob wins" in won.text and "Scores after round 2 of 3" in won.text



def labels(sent) -> list[list[str]]:
    rows = (sent.reply_markup or {}).get("inline_keyboard", [])
    return [[button["text"] for button in row] for row in rows]


async def test_match_rounds_have_deal_buttons_and_only_show_all_after(
        telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path):
    """The match deals its own next round: its results offer no Play again / Same level, and a
    round dealt by the match's timer still has Hint and Reveal."""
    telegram.chat(GROUP)
    async with running(telegram, pool, tmp_path / "k.sqlite3", round_seconds=4.0) as h:
        await h.send(GROUP, ALICE, "/match 2")
        assert labels(await h.telegram.reply(GROUP)) == [["Hint", "Reveal"]]
        ways = len(solve(h.services.rounds.open_round(GROUP).hand))
        await win(h, BOB)
        won = await h.telegram.reply(GROUP)
        # a win lists none of them (nothing to show under the only one)
        assert labels(won) == ([["Show all solutions"]] if ways > 1 else [])
        deal = await h.telegram.reply(GROUP, timeout=30)
        assert "Match: round 2 of 2" in deal.text and labels(deal) == [["Hint", "Reveal"]]
        hand = h.services.rounds.open_round(GROUP).hand
        await h.send(GROUP, ALICE, "/reveal")
        revealed = await h.telegram.reply(GROUP)
        assert "Ended early" in revealed.text and "Match over" in revealed.text
        # the match is over: a new round is anyone's again
        assert labels(revealed) == [["Play again", "Same level"]] + \
            ([["Show all solutions"]] if len(solve(hand)) > 5 else [])
