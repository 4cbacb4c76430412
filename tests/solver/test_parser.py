"""Reading answers as people type them, and refusing, with the right error, what can't be read."""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver import (
    BinOp,
    DivisionByZeroError,
    EmptyExpressionError,
    ImplicitMultiplicationError,
    MissingOperandError,
    Num,
    NumbersMismatchError,
    ParseError,
    TooDeepError,
    TooLongError,
    UnaryMinusError,
    UnbalancedParenthesesError,
    UnknownCharacterError,
    evaluate,
    first_step,
    parse,
    to_text,
)


@pytest.mark.parametrize(
    "text",
    ["8/(3-8/3)", " 8 / ( 3 - 8 / 3 ) ", "8÷(3−8÷3)", "8÷(3–8÷3)", "８/(３-８/３)", "8/（3-8/3）",
     "８÷（３－８÷３）"],
)
def test_spellings_of_the_same_answer(text):
    assert evaluate(text, [3, 3, 8, 8]) == 24
    assert parse(text) == parse("8/(3-8/3)")


@pytest.mark.parametrize("text", ["2×3×4×1", "2·3·4·1", "2x3x4x1", "2X3X4X1", "2*3*4*1"])
def test_multiplication_signs(text):
    assert evaluate(text, [1, 2, 3, 4]) == 24


def test_precedence_and_associativity():
    assert evaluate("2+3*4") == 14
    assert evaluate("8-3-2") == 3
    assert evaluate("8/4/2") == 1
    assert evaluate("1/3") == Fraction(1, 3)
    assert parse("1+2+3") == BinOp("+", BinOp("+", Num(1), Num(2)), Num(3))


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", EmptyExpressionError),
        ("   ", EmptyExpressionError),
        ("1+2" * 70, TooLongError),
        ("(" * 31 + "1" + ")" * 31, TooDeepError),
        ("2+a", UnknownCharacterError),
        ("2.5*4", UnknownCharacterError),
        ("2^3", UnknownCharacterError),
        ("(1+2", UnbalancedParenthesesError),
        ("1+2)", UnbalancedParenthesesError),
        (")1+2(", UnbalancedParenthesesError),
        ("2(3+4)", ImplicitMultiplicationError),
        ("(3+4)2", ImplicitMultiplicationError),
        ("(1+2)(3+4)", ImplicitMultiplicationError),
        ("2 3", ImplicitMultiplicationError),
        ("-3+27", UnaryMinusError),
        ("2*-3", UnaryMinusError),
        ("3+", MissingOperandError),
        ("*3", MissingOperandError),
        ("()", MissingOperandError),
        ("3++4", MissingOperandError),
    ],
)
def test_malformed_answers(text, error):
    with pytest.raises(error) as caught:
        parse(text)
    assert isinstance(caught.value, ParseError)
    assert caught.value.code and str(caught.value)


def test_nesting_up_to_the_limit_is_fine():
    assert evaluate("(" * 30 + "24" + ")" * 30) == 24


def test_division_by_zero_even_when_computed():
    with pytest.raises(DivisionByZeroError):
        evaluate("4/(2-2)")
    with pytest.raises(DivisionByZeroError):
        evaluate("1/(3-8/3*3/8*3)")


def test_numbers_must_be_the_hand():
    with pytest.raises(NumbersMismatchError) as caught:
        evaluate("8*3", [3, 3, 8, 8])
    assert caught.value.missing == [3, 8] and caught.value.extra == []
    with pytest.raises(NumbersMismatchError) as caught:
        evaluate("8*3*1*1", [3, 3, 8, 1])
    assert caught.value.missing == [3] and caught.value.extra == [1]
    assert "1" in str(caught.value)


def test_text_and_hint():
    assert to_text(parse("((1+2))*(3+(4))")) == "(1+2)*(3+4)"
    assert to_text(parse("8/(3-8/3)"), pretty=True) == "8÷(3−8÷3)"
    assert first_step("8/(3-8/3)") == "8/3"
    assert first_step("(1+3)*(2+4)") == "1+3"
