"""Reading the answers people type in chats into expression trees, without `eval`.

Accepts ASCII and Unicode operators, full-width characters and every script's decimal digits
(solver.digits); every way an answer can be unreadable raises its own ParseError subclass, with a
message a player understands. A superscript or a circled number is refused, never folded into a
different number; a numeral that is not a digit (三, ፫) and a sign that only looks like division
(٪, ٫) are named.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from solver.digits import is_numeral, plain_digits
from solver.errors import (
    EmptyExpressionError,
    ImplicitMultiplicationError,
    MissingOperandError,
    MistakenSignError,
    NumeralError,
    StyledCharacterError,
    TooDeepError,
    TooLongError,
    UnaryMinusError,
    UnbalancedParenthesesError,
    UnknownCharacterError,
)
from solver.expr import BinOp, Expr, Num

MAX_LENGTH = 200
MAX_DEPTH = 30
SYMBOLS = {"×": "*", "·": "*", "x": "*", "X": "*", "÷": "/", "−": "-", "–": "-", "—": "-",
           "∗": "*", "⋅": "*", "╳": "*", "٭": "*", "∕": "/"}
# what Arabic and Persian keyboards type that looks like ÷ or / but is not: the percent sign and
# the decimal separator (٫, which Persian also writes as /), and the Latin percent sign
MISTAKEN = frozenset("٪%٫⁒")
SPACES = " \t\n\r"
READABLE = frozenset("0123456789+-*/()") | SYMBOLS.keys()  # what a character could be read as


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "num", "op", "(", ")"
    text: str
    position: int


def normalise(text: str) -> str:
    """Full-width and every script's digits to ASCII, then the operator look-alikes people type,
    and any space as ' '.

    Not NFKC: it would read `3²` as 32 and `⑳` as 20. A character that Unicode folds into a digit
    or a sign, other than the full-width forms, raises StyledCharacterError instead.
    """
    plain = []
    for ch in plain_digits(text):
        ch = SYMBOLS.get(ch, ch)
        if ch in MISTAKEN:
            raise MistakenSignError(f"{ch!r} is not division: divide with / or ÷.", character=ch)
        if not ch.isascii():
            ch = _non_ascii(ch)
        plain.append(ch)
    return "".join(plain)


def _non_ascii(ch: str) -> str:
    """A space as ' '; a styled digit or sign, a numeral and a mistaken sign refused; any other
    character left to the tokenizer."""
    if ch.isspace():
        return " "
    folded = unicodedata.normalize("NFKC", ch)
    if is_numeral(ch) and not any(c in READABLE for c in folded):
        raise NumeralError(f"{ch!r} is a numeral, not a digit: type digits.", character=ch)
    if folded != ch and any(c in READABLE for c in folded):
        raise StyledCharacterError(
            f"{ch!r} is not a plain {folded!r}: type plain digits, + - * / and parentheses.",
            character=ch, plain=folded)
    return ch


def tokenize(text: str) -> list[Token]:
    """Split normalised text into numbers, operators and parentheses."""
    tokens: list[Token] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in SPACES:
            i += 1
        elif ch.isdigit() and ch.isascii():
            start = i
            while i < len(text) and text[i].isdigit() and text[i].isascii():
                i += 1
            tokens.append(Token("num", text[start:i], start))
        elif ch in "+-*/":
            tokens.append(Token("op", ch, i))
            i += 1
        elif ch in "()":
            tokens.append(Token(ch, ch, i))
            i += 1
        else:
            raise UnknownCharacterError(
                f"I can't read {ch!r}: use numbers, + - * / and parentheses.", character=ch)
    return tokens


class _Parser:
    """Recursive descent: sum := product (('+'|'-') product)*, product := atom (('*'|'/') atom)*."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def parse(self) -> Expr:
        expr = self.sum()
        token = self.peek()
        if token is not None:
            if token.kind == ")":
                raise UnbalancedParenthesesError("There is a ')' without its '('.")
            raise ImplicitMultiplicationError(
                "Write every operation: use * between numbers or parentheses, e.g. 2*(3+4).")
        return expr

    def sum(self) -> Expr:
        expr = self.product()
        while (token := self.peek()) is not None and token.kind == "op" and token.text in "+-":
            self.pos += 1
            expr = BinOp(token.text, expr, self.product())
        return expr

    def product(self) -> Expr:
        expr = self.atom()
        while (token := self.peek()) is not None and token.kind == "op" and token.text in "*/":
            self.pos += 1
            expr = BinOp(token.text, expr, self.atom())
        return expr

    def atom(self) -> Expr:
        token = self.peek()
        if token is None:
            raise MissingOperandError("The expression stops before an operation has its number.")
        if token.kind == "num":
            self.pos += 1
            after = self.peek()
            if after is not None and after.kind == "(":
                raise ImplicitMultiplicationError(
                    "Write every operation: use * before '(', e.g. 2*(3+4).")
            return Num(int(token.text))
        if token.kind == "(":
            return self.group()
        if token.kind == "op" and token.text == "-":
            raise UnaryMinusError("Negative numbers are not allowed: each number is used as dealt.")
        if token.kind == ")":
            raise MissingOperandError("Something is missing before ')'.")
        raise MissingOperandError(f"{token.text!r} needs a number on each side.")

    def group(self) -> Expr:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TooDeepError(f"Too many nested parentheses (at most {MAX_DEPTH}).")
        self.pos += 1
        expr = self.sum()
        closing = self.peek()
        if closing is None or closing.kind != ")":
            if closing is None:
                raise UnbalancedParenthesesError("A '(' is never closed.")
            raise ImplicitMultiplicationError(
                "Write every operation: use * between numbers or parentheses, e.g. 2*(3+4).")
        self.pos += 1
        self.depth -= 1
        after = self.peek()
        if after is not None and after.kind in ("num", "("):
            raise ImplicitMultiplicationError(
                "Write every operation: use * after ')', e.g. (1+2)*(3+4).")
        return expr


def parse(text: str) -> Expr:
    """The expression tree of an answer; raises a ParseError subclass when it can't be read."""
    if len(text) > MAX_LENGTH:
        raise TooLongError(f"That is too long (at most {MAX_LENGTH} characters).",
                           limit=MAX_LENGTH)
    tokens = tokenize(normalise(text))
    if not tokens:
        raise EmptyExpressionError("There is no expression to read.")
    opened = 0
    for token in tokens:
        opened += {"(": 1, ")": -1}.get(token.kind, 0)
        if opened < 0:
            raise UnbalancedParenthesesError("There is a ')' without its '('.")
    if opened > 0:
        raise UnbalancedParenthesesError("A '(' is never closed.")
    return _Parser(tokens).parse()
