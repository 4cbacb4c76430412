"""What an open round records to be written (an answer, a close, a hint, a pass, its deal's
message, its clock started again), and what the table's commit made of it. Plain records: the
aggregate (bot.play.round.open_round) makes them, the table writes them; neither decides anything
here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.play.round.events import RoundClosed


@dataclass(frozen=True)
class AnswerWrite:
    user_id: int
    text: str
    right: bool
    at: float
    distance: int | None
    guesses: int | None = None  # a limited guess: at most this many a player (sealed)


@dataclass(frozen=True)
class CloseWrite:
    status: str  # won | expired | revealed
    at: float
    winner: int | None = None
    answer: str | None = None
    points: int = 0
    win_seconds: float | None = None


@dataclass(frozen=True)
class HintWrite:
    given: int
    points: int


@dataclass(frozen=True)
class PassWrite:
    user_id: int
    at: float


@dataclass(frozen=True)
class MessageWrite:
    message_id: int


@dataclass(frozen=True)
class ClockWrite:
    started_at: float
    deadline: float


Write = AnswerWrite | CloseWrite | HintWrite | PassWrite | MessageWrite | ClockWrite


@dataclass(frozen=True)
class Committed:
    """What the table's commit did: whether the database confirmed the round's close (if one
    was written), and the events to handle."""

    closed: bool = True
    events: list[RoundClosed] = field(default_factory=list)
