"""Opened from /stats and /top (issue 47): with the Mini App set, /stats offers the player's page
(a web_app button in a private chat; in a group, where web_app buttons are not allowed, the
Direct Link with the page as its start parameter) and /top in a group the group's page; a
group gets no link without the Mini App's short name, and nothing is offered without the Mini
App."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot.runtime.pool import SolverPool
from bot.webapp.settings import WebappSettings
from demo.emulator import BotApiEmulator
from demo.emulator.records import BOT_USERNAME
from tests.bot.conftest import Harness, make_config, running
from tests.bot.webapp_support import ANN, GROUP

SETTINGS = WebappSettings(url="https://bot.example.org/webapp/", short_name="tap24", port=0)
PRIVATE = ANN["id"]


@contextlib.asynccontextmanager
async def paged(telegram: BotApiEmulator, pool: SolverPool, folder: Path,
                settings: WebappSettings | None) -> AsyncIterator[Harness]:
    async with running(telegram, pool, make_config(telegram, folder / "bot.sqlite3"),
                       webapp=settings) as harness:
        yield harness


async def keyboard_of(h: Harness, chat: int, command: str) -> list[list[dict]]:
    """The buttons under the bot's answer to a command said in the chat."""
    await h.send(chat, ANN, command, kind="private" if chat > 0 else "group")
    answer = [s for s in h.telegram.sent if s.chat_id == chat][-1]
    return (answer.reply_markup or {}).get("inline_keyboard", [])


async def test_stats_and_top_open_the_pages(telegram: BotApiEmulator, pool: SolverPool,
                                           tmp_path: Path):
    async with paged(telegram, pool, tmp_path, SETTINGS) as h:
        assert await keyboard_of(h, PRIVATE, "/stats") == [[{
            "text": "📊 My page", "web_app": {"url": f"{SETTINGS.url}?page=u{PRIVATE}"}}]]
        direct = f"https://t.me/{BOT_USERNAME}/tap24?startapp="
        assert await keyboard_of(h, GROUP, "/stats") == [[{
            "text": "📊 My page", "url": f"{direct}u{PRIVATE}"}]]
        assert await keyboard_of(h, GROUP, "/top") == [[{
            "text": "📊 The group's page", "url": f"{direct}g{GROUP}"}]]
        assert await keyboard_of(h, GROUP, "/top week") == [[{
            "text": "📊 The group's page", "url": f"{direct}g{GROUP}"}]]
        assert await keyboard_of(h, PRIVATE, "/top") == []  # a private chat is no group


async def test_a_group_needs_the_short_name(telegram: BotApiEmulator, pool: SolverPool,
                                            tmp_path: Path):
    bare = WebappSettings(url=SETTINGS.url, port=0)
    async with paged(telegram, pool, tmp_path, bare) as h:
        assert await keyboard_of(h, GROUP, "/stats") == []
        assert await keyboard_of(h, GROUP, "/top") == []
        assert await keyboard_of(h, PRIVATE, "/stats") == [[{
            "text": "📊 My page", "web_app": {"url": f"{SETTINGS.url}?page=u{PRIVATE}"}}]]


async def test_no_mini_app_no_page(telegram: BotApiEmulator, pool: SolverPool, tmp_path: Path):
    async with paged(telegram, pool, tmp_path, None) as h:
        for chat, command in ((PRIVATE, "/stats"), (GROUP, "/stats"), (GROUP, "/top")):
            assert await keyboard_of(h, chat, command) == [], command
