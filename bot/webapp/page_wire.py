"""What a round's page and the Mini App say to each other, as JSON: play's description of a
round's page as the page draws it, what the page sent back as the text a typed answer would be,
and the verdict it is told. Pure: no request, no round, no service; the Face (bot.webapp.server)
does the asking and the judging."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from bot.play.outcomes import Closed, Edited, Marked, Outcome, Said
from bot.play.round.page import Combine, Form, Guess, Page, Tiles
from bot.text.html_text import visible_text
from bot.text.i18n import texts_for
from bot.webapp.refusal import Refusal
from bot.webapp.steps import (
    DividesByZero,
    NotWhole,
    StepError,
    chosen,
    read_guess,
    read_steps,
    rebuild,
)


def answer_text(form: Form, hand: tuple, body: dict[str, Any]) -> str:
    """What the page sent as the text a typed answer would be: the expression of the tile the
    steps leave (every tile used) or the page chose (any tile), or the number guessed;
    Refusal (400) when it is none."""
    try:
        if isinstance(form, Guess):
            return read_guess(body.get("guess"))
        steps = read_steps(body.get("steps"))
        tile = rebuild(hand, steps, form.whole) if form.every else \
            chosen(hand, steps, body.get("tile"), form.whole)
    except NotWhole as error:
        raise Refusal(HTTPStatus.BAD_REQUEST, str(error), "not_whole") from None
    except DividesByZero as error:
        raise Refusal(HTTPStatus.BAD_REQUEST, str(error), "zero") from None
    except StepError as error:
        raise Refusal(HTTPStatus.BAD_REQUEST, str(error), "unreadable") from None
    return tile.text


def page_json(page: Page) -> dict[str, Any]:
    """Play's page description as the page reads it."""
    puzzle, form = page.puzzle, page.form
    shown: dict[str, Any] = {"tiles": list(puzzle.numbers), "target": puzzle.target} \
        if isinstance(puzzle, Tiles) else \
        {"heads": list(puzzle.heads), "dice": [list(roll) for roll in puzzle.dice],
         "scores": [list(row) for row in puzzle.scores]}
    answer: dict[str, Any] = {"kind": "combine", "every": form.every, "whole": form.whole} \
        if isinstance(form, Combine) else \
        {"kind": "guess", "low": form.low, "high": form.high, "guesses": form.guesses}
    script = texts_for(page.language).script  # the digits and direction the chat's messages use
    return {"title": page.title, "language": page.language, "seconds_left": page.seconds_left,
            "puzzle": shown, "answer": answer, "words": dict(page.words),
            "direction": "rtl" if script.right_to_left else "ltr", "digits": script.digits}


def verdict(outcome: Outcome | None, expression: str, right: bool) -> dict[str, Any]:
    """What the page is told: right (the answer won the round) or not, and the bot's own words
    for it (plain text)."""
    if outcome is None:
        text = ""  # held back by the throttle: the page says so in its words
    elif isinstance(outcome, Closed):
        text = outcome.head
    elif isinstance(outcome, Edited):  # the deal's status: the page says it in its own words
        text = outcome.notice
    elif isinstance(outcome, Marked | Said):
        text = outcome.text
    else:
        text = getattr(outcome, "text", "")
    return {"right": right, "expression": expression, "text": visible_text(text),
            "held": outcome is None}
