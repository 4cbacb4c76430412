"""Reading what a player typed as an answer: whether a plain message may be one at all, the
expression before an "=", and whether a reply to the deal tries to answer it. Cheap: no solver."""

from __future__ import annotations

import re

from bot.play.rules.records import IGNORED, Ignored, Unreadable
from solver import Expr, ParseError, parse
from solver.digits import plain_digits
from solver.parser import normalise

# every script's digits are folded to ASCII first (solver.digits), full-width signs too
LOOKS_LIKE_MATH = re.compile(r"^[0-9\s+\-*/×÷·xX−–()=:٭]+$")
COLONS = str.maketrans({":": "/", "：": "/"})  # 13:2 is a common way to write 13÷2
# two numbers with an operator between them, once parentheses and spaces are gone
JOINED = re.compile(r"(?=([0-9]+)[-+*/]([0-9]+))")


def looks_like_math(text: str) -> bool:
    """Only digits (of any script), operators, parentheses and spaces: a plain message that may
    be an answer."""
    return bool(LOOKS_LIKE_MATH.match(plain_digits(text)))


def unreadable(error: ParseError) -> Unreadable:
    return Unreadable.of(error.code, dict(error.params))


def read_expression(text: str, explicit: bool) -> Expr | Unreadable | Ignored:
    """The expression of an answer, or the verdict when there is none to judge.

    "(3+3)*4 = 24" is fine: what stands before the sign is the answer. A plain message (not
    explicit) that is not arithmetic, or can't be read, is chatter and ignored.
    """
    text = text.strip()
    if "=" in text:
        text = text.split("=", 1)[0].strip()
    if not explicit and not looks_like_math(text):
        return IGNORED
    try:
        return parse(text.translate(COLONS))
    except ParseError as error:
        return unreadable(error) if explicit else IGNORED


def is_attempt(text: str, hand: tuple[int, ...]) -> bool:
    """Whether a reply to the deal tries to answer it: an operator between two numbers of the
    hand ("haha this one is tough" does not; "(8-4)*(3+3)" and "8 ÷ 3 so far" do)."""
    try:
        plain = normalise(text.split("=", 1)[0].translate(COLONS))
    except ParseError:
        return False
    joined = re.sub(r"[\s()]", "", plain)
    dealt = {str(n) for n in hand}
    return any(a in dealt and b in dealt for a, b in JOINED.findall(joined))
