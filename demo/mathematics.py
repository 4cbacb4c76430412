"""A rich message's mathematics as a terminal shows it: the bot writes each solution as LaTeX
for Telegram's math blocks (bot.play.words.latex: `\\frac{8}{3 - \\frac{8}{3}} = 24`); the demo
prints it as a person writes it, `8÷(3−8÷3) = 24`, in the digits of the message around it.

Only the LaTeX the bot writes is read (numbers, `+ - \\times`, `\\frac{}{}`, `\\left( \\right)`,
one `=`): it becomes the solver's expression tree, written back with the solver's own brackets,
so the text means what the fraction meant. Anything else is shown as it came, never lost.
"""

from __future__ import annotations

import re
import unicodedata

from solver import BinOp, Expr, Num, prettify, to_text

TOKEN = re.compile(r"\s*(\\frac|\\left\(|\\right\)|\\times|\d+|[-+={}])")


class Unread(ValueError):
    """LaTeX the bot does not write."""


def readable(latex: str, like: str = "") -> str:
    """`\\frac{8}{3 - \\frac{8}{3}} = 24` as `8÷(3−8÷3) = 24`, in the digits `like` is written
    in (its first digit's script: Persian digits beside a Persian line); LaTeX the bot does not
    write comes back as it is."""
    try:
        sides = sides_of(latex)
    except Unread:
        return latex
    return in_digits_of(" = ".join(prettify(to_text(side)) for side in sides), like)


def sides_of(latex: str) -> list[Expr]:
    """The expression trees of the LaTeX's sides (one, or either side of each `=`; a side may
    be a negative number, as a target is); Unread for LaTeX the bot does not write."""
    tokens, sides = tokenized(latex), list[Expr]()
    try:
        while True:
            side: Expr
            if tokens[:1] == ["-"] and tokens[1:2] and tokens[1].isdigit():
                side, tokens = Num(-int(tokens[1])), tokens[2:]
            else:
                side, tokens = _sum(tokens)
            sides.append(side)
            if not tokens:
                return sides
            tokens = _expect("=", tokens)
    except IndexError as missing:
        raise Unread(latex) from missing


def tokenized(latex: str) -> list[str]:
    tokens, at = [], 0
    while at < len(latex.rstrip()):
        found = TOKEN.match(latex, at)
        if found is None:
            raise Unread(latex)
        tokens.append(found.group(1))
        at = found.end()
    return tokens


def _sum(tokens: list[str]) -> tuple[Expr, list[str]]:
    tree, tokens = _product(tokens)
    while tokens and tokens[0] in ("+", "-"):
        op = tokens[0]
        right, tokens = _product(tokens[1:])
        tree = BinOp(op, tree, right)
    return tree, tokens


def _product(tokens: list[str]) -> tuple[Expr, list[str]]:
    tree, tokens = _operand(tokens)
    while tokens and tokens[0] == "\\times":
        right, tokens = _operand(tokens[1:])
        tree = BinOp("*", tree, right)
    return tree, tokens


def _operand(tokens: list[str]) -> tuple[Expr, list[str]]:
    first, rest = tokens[0], tokens[1:]
    if first.isdigit():
        return Num(int(first)), rest
    if first == "\\left(":
        inner, rest = _sum(rest)
        return inner, _expect("\\right)", rest)
    if first == "\\frac":
        top, rest = _sum(_expect("{", rest))
        bottom, rest = _sum(_expect("{", _expect("}", rest)))
        return BinOp("/", top, bottom), _expect("}", rest)
    raise Unread(first)


def _expect(token: str, tokens: list[str]) -> list[str]:
    if not tokens or tokens[0] != token:
        raise Unread(token)
    return tokens[1:]


def in_digits_of(text: str, like: str) -> str:
    """ASCII digits written as `like`'s first digit is (unchanged where it has none, or ASCII)."""
    digit = next((c for c in like if c.isdigit()), "0")
    zero = ord(digit) - unicodedata.digit(digit)
    if zero == ord("0"):
        return text
    return "".join(chr(zero + int(c)) if "0" <= c <= "9" else c for c in text)


assert readable(r"\frac{8}{3 - \frac{8}{3}} = 24") == "8÷(3−8÷3) = 24"
assert readable(r"\left(5 - \frac{1}{5}\right) \times 5 = 24", "۳ ۸") == "(۵−۱÷۵)×۵ = ۲۴"
assert readable(r"\sqrt{2}") == r"\sqrt{2}" and readable("1 - 6 = -5") == "1−6 = −5"
