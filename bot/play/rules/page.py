"""The shapes a round's page is drawn in and answered with (the Mini App): numbers on tiles or a
table of rolls, combined step by step or guessed and sealed. A game's rules say which of them its
page is (`Rules.page`); the round's page (bot.play.round.page) words it. Pure data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tiles:
    """Numbers on tiles, and the number the answer aims at."""

    numbers: tuple[int, ...]
    target: int


@dataclass(frozen=True)
class Rolls:
    """Rolls of dice in a table: each roll's dice (sorted, as the chat's table shows them) and
    what it scores under each column's head (0: nothing)."""

    heads: tuple[str, ...]
    dice: tuple[tuple[int, ...], ...]
    scores: tuple[tuple[int, ...], ...]


Puzzle = Tiles | Rolls


# --- how an answer is made there ------------------------------------------------------------


@dataclass(frozen=True)
class Combine:
    """Tiles combined two at a time with + − × ÷, each step making one tile of two. `every`:
    the answer is the one tile left once every tile is used, and must make the target exactly;
    else any tile on the board may be submitted, and the closest valid answer wins. `whole`:
    every step must make a whole number above zero (a step that would not is refused)."""

    every: bool
    whole: bool


@dataclass(frozen=True)
class Guess:
    """A number typed and sealed: a guess from `low` to `high`, `guesses` of them each. The
    page says what the chat is told of a guess and nothing more (never how close it is)."""

    low: int
    high: int
    guesses: int


Form = Combine | Guess
