"""What the tournament store hands back: plain frozen records of a tournament, the groups in
it, its rounds and each group's deal of them, and the standings. Both backends return these
(bot.store.sql.tournaments reads them from rows), so play never sees a database row."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# What a group's join came to: in it now; in it before; too late to fit (the tournament had its
# most groups); or in another tournament not over (one at a time: the database refused it).
Joined = Literal["joined", "already", "full", "elsewhere"]
# What a chat's follow came to: following now; following before; refused for the tournament's
# bound on followers, or for the chat's on tournaments followed at once; the tournament over.
Followed = Literal["followed", "already", "full", "too_many", "over"]


@dataclass(frozen=True)
class Tournament:
    """A tournament: its terms (`level` a level, or "mix"), where it was made, and its state
    (status open | running | done | cancelled; `next_at`: when its schedule acts next)."""

    id: int
    code: str
    name: str
    game: str
    level: str
    rounds: int
    seconds: float
    starts_at: float
    chat_id: int
    created_by: int | None
    lang: str
    created_at: float
    status: str
    ended_at: float | None
    next_at: float


@dataclass(frozen=True)
class Entrant:
    """A group in a tournament (`playing` False: skipped from then on, the bot was removed)."""

    chat_id: int
    topic: int
    title: str | None
    joined_by: int | None
    lang: str
    playing: bool


@dataclass(frozen=True)
class TournamentRound:
    """A round of a tournament: the hand every group is dealt; live (refused to everyone)
    until it closed in every group."""

    tournament_id: int
    number: int
    game: str
    hand: tuple
    target: int
    level: str
    points: int
    status: str
    opened_at: float
    closed_at: float | None


@dataclass(frozen=True)
class Deal:
    """A group's deal of a round: claimed (`dealing`), its round dealt (`dealt`), or not to be
    dealt (`skipped`); `shown_at`: the board after the round was sent to the group."""

    tournament_id: int
    number: int
    chat_id: int
    round_id: int | None
    status: str
    claimed_at: float
    dealt_at: float | None
    shown_at: float | None


@dataclass(frozen=True)
class Seat:
    """What a group's round is in a tournament: which tournament, which of its rounds."""

    tournament_id: int
    number: int
    chat_id: int


@dataclass(frozen=True)
class PlayerStanding:
    """A player's tournament so far: the points and wins of the rounds they won (for the group
    `chat_id`), and their seconds, each from their group's deal."""

    user_id: int
    name: str
    chat_id: int
    points: int
    wins: int
    seconds: float


@dataclass(frozen=True)
class GroupStanding:
    """A group's score: the points of its best players (BEST_PLAYERS), their seconds the tie's
    break; `scorers`: how many players counted."""

    chat_id: int
    title: str | None
    points: int
    seconds: float
    scorers: int


@dataclass(frozen=True)
class Solve:
    """A round won in a group: who, for which group, how many seconds after its deal."""

    number: int
    user_id: int
    name: str
    chat_id: int
    seconds: float
