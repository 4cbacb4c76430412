"""The tests' fake Telegram: the Bot API emulator of bot/emulator.py under its old names."""

from bot.emulator import BotApiEmulator as FakeTelegram
from bot.emulator import TelegramError

__all__ = ["FakeTelegram", "TelegramError"]
