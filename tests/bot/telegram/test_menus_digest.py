"""The menus are sent at a start only when they changed: a restart on the same database sends
none of the ninety calls, a change (or another bot, or a start whose calls failed) sends them
all again, and a refusal never stops the start (bot.telegram.menus.publish_menus)."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from bot.runtime.pool import SolverPool
from bot.telegram.app import COMMANDS
from bot.telegram.menus import Menus, menu_languages
from bot.telegram.routes import Command
from demo.emulator import BotApiEmulator
from demo.emulator.records import TelegramError
from tests.bot.conftest import make_config, running
from tests.postgres import BACKENDS, emptied, migrated_sqlite

MENU_CALLS = ("setMyCommands", "setMyDescription", "setMyShortDescription")
LANGUAGES = len(menu_languages())  # Telegram's codes with a menu of their own (15)
EVERY_CALL = LANGUAGES * (4 + 2)  # four scopes' lists and two descriptions a language


@pytest.fixture(params=BACKENDS)
async def config(request: pytest.FixtureRequest, telegram: BotApiEmulator, tmp_path: Path):
    """A bot's configuration over a fresh database of each backend, started as often as the
    test likes (one at a time)."""
    config = make_config(telegram, tmp_path / "bot.sqlite3")
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        await emptied(url)
        return dataclasses.replace(config, database_url=url)
    await migrated_sqlite(config.database_path)
    return config


def sent(telegram: BotApiEmulator) -> int:
    """The menu calls the bot made so far; counted, then forgotten."""
    count = sum(1 for method, _, _ in telegram.calls if method in MENU_CALLS)
    telegram.calls.clear()
    return count


async def start_and_stop(telegram: BotApiEmulator, pool: SolverPool, config) -> int:
    """One start of the bot, answering a /start before it stops; its menu calls."""
    async with running(telegram, pool, config) as h:
        await h.send(77, {"id": 77, "is_bot": False, "first_name": "Ann"}, "/start",
                     kind="private")
        assert any(m.chat_id == 77 for m in h.telegram.sent), "the bot answers once started"
        bot_id = h.app.bot.id
        digest = await h.stores.menus.menu_digest(bot_id)
    assert digest == Menus(COMMANDS).digest() or digest is None
    return sent(telegram)


async def test_a_restart_on_the_same_database_sends_no_menu(
        telegram: BotApiEmulator, pool: SolverPool, config):
    assert await start_and_stop(telegram, pool, config) == EVERY_CALL
    menus, descriptions = dict(telegram.menus), dict(telegram.descriptions)
    assert await start_and_stop(telegram, pool, config) == 0
    assert await start_and_stop(telegram, pool, config) == 0
    assert telegram.menus == menus and telegram.descriptions == descriptions  # as Telegram kept


async def test_changed_menus_are_sent_again_and_noted(
        telegram: BotApiEmulator, pool: SolverPool, config):
    async with running(telegram, pool, config) as h:
        bot_id = h.app.bot.id
        # what an older release set: another digest, noted for this bot
        await h.stores.menus.note_menus(bot_id, "an older release's menus", 1.0)
        # this bot's own digest noted for another bot (another token on this database)
        await h.stores.menus.note_menus(bot_id + 1, Menus(COMMANDS).digest(), 1.0)
    sent(telegram)
    assert await start_and_stop(telegram, pool, config) == EVERY_CALL
    assert await start_and_stop(telegram, pool, config) == 0


async def test_a_refused_menu_call_neither_stops_the_start_nor_is_noted(
        telegram: BotApiEmulator, pool: SolverPool, config, monkeypatch, caplog):
    async def refused(params: dict) -> bool:
        raise TelegramError(400, "Bad Request: description is too long")

    monkeypatch.setattr(telegram, "api_setmydescription", refused)
    with caplog.at_level(logging.WARNING, logger="bot.telegram.menus"):
        assert await start_and_stop(telegram, pool, config) == EVERY_CALL  # and it answered
    assert "could not set the command menus" in caplog.text
    assert "description is too long" in caplog.text.lower()
    monkeypatch.undo()
    # nothing was noted: the next start sends every call again, then none
    assert await start_and_stop(telegram, pool, config) == EVERY_CALL
    assert await start_and_stop(telegram, pool, config) == 0


def listed(name: str, alone: bool = False, offered: frozenset[str] = frozenset({"groups"})
           ) -> Command:
    async def handler(_update: object, _context: object) -> None:
        """Never called: the menus only read the command."""
    return Command((name,), handler, alone=alone, offered=offered)


def test_the_digest_changes_with_anything_a_menu_shows():
    base = [listed("play"), listed("top")]
    digest = Menus(base).digest()
    assert Menus(list(base)).digest() == digest  # the same menus, the same digest
    assert Menus(base[:1]).digest() != digest  # a command gone
    assert Menus([base[1], base[0]]).digest() != digest  # another order
    assert Menus([listed("play", alone=True), base[1]]).digest() != digest  # ephemeral now
    assert Menus([listed("play", offered=frozenset({"private"})), base[1]]).digest() != digest
    assert Menus(COMMANDS).digest() != digest


def test_the_digest_covers_the_words(monkeypatch):
    """A line or a description reworded in any one language sends the menus again."""
    from bot.telegram import menus

    digest = Menus(COMMANDS).digest()
    real = menus.texts_for

    def reworded(language: str):
        texts = real(language)
        if language != "uk":
            return texts
        return lambda key, **kw: "new words" if key == "bot_short_description" \
            else texts(key, **kw)

    monkeypatch.setattr(menus, "texts_for", reworded)
    assert Menus(COMMANDS).digest() != digest
