"""The tests' fake Telegram: the Bot API emulator of the demo under its old names, and the
`telegram` fixture that serves it (imported by the conftests of the tests that talk to it, so
that the solver's tests never import python-telegram-bot)."""

from collections.abc import AsyncIterator

import pytest

from bot.demo.emulator import BotApiEmulator as FakeTelegram
from bot.demo.emulator import TelegramError

__all__ = ["FakeTelegram", "TelegramError", "telegram"]


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegram]:
    """The Bot API emulator on 127.0.0.1, for the bot's handler and end-to-end tests."""
    server = FakeTelegram()
    await server.start()
    yield server
    await server.stop()
