"""The taps of the page turned into the expression a typed answer would be.

The page starts with the round's numbers as tiles; each step names two current tiles by their
index and an operation, and the two tiles are replaced by one tile at the end of the row. The
server rebuilds the expression from the steps (never trusting a string the page made), with the
brackets the order of the steps needs, and the exact value it has, so the answer is judged by
the same path as a typed one. Where every tile must be used, the answer is the one tile left;
where it need not, the page names the tile it submits (`chosen`). Where steps must be whole, a
step that makes anything but a whole number above zero is refused (`NotWhole`), as the game's
rules refuse it in a typed answer. A typed guess is read as the number it is (`read_guess`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from solver.digits import plain_digits

OPERATIONS = ("+", "-", "*", "/")
MAX_STEPS = 16  # a hand has at most 6 numbers: 5 steps; more is not from the page
GUESS = re.compile(r"[0-9]{1,6}")  # a guess as the page's number field sends it
# how tightly a tile's expression binds: a number, a product or quotient, a sum or difference
ATOM, PRODUCT, SUM = 3, 2, 1
BINDS = {"+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT}


class StepError(ValueError):
    """The steps do not make an expression of the hand (a tile that is not there, an unknown
    operation, a division by zero); the message says which step, in English, for the log."""


class DividesByZero(StepError):
    """A step divides by a tile worth zero (a zero dealt, or one a step made): the page's own
    check says so before sending; a request that did not is told the same."""


class NotWhole(StepError):
    """A step makes a fraction, zero or a negative number where every step must be a whole
    number above zero."""


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


def read_guess(raw: object) -> str:
    """A guess as the page posts it (a whole number, or its digits) as the text a typed guess
    would be; anything else is refused. Whether it is in range is the game's to say."""
    if type(raw) is int and 0 <= raw < 10 ** 6:
        return str(raw)
    if isinstance(raw, str) and GUESS.fullmatch(digits := plain_digits(raw).strip()):
        return str(int(digits))
    raise StepError("a guess is a whole number of at most six digits")


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
            raise DividesByZero("division by zero")
        value = left.value / right.value
    return Tile(value, f"{left_text}{op}{right_text}", binds)


def play(numbers: tuple[int, ...] | list[int], steps: list[Step], whole: bool = False
         ) -> list[Tile]:
    """The tiles left after the steps, each step taking two different current tiles (`whole`:
    and making a whole number above zero)."""
    tiles = [Tile(Fraction(n), str(n)) for n in numbers]
    for number, step in enumerate(steps, 1):
        if not (0 <= step.left < len(tiles) and 0 <= step.right < len(tiles)) or \
                step.left == step.right:
            raise StepError(f"step {number} names a tile that is not there")
        try:
            made = combine(tiles[step.left], step.op, tiles[step.right])
        except StepError as error:  # the same kind of refusal, naming the step
            raise type(error)(f"step {number}: {error}") from None
        if whole and (made.value.denominator != 1 or made.value <= 0):
            raise NotWhole(f"step {number} makes {made.value}, not a whole number above zero")
        tiles = [t for i, t in enumerate(tiles) if i not in (step.left, step.right)] + [made]
    return tiles


def rebuild(numbers: tuple[int, ...] | list[int], steps: list[Step], whole: bool = False
            ) -> Tile:
    """The one tile the steps end with: every number of the hand used once."""
    tiles = play(numbers, steps, whole)
    if len(tiles) != 1:
        raise StepError(f"{len(tiles)} tiles are left, not one")
    return tiles[0]


def chosen(numbers: tuple[int, ...] | list[int], steps: list[Step], tile: object,
           whole: bool = False) -> Tile:
    """The tile the page submits, of those the steps leave: the one named by its index (any
    of them, where an answer need not use every number), or the only one left."""
    tiles = play(numbers, steps, whole)
    if tile is None and len(tiles) == 1:
        return tiles[0]
    if type(tile) is not int or not 0 <= tile < len(tiles):
        raise StepError(f"tile {tile!r} is not one of the {len(tiles)} left")
    return tiles[tile]


assert rebuild([8, 3, 8, 3], [Step(2, "/", 3), Step(1, "-", 2), Step(0, "/", 1)]).text \
    == "8/(3-8/3)"
assert chosen([100, 6, 3, 75, 50, 25], [Step(0, "+", 1), Step(4, "*", 0)], 3, whole=True).text \
    == "(100+6)*3"
