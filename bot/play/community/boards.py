"""What /top asks for, as play takes it: which board (all time, the last 7 days, today's daily
puzzle), of this chat or of every chat, in one game or all (the face reads it from what was
typed: bot.telegram.grammar)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoardAsk:
    """period: "all" (all time), "week" (rounds won in the last 7 days), "daily" (today's
    daily puzzle, every chat's, its game only) or "rating" (the season's skill in a rated game)."""

    period: str = "all"
    everywhere: bool = False
    game: str | None = None
