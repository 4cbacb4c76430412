"""What the games decide, as plain values: a puzzle as a round holds it, a deal with its analysis,
the options a player asked for, and the verdict on an answer — a sum type the round service and
the words match on, never a string of kinds. No words here and no behaviour."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from bot.play.rules import feedback


class Puzzle(Protocol):
    """What the rules read of a round: its hand (numbers, or rolls of dice), target and level. A
    round's record (bot.store.records.Round) is one, without the games knowing the store."""

    @property
    def hand(self) -> tuple: ...

    @property
    def target(self) -> int: ...

    @property
    def level(self) -> str: ...


@dataclass(frozen=True)
class Analysis:
    """What a round's hints, end and win show, worked out once when it is dealt: the distinct
    solutions (24) and what hints give from them (feedback.hint_plan: the steps that teach, the
    answer last; or, when none but the answer does, the numbers that go together), the nearest
    value and an expression for it (where the closest wins), and whatever else of its own a game
    reveals (`table`: its words know its type; the optimal table of a game of rolls)."""

    solutions: tuple[str, ...] = ()
    steps: tuple[feedback.Step, ...] = ()
    best: tuple[int, str] | None = None
    table: object | None = None
    together: tuple[int, ...] = ()


@dataclass(frozen=True)
class Together:
    """A hint that shows no step: the numbers of the hand that go together (a hand whose every
    step but the answer leaves a number as it was). It costs no points."""

    numbers: tuple[int, ...]


Hint = feedback.Step | Together


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
class PlayOptions:
    """What a player asked for with a game's command (None: the game's default)."""

    level: str | None = None
    count: int | None = None
    target: int | None = None
    large: int | None = None


# --- the verdict on an answer ----------------------------------------------------------------

@dataclass(frozen=True)
class Right:
    """The answer wins: it makes the target, or is the best total (a game of rolls).
    `expression` as shown (none for a guess), `value` where the game shows one."""

    expression: str = ""
    value: str = ""

    @property
    def shown(self) -> str:
        """What a result names as the winning answer."""
        return self.expression or self.value


@dataclass(frozen=True)
class Near:
    """A valid answer short of the target: a value where the closest wins, a guess of a total; it
    may still win at the end where the closest answer wins."""

    expression: str
    value: str
    distance: int


@dataclass(frozen=True)
class WrongValue:
    """Every number used once, but the value is not the target."""

    value: str


@dataclass(frozen=True)
class WrongNumbers:
    """The hand's numbers misused: `missing` left out, `extra` used beyond the hand."""

    missing: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()


@dataclass(frozen=True)
class DivisionByZero:
    pass


@dataclass(frozen=True)
class BadStep:
    """A step that is not a whole number above zero, where every step must be one (`reason`:
    negative, zero, fraction); no `step` when no single step can be named."""

    step: str | None
    reason: str


Reason = WrongValue | WrongNumbers | DivisionByZero | BadStep


@dataclass(frozen=True)
class Wrong:
    """A readable attempt that does not win, and why."""

    expression: str
    reason: Reason


@dataclass(frozen=True)
class Unreadable:
    """Not an answer at all (an explicit one is told so): the reader's error code (the
    solver's parse errors; `not_total` and `total_range` for a guess of a total) and its fields."""

    error: str
    fields: tuple[tuple[str, object], ...] = ()

    @staticmethod
    def of(error: str, fields: Mapping[str, object] | None = None) -> Unreadable:
        return Unreadable(error, tuple((fields or {}).items()))

    @property
    def params(self) -> dict[str, object]:
        return dict(self.fields)


@dataclass(frozen=True)
class Ignored:
    """A plain message that is no attempt at this puzzle (chatter): nothing to say."""


Verdict = Right | Near | Wrong | Unreadable | Ignored
IGNORED = Ignored()
