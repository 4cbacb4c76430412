"""The timers the game services need, as a port: the services say *when* something is due in a
chat; the Telegram side (bot.telegram.jobs) decides *how* (PTB's JobQueue), and a test hands in
a fake it moves by hand.

One alarm of each kind per chat: setting one replaces the chat's alarm of that kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

ROUND_END = "round"  # a round's time is up
NEXT_DEAL = "match"  # a match deals its next round
WARNING = "warn"  # a match round's "30 s left" notice
KINDS = (ROUND_END, NEXT_DEAL, WARNING)


@dataclass(frozen=True)
class Alarm:
    """Something due in a chat: its kind, the chat, and the round it is about (if any)."""

    kind: str
    chat_id: int
    round_id: int | None = None


class Scheduler(Protocol):
    def set(self, alarm: Alarm, seconds: float) -> None:
        """Ring `alarm` in `seconds` (now, if not positive), replacing the chat's alarm of
        that kind."""

    def cancel(self, kind: str, chat_id: int) -> None:
        """Drop the chat's alarm of that kind, if one is set."""

    def pending(self, kind: str, chat_id: int) -> Alarm | None:
        """The chat's alarm of that kind that has not rung yet."""
