"""Reading the digits of every script: a Persian keyboard types ۳, an Arabic one ٣, a Hindi one ३,
a Chinese input method full-width ３. Each is the digit 3 to a player, so each is read as 3.

What counts as a digit is Unicode's own answer: a decimal digit (general category Nd) that is a
script's plain digit, i.e. one NFKC leaves alone. Styled digits (mathematical bold 𝟑, superscripts,
circled numbers) are refused by the parser instead, and a numeral that is not a decimal digit
(Chinese 三, Ethiopic ፫, Roman Ⅻ) is named as such, never guessed at.
"""

from __future__ import annotations

import unicodedata
from functools import cache

# full-width forms, what Chinese and Japanese input methods type, and their ASCII twins
FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: ord(" ")}


@cache
def script_digit(ch: str) -> str | None:
    """The ASCII digit a script's own decimal digit stands for ("۳" → "3"); None for anything
    else, styled digits included."""
    if ch.isascii() or unicodedata.category(ch) != "Nd":
        return None
    if unicodedata.normalize("NFKC", ch) != ch:
        return None  # 𝟑 and its kind: a style, not a script
    return str(unicodedata.decimal(ch))


def is_numeral(ch: str) -> bool:
    """A character that names a number without being a digit the bot reads: 三, ፫, Ⅻ, ½."""
    return not ch.isascii() and script_digit(ch) is None and \
        unicodedata.numeric(ch, None) is not None


def plain_digits(text: str) -> str:
    """Full-width characters as ASCII and every script's decimal digits as ASCII digits, so
    "۸/(۳−۸/۳)" and "٣ ٨ ٣ ٨" read as their ASCII twins; the rest as it is. Digits of two scripts
    may share a number ("1۲" is 12): the value is what each digit says."""
    folded = text.translate(FULL_WIDTH)
    if folded.isascii():
        return folded
    return "".join(script_digit(ch) or ch for ch in folded)
