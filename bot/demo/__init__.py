"""The demo: the real bot against a local Bot API emulator, played from a terminal. Only
`bot.__main__` imports it, and only when the demo runs."""

from bot.demo.terminal import main

__all__ = ["main"]
