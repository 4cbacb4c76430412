"""What the games hand the round service: a deal with its analysis, a verdict on an answer, the
answers a round's end shows, and the options a player asked for. Plain values, no behaviour."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.play.games import feedback
from solver.yahtzee import YahtzeeResult


@dataclass(frozen=True)
class Analysis:
    """What a round's hints, end and win show, worked out once when it is dealt: the distinct
    solutions (24) and the steps of the simplest, the nearest value and an expression for it
    (Countdown), the optimal table (Yahtzee)."""

    solutions: tuple[str, ...] = ()
    steps: tuple[feedback.Step, ...] = ()
    best: tuple[int, str] | None = None
    table: YahtzeeResult | None = None


@dataclass(frozen=True)
class Deal:
    """A new puzzle, made in the pool: what the round stores, and its analysis."""

    game: str
    hand: tuple
    target: int
    level: str
    points: int
    analysis: Analysis | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Verdict:
    """What an answer is, decided in the pool.

    kind: right | close (a valid Countdown answer short of the target) | wrong_value |
    wrong_numbers | division_by_zero | not_whole | unreadable | ignore (a plain message that is
    no attempt at this puzzle). `error` and `params` carry the solver's error code for unreadable
    answers, `missing`/`extra` the misused numbers.
    """

    kind: str
    expression: str = ""
    value: str = ""
    distance: int | None = None
    error: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    missing: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()


@dataclass(frozen=True)
class Revealed:
    """A puzzle's answers at a round's end: the text, and whether it lists every solution (a
    result that does not offers to page through them all)."""

    text: str
    complete: bool = True


@dataclass(frozen=True)
class PlayOptions:
    """What a player asked for with /play or /countdown (None: the game's default)."""

    level: str | None = None
    count: int | None = None
    target: int | None = None
    large: int | None = None
