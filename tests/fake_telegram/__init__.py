"""The `telegram` fixture: the demo's Bot API emulator (demo.emulator) served on 127.0.0.1 for
the bot's handler and end-to-end tests (imported by the conftests of the tests that talk to it, so
that the solver's tests never import python-telegram-bot)."""

from collections.abc import AsyncIterator

import pytest

from demo.emulator import BotApiEmulator

__all__ = ["telegram"]


@pytest.fixture
async def telegram() -> AsyncIterator[BotApiEmulator]:
    """The Bot API emulator on 127.0.0.1."""
    server = BotApiEmulator()
    await server.start()
    yield server
    await server.stop()
