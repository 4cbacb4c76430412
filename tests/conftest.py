"""Shared test helpers: where the public reference data lives, when it is present."""

from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator

import pytest

from tests.fake_telegram import FakeTelegram

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
DATA = ROOT / "tests" / "data"


@pytest.fixture
def shared_dir() -> pathlib.Path:
    """../shared beside the repository; tests that need it are skipped without it."""
    if not (SHARED / "data").is_dir():
        pytest.skip("../shared is not present")
    return SHARED


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegram]:
    """The Bot API emulator on 127.0.0.1, for the bot's handler and end-to-end tests."""
    server = FakeTelegram()
    await server.start()
    yield server
    await server.stop()
