"""What a round's own page shows and how it is answered there, for a face that draws the puzzle
itself (the Mini App): the puzzle's shape, the form an answer takes, the time left and the
page's words in a language. Play decides all of it, so that the face knows no game: it draws
tiles or a table of rolls, and turns taps or a typed number into the text a typed answer would
be, which the round service judges as one.

It lives beside the round service rather than with a game's words: it is a view of the open
round for a face, as `showing` is for the chat (what a round shows beside its words), and half
of it is a rule (which tiles an answer may use, whether a step must be whole), not a word.
Each game's page is a row of PAGES; a game without one has no page (a test says so).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.play.games.countdown import rules as countdown
from bot.play.games.twentyfour import rules as twentyfour
from bot.play.games.yahtzee import rules as yahtzee
from bot.play.games.yahtzee.words import COLUMNS
from bot.store.records import Round
from bot.text.html_text import visible_text
from bot.text.i18n import Texts
from solver.yahtzee import category_score

# --- the puzzle, as the page draws it ---------------------------------------------------------


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


@dataclass(frozen=True)
class Page:
    """One round's page for one person: its title (the game's name), the puzzle, the answer's
    form, the seconds left, the language of `words` (a BCP 47 tag), and the words: plain text
    by name, a `{field}` in one left for the page to fill (a clock, a tile's value)."""

    title: str
    puzzle: Puzzle
    form: Form
    seconds_left: float
    language: str
    words: Mapping[str, str]


# --- each game's page -------------------------------------------------------------------------


def tiles_of(record: Round) -> Tiles:
    return Tiles(tuple(record.hand), record.target)


def rolls_of(record: Round) -> Rolls:
    """The 13 rolls with what each scores in chance and the lower categories, as the deal's
    table has them."""
    dice = tuple(tuple(sorted(roll)) for roll in record.hand)
    return Rolls(tuple(head for head, _ in COLUMNS), dice,
                 tuple(tuple(category_score(roll, column) for _, column in COLUMNS)
                       for roll in dice))


def every_tile(record: Round) -> tuple[Puzzle, Form]:
    return tiles_of(record), Combine(every=True, whole=False)


def closest_tile(record: Round) -> tuple[Puzzle, Form]:
    return tiles_of(record), Combine(every=False, whole=True)


def sealed_total(record: Round) -> tuple[Puzzle, Form]:
    low, high = yahtzee.total_bounds(record.hand)
    return rolls_of(record), Guess(low, high, yahtzee.GUESSES)


PAGES: dict[str, Callable[[Round], tuple[Puzzle, Form]]] = {
    twentyfour.NAME: every_tile,  # every number once, the target exactly
    countdown.NAME: closest_tile,  # some numbers, whole steps, the closest wins
    yahtzee.NAME: sealed_total,  # the best total, guessed and sealed
}


def form_of(record: Round) -> Form:
    """How the round is answered on its page."""
    return PAGES[record.game](record)[1]


def describe(record: Round, texts: Texts, now: float) -> Page:
    """The round's page at `now`, worded in `texts`' language."""
    puzzle, form = PAGES[record.game](record)
    return Page(texts.game(record.game), puzzle, form, max(0.0, record.deadline - now),
                texts.language, page_words(texts, form, puzzle))


# --- the page's words -------------------------------------------------------------------------

COMMON = ("undo", "reset", "submit", "time_left", "time_up", "zero", "not_whole", "over",
          "held", "failed", "forbidden", "not_member", "try_again", "unreadable",
          "guess_label", "answer_away", "answer_exact")
# fields the page fills in itself, left in the words as `{field}`
LEFT_FOR_THE_PAGE = {"time_left": ("time",), "answer_away": ("value", "distance"),
                     "answer_exact": ("value",)}


def word(texts: Texts, name: str, **fields: object) -> str:
    """One of the page's words (`webapp_<name>`), as plain text."""
    kept = {field: "{" + field + "}" for field in LEFT_FOR_THE_PAGE.get(name, ())}
    return visible_text(texts(f"webapp_{name}", **kept, **fields))


def page_words(texts: Texts, form: Form, puzzle: Puzzle) -> dict[str, str]:
    """Every word the page shows, by name: the goal and how to answer as the form says, and
    the rest the same in every game."""
    words = {name: word(texts, name) for name in COMMON}
    target = puzzle.target if isinstance(puzzle, Tiles) else 0
    if isinstance(form, Guess):
        words["goal"] = word(texts, "goal_guess")
        words["help"] = word(texts, "help_guess", guesses=form.guesses, low=form.low,
                             high=form.high)
    elif form.every:
        words["goal"] = word(texts, "goal_every", target=target)
        words["help"] = word(texts, "help_every")
    else:
        words["goal"] = word(texts, "goal_closest", target=target)
        words["help"] = word(texts, "help_closest")
    return words

