"""A verdict's kind in one word, for tests that table many answers: the sum type's variant, and
for a wrong answer its reason."""

from __future__ import annotations

from bot.play.rules.records import (
    BadStep,
    DivisionByZero,
    Ignored,
    Near,
    Right,
    Unreadable,
    Verdict,
    Wrong,
    WrongNumbers,
    WrongValue,
)

REASONS = {WrongValue: "wrong_value", WrongNumbers: "wrong_numbers",
           DivisionByZero: "division_by_zero", BadStep: "not_whole"}
KINDS = {Right: "right", Near: "close", Unreadable: "unreadable", Ignored: "ignore"}


def kind(verdict: Verdict) -> str:
    if isinstance(verdict, Wrong):
        return REASONS[type(verdict.reason)]
    return KINDS[type(verdict)]
