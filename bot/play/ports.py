"""The timers the game services need, as a port: the services say *when* something is due in a
chat's topic; the Telegram side (bot.telegram.jobs) decides *how* (PTB's JobQueue), and a test
hands in a fake it moves by hand.

One alarm of each kind per chat and topic: setting one replaces that topic's alarm of that kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store.records import Place

ROUND_END = "round"  # a round's time is up
NEXT_DEAL = "match"  # a match deals its next round
WARNING = "warn"  # a match round's "30 s left" notice
KINDS = (ROUND_END, NEXT_DEAL, WARNING)


@dataclass(frozen=True)
class Alarm:
    """Something due in a chat's topic (0: no topic): its kind, and the round it is about."""

    kind: str
    chat_id: int
    round_id: int | None = None
    topic: int = 0

    @property
    def place(self) -> Place:
        return (self.chat_id, self.topic)


class Scheduler(Protocol):
    def set(self, alarm: Alarm, seconds: float) -> None:
        """Ring `alarm` in `seconds` (now, if not positive), replacing the alarm of that kind
        in the same chat and topic."""

    def cancel(self, kind: str, chat_id: int, topic: int = 0) -> None:
        """Drop the topic's alarm of that kind, if one is set."""

    def pending(self, kind: str, chat_id: int, topic: int = 0) -> Alarm | None:
        """The topic's alarm of that kind that has not rung yet."""
