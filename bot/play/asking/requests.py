"""What a command asks of play once read: a round of a game, a hand to solve, dice to score."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.play.rules import PlayOptions


@dataclass(frozen=True)
class DealRequest:
    """A round asked for: which game, with what options."""

    game: str
    options: PlayOptions = field(default_factory=PlayOptions)


@dataclass(frozen=True)
class SolveRequest:
    """A hand to solve: every distinct way to the target, or (`closest`: subset rules, whole
    steps) the nearest value the numbers make."""

    numbers: tuple[int, ...]
    target: int
    closest: bool = False

    @property
    def puzzle(self) -> tuple:
        """What a solver is given: the numbers and the target."""
        return self.numbers, self.target


@dataclass(frozen=True)
class DiceRequest:
    """Thirteen rolls of five dice to score at their best."""

    rolls: tuple[tuple[int, ...], ...]

    @property
    def puzzle(self) -> tuple:
        """What a solver is given: the rolls."""
        return (list(self.rolls),)


Asked = DealRequest | SolveRequest | DiceRequest
