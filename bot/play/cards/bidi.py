"""Which way each character of a line runs: the Unicode Bidirectional Algorithm (UAX #9) for one
line of plain text without explicit embeddings (a card's text is cleaned of them), so that a
line drawn in several fonts, run by run, reads as one drawn in one font would.

The rules kept: the line's direction is its first letter's (P2, P3), else the card's; a sign
between two digits joins them ("2026-11-24", "06:12:05", "1,634": W4), and so does a currency or
number sign beside them ("#328": W5); digits after a Latin letter read as Latin (W7); a stretch of
spaces and signs takes the direction of what is on both sides of it when they agree, digits
counting as right to left there, and the line's otherwise (N1, N2); then the levels (I1, I2) and
the reversal (L2). Libraqm does the same inside each run it is given.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

STRONG_RTL = {"R", "AL"}
NUMBER = {"EN", "AN"}
JOINING = {"ES", "CS"}  # one between two numbers joins them (W4)
NUMBER_SIGN = {"ET"}  # next to a number, part of it (W5)
MARKS = {"NSM"}  # takes the class of what it marks (W1)


def kinds(text: str) -> list[str]:
    """Each character as "R" (right to left), "L" (left to right), "N" (a number) or "-" (a
    space or sign: neutral), before numbers and neutrals are resolved."""
    out: list[str] = []
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in MARKS or char in ("\u200c", "\u200d"):
            out.append(out[-1] if out else "-")
        elif kind in STRONG_RTL:
            out.append("R")
        elif kind == "L":
            out.append("L")
        elif kind in NUMBER:
            out.append("N")
        else:
            out.append("-")
    return out


def is_rtl(text: str, default: bool) -> bool:
    """The line's direction: its first letter's, else `default` (P2, P3)."""
    return next((kind == "R" for kind in kinds(text) if kind in "RL"), default)


def _numbers(text: str, found: list[str]) -> None:
    """W4, W5: signs that belong to a number become part of it."""
    classes = [unicodedata.bidirectional(char) for char in text]
    for at in range(1, len(found) - 1):
        if classes[at] in JOINING and found[at - 1] == "N" and found[at + 1] == "N":
            found[at] = "N"
    for at, kind in enumerate(classes):  # a run of number signs touching a number
        if kind in NUMBER_SIGN and found[at] == "-":
            end = at
            while end < len(found) and classes[end] in NUMBER_SIGN:
                end += 1
            if (at > 0 and found[at - 1] == "N") or (end < len(found) and found[end] == "N"):
                found[at:end] = ["N"] * (end - at)


def levels(text: str, rtl: bool) -> list[int]:
    """The embedding level of each character (even: left to right) in a line of direction
    `rtl`."""
    found = kinds(text)
    _numbers(text, found)
    strong = "R" if rtl else "L"
    for at, kind in enumerate(found):  # W7: digits after a Latin letter are Latin
        if kind in "RL":
            strong = kind
        elif kind == "N" and strong == "L":
            found[at] = "L"
    at = 0
    while at < len(found):  # N1, N2: neutrals between like sides take their side
        if found[at] != "-":
            at += 1
            continue
        end = at
        while end < len(found) and found[end] == "-":
            end += 1
        before = _side(found[at - 1]) if at > 0 else ("R" if rtl else "L")
        after = _side(found[end]) if end < len(found) else ("R" if rtl else "L")
        found[at:end] = [before if before == after else ("R" if rtl else "L")] * (end - at)
        at = end
    base = 1 if rtl else 0
    return [base + _raise(base, kind) for kind in found]


def _side(kind: str) -> str:
    return "R" if kind in ("R", "N") else "L"


def _raise(base: int, kind: str) -> int:
    """I1, I2."""
    if base == 0:
        return {"L": 0, "R": 1, "N": 2}[kind]
    return 0 if kind == "R" else 1


def order(levels: Sequence[int]) -> list[int]:
    """The indexes of the items in the order they are drawn, left to right (L2)."""
    out = list(range(len(levels)))
    odd = [level for level in levels if level % 2]
    if not odd:
        return out
    for level in range(max(levels), min(odd) - 1, -1):
        at = 0
        while at < len(out):
            if levels[out[at]] < level:
                at += 1
                continue
            end = at
            while end < len(out) and levels[out[end]] >= level:
                end += 1
            out[at:end] = out[at:end][::-1]
            at = end
    return out


assert levels("abc", False) == [0, 0, 0] and levels("אב 12", True) == [1, 1, 1, 2, 2]
assert order([0, 1, 1, 0]) == [0, 2, 1, 3] and order([1, 2, 2, 1]) == [3, 1, 2, 0]
