"""The words every game of "each number once, the target exactly" shares: a hand's distinct
solutions (a round's end, /solve's pages), and the round's end listing the first of them."""

from __future__ import annotations

from bot.play.rules.records import Analysis
from bot.play.words.game import GameWords, Revealed
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts

REVEAL_SHOWN = 5  # solutions a round's end lists (Show all solutions pages the rest)


class ExactWords(GameWords):
    """A round's end: how many distinct solutions the hand has, and the first few; and, unless
    the game says more, its deal (`deal_<name>`: the hand, the target, the round's length and
    points) and how to answer (`answer_how_<name>`, and `_no_typing`) from the catalogs."""

    def deal_text(self, round_: Round, texts: Texts) -> str:
        return texts(f"deal_{self.name}", numbers=markup.numbers(round_.hand),
                     target=round_.target, seconds=round(round_.deadline - round_.started_at),
                     points=round_.points)

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        return texts(f"answer_how_{self.name}" + ("" if typing else "_no_typing"))

    def revealed(self, analysis: Analysis, round_: Round, texts: Texts) -> Revealed:
        found = list(analysis.solutions)
        return Revealed(solutions_text(texts, round_.hand, round_.target, found, REVEAL_SHOWN),
                        complete=len(found) <= REVEAL_SHOWN)


def solutions_text(texts: Texts, hand: tuple[int, ...] | list[int], target: int,
                   found: list[str], shown: int) -> str:
    """The hand, how many distinct solutions it has, and the first `shown` of them."""
    listed = found[:shown]
    lines = [texts("solutions_head", numbers=markup.numbers(hand), target=target,
                   count=texts.count(len(found), len(listed)))]
    lines += [texts.written(f"{markup.code(s)} = {markup.signed(target)}") for s in listed]
    if len(found) > len(listed):
        lines.append(texts("solve_more", count=len(found) - len(listed)))
    return "\n".join(lines)
