"""The taps of the page turned into the expression a typed answer would be.

The page starts with the round's numbers as tiles; each step names two current tiles by their
index and an operation, and the two tiles are replaced by one tile at the end of the row. The
server rebuilds the expression from the steps (never trusting a string the page made), with the
brackets the order of the steps needs, and the exact value it has, so the answer is judged by
the same path as a typed one.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

OPERATIONS = ("+", "-", "*", "/")
MAX_STEPS = 16  # a hand has at most 6 numbers: 5 steps; more is not from the page
# how tightly a tile's expression binds: a number, a product or quotient, a sum or difference
ATOM, PRODUCT, SUM = 3, 2, 1
BINDS = {"+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT}


class StepError(ValueError):
    """The steps do not make an expression of the hand (a tile that is not there, an unknown
    operation, a division by zero); the message says which step, in English, for the log."""


@dataclass(frozen=True)
class Tile:
    """A tile on the page: its exact value, and the expression that makes it."""

    value: Fraction
    text: str
    binds: int = ATOM


@dataclass(frozen=True)
class Step:
    left: int
    op: str
    right: int


def read_steps(raw: object) -> list[Step]:
    """Steps as the page posts them: a list of [left, op, right]; anything else is refused."""
    if not isinstance(raw, list) or len(raw) > MAX_STEPS:
        raise StepError(f"steps must be a list of at most {MAX_STEPS} steps")
    steps = []
    for number, step in enumerate(raw, 1):
        if not (isinstance(step, list) and len(step) == 3
                and all(type(i) is int for i in (step[0], step[2]))
                and step[1] in OPERATIONS):
            raise StepError(f"step {number} is not [tile, operation, tile]")
        steps.append(Step(step[0], step[1], step[2]))
    return steps


def combine(left: Tile, op: str, right: Tile) -> Tile:
    """One tile made of two: the value exact, brackets only where the order needs them."""
    binds = BINDS[op]
    left_text = f"({left.text})" if left.binds < binds else left.text
    # the right side of - and / needs brackets at the same binding too: a-(b+c), a/(b*c)
    tight = right.binds <= binds if op in "-/" else right.binds < binds
    right_text = f"({right.text})" if tight else right.text
    if op == "+":
        value = left.value + right.value
    elif op == "-":
        value = left.value - right.value
    elif op == "*":
        value = left.value * right.value
    else:
        if right.value == 0:
            raise StepError("division by zero")
        value = left.value / right.value
    return Tile(value, f"{left_text}{op}{right_text}", binds)


def play(numbers: tuple[int, ...] | list[int], steps: list[Step]) -> list[Tile]:
    """The tiles left after the steps, each step taking two different current tiles."""
    tiles = [Tile(Fraction(n), str(n)) for n in numbers]
    for number, step in enumerate(steps, 1):
        if not (0 <= step.left < len(tiles) and 0 <= step.right < len(tiles)) or \
                step.left == step.right:
            raise StepError(f"step {number} names a tile that is not there")
        try:
            made = combine(tiles[step.left], step.op, tiles[step.right])
        except StepError as error:
            raise StepError(f"step {number}: {error}") from None
        tiles = [t for i, t in enumerate(tiles) if i not in (step.left, step.right)] + [made]
    return tiles


def rebuild(numbers: tuple[int, ...] | list[int], steps: list[Step]) -> Tile:
    """The one tile the steps end with: every number of the hand used once."""
    tiles = play(numbers, steps)
    if len(tiles) != 1:
        raise StepError(f"{len(tiles)} tiles are left, not one")
    return tiles[0]


assert rebuild([8, 3, 8, 3], [Step(2, "/", 3), Step(1, "-", 2), Step(0, "/", 1)]).text \
    == "8/(3-8/3)"
