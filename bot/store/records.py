"""What the stores hand back: plain frozen records of rounds, answers, scores and matches.

Every backend returns these same records, so the game services never see a database row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Place = tuple[int, int]
"""Where a round or match is played: the chat's id and its forum topic's (0: no topic)."""


@dataclass(frozen=True, slots=True)
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
    # the terms it was dealt with (None: dealt before migration 15, the chat's settings hold)
    hints_on: bool | None = None
    typing_on: bool | None = None

    @property
    def place(self) -> Place:
        return (self.chat_id, self.topic)


@dataclass(frozen=True)
class OwedClaim:
    """An update's claim that a process holds until what it asks is done (bot.play.guards.once):
    a /play's round is stored only while `owner` still holds it, and storing it settles it in
    the same transaction, so that of the processes given the update, exactly one deals."""

    update_id: int
    owner: int


@dataclass(frozen=True)
class ClaimGone:
    """A round not opened: its update's claim is another process's now (the update was given
    again after this one stalled), and that process answers it."""


@dataclass(frozen=True)
class StarterFull:
    """A round not opened: its starter has `started` rounds open already, the most allowed."""

    started: int


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
class Streak:
    """A streak (/streak): hands of 24 alone, one at a time, until the first not solved;
    `round_id` the hand being played (None between hands), `solved` how many it solved so
    far; status on | missed | stopped."""

    id: int
    user_id: int
    chat_id: int
    round_id: int | None
    solved: int
    lang: str
    started_at: float
    status: str


@dataclass(frozen=True)
class Storm:
    """A storm (/storm): hands of 24 alone against the bot's clock, which runs out at `ends_at`
    (a right answer moves it later, a miss earlier); `round_id` the hand being played (None
    between hands), `solved` and `missed` so far; status on | over | stopped."""

    id: int
    user_id: int
    chat_id: int
    round_id: int | None
    solved: int
    missed: int
    lang: str
    started_at: float
    ends_at: float
    status: str


@dataclass(frozen=True)
class SoloBest:
    """A line of a solo mode's board: a person's best (a storm's hands solved, a streak's
    length) in the board's period."""

    user_id: int
    name: str
    solved: int


@dataclass(frozen=True)
class MatchRound:
    number: int
    round_id: int
    status: str  # the round's: open | won | revealed | expired
    game: str  # the round's game: a match deals its first round's game again


@dataclass(frozen=True)
class MatchScore:
    user_id: int
    name: str
    points: int
    wins: int


# --- ratings (bot/store/sql/ratings.py) ------------------------------------------------------

@dataclass(frozen=True)
class RatingRow:
    """A player's rating in one game and season (`responses`: the rounds rated this season)."""

    user_id: int
    game: str
    season: str
    rating: float
    uncertainty: float
    responses: int
    updated_at: float


@dataclass(frozen=True)
class HandRow:
    """A hand's difficulty in one game (`hand`: its sorted numbers and target, "1 4 12 14=24";
    `numbers`: how many it has)."""

    game: str
    hand: str
    numbers: int
    target: int
    difficulty: float
    uncertainty: float
    responses: int
    updated_at: float


@dataclass(frozen=True)
class ScaleRow:
    """A game's scale: its shape, learned from every rated round."""

    game: str
    shape: float
    uncertainty: float
    rounds: int
    updated_at: float


@dataclass(frozen=True)
class RatingWrite:
    """What one rated round (or daily answer) changes: each row as the update computed it, and
    the step from the value it was computed from. A row that exists gets the step added (so two
    rounds closing at once, sharing a player, both count); one that does not is inserted as
    computed. Each player's responses grow by one, the hand's by `hand_responses`, the scale's
    rounds by one."""

    at: float
    players: tuple[tuple[RatingRow, float], ...]  # (row after, rating step), by user id
    hand: tuple[HandRow, float] | None  # (row after, difficulty step); None: not kept
    hand_responses: int
    scale: tuple[ScaleRow, float]  # (row after, shape step)
    # the shape's bounds, kept by the step's addition too: closes computed from the same shape
    # at once would otherwise add up past them (to zero, which the model divides by)
    shape_bounds: tuple[float, float] = (-math.inf, math.inf)


@dataclass(frozen=True)
class StoredResponse:
    """One answer of a round, as its rating reads it."""

    user_id: int
    correct: bool
    distance: int | None
    at: float


@dataclass(frozen=True)
class RatedPlacing:
    """A player's line on a rating board."""

    rank: int
    user_id: int
    name: str
    rating: float
    uncertainty: float
    responses: int
