"""Numbers as typed after a command: "3 8 3 8", "1 2 3 4 5 = 100", read as in answers (every
script's decimal digits folded to ASCII first: solver.digits; the Arabic comma separates as the
Latin one does), with what does not read named, and the limits of a hand to solve."""

from __future__ import annotations

import re

from bot.play.asking.requests import SolveRequest
from bot.play.asking.usage import UsageError, shown
from bot.text import markup

SOLVE_MAX_NUMBERS = 6
SOLVE_MAX_NUMBER = 1_000_000
SOLVE_MAX_TARGET = 10**9
CLOSEST_MAX_NUMBER = 1000
CLOSEST_MAX_TARGET = 100_000
WHOLE = re.compile(r"-?[0-9]+")
# a number with a decimal part (3.5; the Arabic decimal sign too): not whole, said so
FRACTIONAL = re.compile(r"-?[0-9]*[.٫][0-9]+|-?[0-9]+[.٫]")
MAX_ARGUMENTS = 400  # characters; well under Python's 4300-digit limit on int()
SHORT_NUMBER = 6  # digits a small count may have (leading zeros too) before int() reads it


def numbers_and_target(text: str) -> tuple[list[int], int | None]:
    """"3 8 3 8", "1 2 3 4 5 = 100": the numbers (negative ones too, for the range check to
    name) and the target after "=", if any; what does not read is named."""
    if len(text) > MAX_ARGUMENTS:
        raise UsageError("too_long", length=len(text), most=MAX_ARGUMENTS)
    left, equals, right = text.partition("=")
    words = [w for w in re.split(r"[\s,،]+", left) if w]
    if odd := next((w for w in words if not WHOLE.fullmatch(w)), None):
        raise UsageError("not_whole" if FRACTIONAL.fullmatch(odd) else "unknown_word",
                         word=shown(odd))
    if not words:
        raise UsageError("no_numbers")
    if not equals:
        return [int(w) for w in words], None
    after = right.split()
    if not after:
        raise UsageError("nothing_after_equals")
    if len(after) == 1 and FRACTIONAL.fullmatch(after[0]):
        raise UsageError("not_whole", word=shown(after[0]))
    if len(after) > 1 or not WHOLE.fullmatch(after[0]):
        raise UsageError("unknown_word", word=shown(" ".join(after)))
    return [int(w) for w in words], int(after[0])


def at_most(numbers: list[int], most: int) -> None:
    if len(numbers) > most:
        raise UsageError("too_many_numbers", most=most)


def within(numbers: list[int], low: int, high: int) -> None:
    if (odd := next((n for n in numbers if not low <= n <= high), None)) is not None:
        raise UsageError("number_range", number=shown(markup.signed(odd)), low=low, high=high)


def target_within(target: int, low: int, high: int) -> None:
    if not low <= target <= high:
        raise UsageError("target_range", target=shown(markup.signed(target)), low=low,
                         high=high)


def closest_request(numbers: list[int], target: int | None, missing: str,
                    rules: str = "") -> SolveRequest:
    """The closest value's limits: up to six numbers 1..1000 and a target 1..100,000 (no
    default; `missing` names the catalog's words for its absence, which say how to give one;
    `rules` the usage line of those limits, when the command's own is not)."""
    try:
        at_most(numbers, SOLVE_MAX_NUMBERS)
        within(numbers, 1, CLOSEST_MAX_NUMBER)
        if target is None:
            raise UsageError(missing)
        target_within(target, 1, CLOSEST_MAX_TARGET)
    except UsageError as error:
        error.rules = error.rules or rules
        raise
    return SolveRequest(tuple(numbers), target, closest=True)
