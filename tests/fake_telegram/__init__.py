"""A fake Telegram Bot API server on 127.0.0.1 for tests (see server.py)."""

from tests.fake_telegram.server import FakeTelegram, TelegramError

__all__ = ["FakeTelegram", "TelegramError"]
