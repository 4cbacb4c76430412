"""Reading the answers people type in chats into expression trees, without `eval`.

Accepts ASCII and Unicode operators and full-width characters; every way an answer can be unreadable
raises its own ParseError subclass, with a message a player understands.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from solver.errors import (
    EmptyExpressionError,
    ImplicitMultiplicationError,
    MissingOperandError,
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
           "∗": "*", "⋅": "*", "╳": "*"}
SPACES = " \t\n\r\u00a0\u3000"


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "num", "op", "(", ")"
    text: str
    position: int


def normalise(text: str) -> str:
    """Full-width to ASCII (NFKC), then the operator look-alikes people type."""
    folded = unicodedata.normalize("NFKC", text)
    return "".join(SYMBOLS.get(ch, ch) for ch in folded)


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
