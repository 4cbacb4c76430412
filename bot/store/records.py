"""What the stores hand back: plain frozen records of rounds, answers, scores and matches.

Every backend returns these same records, so the game services never see a database row.
"""

from __future__ import annotations

from dataclasses import dataclass

Place = tuple[int, int]
"""Where a round or match is played: the chat's id and its forum topic's (0: no topic)."""


@dataclass(frozen=True)
class Round:
    id: int
    chat_id: int
    game: str
    hand: tuple
    target: int
    level: str
    points: int
    lang: str
    message_id: int | None
    started_at: float
    deadline: float
    status: str
    hint_used: bool
    started_by: int | None = None  # the player who dealt it (None for rounds before migration 4)
    topic: int = 0  # the forum topic it was dealt in (0: the chat has none, or its General)

    @property
    def place(self) -> Place:
        return (self.chat_id, self.topic)


@dataclass(frozen=True)
class Stats:
    game: str
    points: int
    wins: int
    rounds_played: int
    fastest_win: float | None
    current_streak: int
    best_streak: int


@dataclass(frozen=True)
class Standing:
    name: str
    points: int
    wins: int


@dataclass(frozen=True)
class BestAnswer:
    user_id: int
    name: str
    text: str
    distance: int
    at: float


@dataclass(frozen=True)
class RightAnswer:
    user_id: int
    text: str
    at: float


@dataclass(frozen=True)
class RaceWinner:
    """Who won a round with a right answer, and when that answer was stored."""

    user_id: int
    name: str
    at: float


@dataclass(frozen=True)
class Result:
    """A closed round as its result message needs it (`exact`: the winner answered right;
    `distance`: how far the winner's answer was, where the closest answer wins)."""

    round: Round
    ended_at: float
    winner_name: str | None
    answer: str | None
    awarded: int
    win_seconds: float | None
    exact: bool
    distance: int | None


@dataclass(frozen=True)
class Match:
    """A match (/match N): `rounds` rounds of 24 in a row; status on | done | stopped."""

    id: int
    chat_id: int
    rounds: int
    started_by: int | None
    lang: str
    started_at: float
    status: str
    topic: int = 0

    @property
    def place(self) -> Place:
        return (self.chat_id, self.topic)


@dataclass(frozen=True)
class MatchRound:
    number: int
    round_id: int
    status: str  # the round's: open | won | revealed | expired


@dataclass(frozen=True)
class MatchScore:
    user_id: int
    name: str
    points: int
    wins: int
