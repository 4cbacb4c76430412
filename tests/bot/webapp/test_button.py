"""Opened from the round (issue 27, item 2; issue 34, item 6): with WEBAPP_URL set, a deal of
every game in a group carries a link to the bot's Direct Link Mini App with the round in its
start parameter, a private deal a web_app button to the page; a hint's edit keeps it; without
WEBAPP_URL there is none. The settings are checked like the others; one user's submissions are
judged one at a time (the first held until the others have provably arrived), and two right
ones at once make one winner."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.runtime.config import ConfigError
from bot.runtime.pool import SolverPool
from bot.webapp.settings import DEFAULT_PORT, WebappSettings, read_settings
from demo.emulator import BotApiEmulator
from demo.emulator.records import BOT_USERNAME
from tests.bot.conftest import Harness, make_config, running
from tests.bot.webapp_support import (
    ANN,
    BEN,
    GROUP,
    SOLUTION,
    deal_known,
    page_server,
    post,
    signed_for,
)

SETTINGS = WebappSettings(url="https://bot.example.org/webapp/", short_name="tap24", port=0)


@contextlib.asynccontextmanager
async def paged(telegram: BotApiEmulator, pool: SolverPool, folder: Path,
                settings: WebappSettings) -> AsyncIterator[Harness]:
    """The bot with its Mini App's page mounted as `settings` say."""
    async with running(telegram, pool, make_config(telegram, folder / "bot.sqlite3"),
                       webapp=settings) as harness:
        yield harness


def keyboard(h: Harness, chat: int) -> list[list[dict]]:
    deal = [s for s in h.telegram.sent if s.chat_id == chat][-1]
    return (deal.reply_markup or {}).get("inline_keyboard", [])


async def test_a_group_deal_links_to_the_direct_link_mini_app(
        telegram: BotApiEmulator, pool: SolverPool,
        tmp_path: Path):
    async with paged(telegram, pool, tmp_path, SETTINGS) as harness:
        await harness.send(GROUP, ANN, "/play")
        await harness.telegram.reply(GROUP)
        current = harness.services.table.of(GROUP)
        assert current is not None
        rows = keyboard(harness, GROUP)
        assert rows[-1] == [{"text": "🧮 Tap to solve", "url": f"https://t.me/{BOT_USERNAME}/"
                             f"tap24?startapp={GROUP}_0_{current.id}"}]
        assert [b["text"] for b in rows[0]] == ["Hint", "Reveal"]
        await harness.send(GROUP, ANN, "/hint")  # the deal is edited: the link stays
        edits = [e for e in harness.telegram.edits if e.chat_id == GROUP]
        assert edits and edits[-1].reply_markup["inline_keyboard"][-1] == rows[-1]


@pytest.mark.parametrize("command", ["/countdown", "/yahtzee"])
async def test_every_games_deal_links_to_its_page(telegram: BotApiEmulator, pool: SolverPool,
                                                  tmp_path: Path, command: str):
    """Countdown's and Yahtzee's deals carry the page's button too, in a group (the Direct
    Link) and in a private chat (a web_app button)."""
    async with paged(telegram, pool, tmp_path, SETTINGS) as harness:
        for chat, kind in ((GROUP, "group"), (ANN["id"], "private")):
            await harness.send(chat, ANN, command, kind=kind)
            await harness.telegram.reply(chat)
            current = harness.services.table.of(chat)
            assert current is not None and f"/{current.record.game}" == command
            ticket = f"{chat}_0_{current.id}"
            assert keyboard(harness, chat)[-1] == [
                {"text": "🧮 Tap to solve", "url": f"https://t.me/{BOT_USERNAME}/tap24?"
                                                   f"startapp={ticket}"} if chat < 0 else
                {"text": "🧮 Tap to solve", "web_app": {"url": f"{SETTINGS.url}?round={ticket}"}}]


async def test_a_private_deal_has_a_web_app_button(
        telegram: BotApiEmulator, pool: SolverPool,
        tmp_path: Path):
    async with paged(telegram, pool, tmp_path, SETTINGS) as harness:
        await harness.send(ANN["id"], ANN, "/play", kind="private")
        await harness.telegram.reply(ANN["id"])
        current = harness.services.table.of(ANN["id"])
        assert current is not None
        assert keyboard(harness, ANN["id"])[-1] == [{
            "text": "🧮 Tap to solve",
            "web_app": {"url": f"{SETTINGS.url}?round={ANN['id']}_0_{current.id}"}}]


