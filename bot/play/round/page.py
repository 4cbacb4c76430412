"""What a round's own page shows and how it is answered there, for a face that draws the puzzle
itself (the Mini App): the puzzle's shape, the form an answer takes, the time left and the
page's words in a language. Play decides all of it, so that the face knows no game: it draws
tiles or a table of rolls, and turns taps or a typed number into the text a typed answer would
be, which the round service judges as one.

It lives beside the round service rather than with a game's words: it is a view of the open
round for a face, as `showing` is for the chat (what a round shows beside its words), and half
of it is a rule (which tiles an answer may use, whether a step must be whole), not a word.
Each game's rules give its page's puzzle and form (`Rules.page`, shapes of bot.play.rules.page).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.play.games import GAMES
from bot.play.rules.page import Combine, Form, Guess, Puzzle, Rolls, Tiles
from bot.store.records import Round
from bot.text.html_text import visible_text
from bot.text.i18n import Texts

__all__ = ["Combine", "Form", "Guess", "Page", "Puzzle", "Rolls", "Tiles", "describe", "form_of",
           "page_words", "word"]


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


def form_of(record: Round) -> Form:
    """How the round is answered on its page."""
    return GAMES[record.game].rules.page(record.hand, record.target)[1]


def describe(record: Round, texts: Texts, now: float) -> Page:
    """The round's page at `now`, worded in `texts`' language."""
    puzzle, form = GAMES[record.game].rules.page(record.hand, record.target)
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

