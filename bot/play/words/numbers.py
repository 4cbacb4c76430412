"""The words for how an answer misuses the hand's numbers, shared by the games."""

from __future__ import annotations

from bot.play.rules import feedback
from bot.play.rules.records import WrongNumbers
from bot.text import markup
from bot.text.i18n import Texts


def numbers_text(wrong: WrongNumbers, hand: tuple, texts: Texts) -> str:
    """What an answer does wrong with the hand's numbers, each misuse said exactly: numbers
    the hand lacks, numbers used more often than dealt ("2 is used twice, the hand has one 2"),
    numbers left out."""
    parts = []
    if missing_from_hand := feedback.absent(wrong.extra, hand):
        parts.append(texts("numbers_absent", numbers=texts.listing(
            [f"<code>{n}</code>" for n in missing_from_hand], "list_or")))
    for over in feedback.overused(wrong.extra, hand):
        times = texts("used_twice") if over.used == 2 else texts("used_times", count=over.used)
        key = "overused_single" if over.has == 1 else "overused_several"
        parts.append(texts(key, number=f"<code>{over.number}</code>", times=times,
                           count=over.has))
    if wrong.missing:
        parts.append(texts("numbers_missing", numbers=texts.listing(
            [f"<code>{n}</code>" for n in wrong.missing])))
    problems = texts("list_semicolon").join(parts)
    return texts("wrong_numbers", problems=problems[:1].upper() + problems[1:],
                 numbers=markup.numbers(hand))


def numbers_why(wrong: WrongNumbers, hand: tuple, texts: Texts) -> str:
    """The same, in a few words for the deal's status: "skips 13", "uses 8 twice", "has no 7"."""
    parts = []
    if missing_from_hand := feedback.absent(wrong.extra, hand):
        parts.append(texts("why_absent", numbers=texts.listing(
            [str(n) for n in missing_from_hand])))
    for over in feedback.overused(wrong.extra, hand):
        times = texts("used_twice") if over.used == 2 else texts("used_times", count=over.used)
        parts.append(texts("why_overused", number=over.number, times=times))
    if wrong.missing:
        parts.append(texts("why_skips", numbers=texts.listing([str(n) for n in wrong.missing])))
    return texts("list_comma").join(parts)
