"""Every script's decimal digits read by the solver as the digits they are; styled digits,
numerals that are not digits, and signs that only look like division named. (The bot's commands:
tests/bot/telegram/test_grammar_digits.py; this folder runs without the bot,
`make test-solver-alone`.)"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver import MistakenSignError, NumeralError, ParseError, parse
from solver.digits import is_numeral, plain_digits, script_digit

# the zero of each script a keyboard types: Arabic-Indic, Persian, Devanagari, Bengali, Thai,
# Myanmar, Tamil, Gujarati, Khmer, Mongolian, N'Ko, Adlam, full-width
ZEROS = ("٠", "۰", "०", "০", "๐", "၀", "௦", "૦", "០", "᠐", "߀", "𞥐", "０")
EVERY_DIGIT = [chr(c) for c in range(0x110000)
               if unicodedata.category(chr(c)) == "Nd" and not chr(c).isascii()]


def in_script(text: str, zero: str) -> str:
    """ASCII digits written in the script whose zero is `zero`."""
    return "".join(chr(ord(zero) + int(ch)) if ch.isdigit() else ch for ch in text)


@pytest.mark.parametrize("zero", ZEROS)
def test_an_answer_in_any_script_is_the_same_answer(zero):
    assert parse(in_script("8/(3-8/3)", zero)) == parse("8/(3-8/3)")
    assert parse(in_script("(10 + 2) × 2", zero)) == parse("(10+2)*2")


def test_the_persian_arabic_and_hindi_keyboards_mixed_in_one_answer():
    assert parse("۸ ÷ (٣ − 8/३)") == parse("8/(3-8/3)")
    assert parse("1۲ + ١٢") == parse("12+12")  # digits of two scripts in one number
    assert parse("(٢+٢)٭٦") == parse("(2+2)*6")  # the Arabic star multiplies


def test_every_decimal_digit_unicode_has_is_read_or_named_as_styled():
    """Each of Unicode's decimal digits: a script's own (or a full-width one) is read as its
    value; a styled one (𝟑) refused as styled, never read as another number."""
    for ch in EVERY_DIGIT:
        if unicodedata.normalize("NFKC", ch) == ch or "０" <= ch <= "９":
            assert parse(f"{ch}+1") == parse(f"{unicodedata.decimal(ch)}+1"), ch
        else:
            with pytest.raises(ParseError) as caught:
                parse(f"{ch}+1")
            assert caught.value.code == "styled_character", ch


@pytest.mark.parametrize("numeral", ["三", "፫", "Ⅼ", "௰", "十"])
def test_a_numeral_that_is_not_a_digit_is_named(numeral):
    with pytest.raises(NumeralError) as caught:
        parse(f"{numeral}*8")
    assert caught.value.params == {"character": numeral}
    assert is_numeral(numeral) and script_digit(numeral) is None


@pytest.mark.parametrize("sign", ["٪", "%", "٫", "⁒"])
def test_a_sign_that_only_looks_like_division_is_named(sign):
    with pytest.raises(MistakenSignError) as caught:
        parse(f"8{sign}(3-8/3)")
    assert caught.value.params == {"character": sign}


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=30))
def test_folding_keeps_the_length_and_only_changes_digits(text):
    folded = plain_digits(text)
    assert len(folded) == len(text)
    for before, after in zip(text, folded, strict=True):
        assert before == after or after.isascii()
