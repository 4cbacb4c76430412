"""The ratings' state and inputs as plain frozen records: the rows a store keeps (a player's
rating per game and season, a hand's difficulty per game) and what a closed round shows."""

from __future__ import annotations

from dataclasses import dataclass

PLAYER_PROVISIONAL = 10  # a player is provisional while rated on fewer responses (this season)
HAND_PROVISIONAL = 5  # a hand is provisional while rated on fewer responses


@dataclass(frozen=True)
class PlayerRating:
    """A player's skill in one game and season. `uncertainty`: its standard deviation;
    `count`: the responses rated this season (provisional while few)."""

    player_id: int
    game: str
    season: str
    rating: float
    uncertainty: float
    count: int
    updated_at: float

    @property
    def provisional(self) -> bool:
        return self.count < PLAYER_PROVISIONAL


@dataclass(frozen=True)
class HandRating:
    """A hand's difficulty in one game (hand_key: its sorted numbers and target), on the
    players' scale; `count`: the responses it was rated on (provisional while few)."""

    hand_key: str
    game: str
    difficulty: float
    uncertainty: float
    count: int
    updated_at: float

    @property
    def provisional(self) -> bool:
        return self.count < HAND_PROVISIONAL


@dataclass(frozen=True)
class ScaleRating:
    """A game's scale: its `shape` (how fast the chance of having solved grows with time, see
    model.py), learned from every round of the game, with its standard deviation."""

    game: str
    shape: float
    uncertainty: float
    count: int
    updated_at: float


@dataclass(frozen=True)
class Response:
    """One player's part in a closed round, in seconds from the deal: when they answered
    right (None: never), how many wrong answers they gave, when they passed (None: never)."""

    player_id: int
    solved_at: float | None = None
    wrong: int = 0
    passed_at: float | None = None


@dataclass(frozen=True)
class ClosedRound:
    """What a round showed once closed: its hand, the time it allowed (`deadline`), when it
    closed (`ended_at`: the winner's time, the deadline at a time-out, an early reveal's time)
    and each taking part's response. Everyone who did not solve is taken to have tried until
    `ended_at`; the wiring lists those who answered and the player who dealt it.

    The daily puzzle is a round of one: its deadline the game's usual round length, its
    ended_at the right answer's time (or, for one who gave up, a pass)."""

    game: str
    hand_key: str
    deadline: float
    ended_at: float
    responses: tuple[Response, ...]

    def __post_init__(self) -> None:
        ids = [r.player_id for r in self.responses]
        if len(set(ids)) != len(ids):
            raise ValueError("one response per player")
        if self.deadline <= 0 or self.ended_at < 0:
            raise ValueError("a round's deadline is positive and its end not before its deal")


@dataclass(frozen=True)
class RatingUpdate:
    """The rows a closed round changes: its players', its hand's and its game's scale."""

    players: tuple[PlayerRating, ...]
    hand: HandRating
    scale: ScaleRating