async def test_without_a_short_name_a_group_deal_has_no_link(
        telegram: BotApiEmulator, pool: SolverPool,
        tmp_path: Path):
    bare = WebappSettings(url=SETTINGS.url, port=0)
    async with paged(telegram, pool, tmp_path, bare) as harness:
        await harness.send(GROUP, ANN, "/play")
        await harness.telegram.reply(GROUP)
        assert [b["text"] for row in keyboard(harness, GROUP) for b in row] == ["Hint",
                                                                                "Reveal"]


async def test_without_webapp_url_no_button(harness: Harness):
    await harness.send(GROUP, ANN, "/play")
    await harness.telegram.reply(GROUP)
    assert [b["text"] for row in keyboard(harness, GROUP) for b in row] == ["Hint", "Reveal"]


def test_settings():
    assert read_settings({}, None) is None
    read = read_settings({"WEBAPP_URL": "https://h.example/webapp/", "WEBAPP_SHORT_NAME": "t24",
                          "WEBAPP_PORT": "9000"}, None)
    assert read == WebappSettings("https://h.example/webapp/", "t24", 9000)
    assert read_settings({"WEBAPP_URL": "https://h.example/"}, None).port == DEFAULT_PORT
    for bad in ({"WEBAPP_URL": "http://h.example/"}, {"WEBAPP_URL": "https:///x"},
                {"WEBAPP_URL": "https://h/", "WEBAPP_SHORT_NAME": "a b"},
                {"WEBAPP_URL": "https://h/", "WEBAPP_PORT": "70000"}):
        with pytest.raises(ConfigError) as error:
            read_settings(bad, None)
        assert "\n" not in str(error.value)


async def test_one_users_submissions_are_judged_one_at_a_time(harness: Harness,
                                                             monkeypatch: pytest.MonkeyPatch):
    """Four of Ann's submissions and one of Ben's at once: Ann's first judgement is held until
    all five requests have reached the page's face, so that any of Ann's others not kept
    waiting would be judged beside it; none is. One winner."""
    current = await deal_known(harness, (8, 3, 8, 3))
    rounds, face = harness.services.rounds, harness.bot.face
    judging: dict[int, int] = {}
    most: dict[int, int] = {}
    arrived, everyone_in = 0, asyncio.Event()
    held: list[int] = []
    original_answer, original_judge = face.answer, rounds.answer

    async def arriving(body):  # type: ignore[no-untyped-def]
        nonlocal arrived
        arrived += 1
        if arrived == len(bodies):
            everyone_in.set()
        return await original_answer(body)

    async def watched(chat, player, text, explicit, replied_to=None,  # type: ignore[no-untyped-def]
                      target=None):
        judging[player.id] = judging.get(player.id, 0) + 1
        most[player.id] = max(most.get(player.id, 0), judging[player.id])
        try:
            if player.id == ANN["id"] and not held:
                held.append(player.id)  # Ann's first: judged once the others are in
                await asyncio.wait_for(everyone_in.wait(), 10)
            return await original_judge(chat, player, text, explicit, replied_to, target)
        finally:
            judging[player.id] -= 1

    monkeypatch.setattr(face, "answer", arriving)
    monkeypatch.setattr(rounds, "answer", watched)
    wrong = [[0, "+", 1], [0, "+", 1], [0, "+", 1]]
    bodies = [{"init_data": signed_for(user, current, harness.telegram.token),
               "round": f"{GROUP}_0_{current.id}", "steps": steps}
              for user, steps in ((ANN, wrong), (ANN, wrong), (ANN, SOLUTION), (ANN, SOLUTION),
                                  (BEN, SOLUTION))]
    async with page_server(harness) as base:
        said = await asyncio.gather(*(post(base, "api/answer", body) for body in bodies))
    assert held and everyone_in.is_set()
    assert most[ANN["id"]] == 1  # never two of Ann's at once
    assert all(status == 200 for status, _ in said)
    assert sum(judged["right"] for _, judged in said) == 1  # one winner
    wins = [s for s in harness.telegram.sent if s.chat_id == GROUP and s.text.startswith("✅")]
    assert len(wins) == 1
