"""The words of the 24 game: its deal, its end (the first solutions and how many there are), and
how to answer."""

from __future__ import annotations

from bot.play.games.twentyfour.rules import NAME
from bot.play.rules.records import Analysis
from bot.play.words.game import GameWords, Revealed
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts

REVEAL_SHOWN = 5  # solutions a round's end lists (Show all solutions pages the rest)


class TwentyFourWords(GameWords):
    name = NAME

    def deal_text(self, round_: Round, texts: Texts) -> str:
        dealt = texts("deal_24", numbers=markup.numbers(round_.hand), target=round_.target,
                      seconds=round(round_.deadline - round_.started_at), points=round_.points,
                      level=texts(f"level_{round_.level}"))
        return "\n".join(filter(None, [dealt, self.every_number_line(round_, texts)]))

    def revealed(self, analysis: Analysis, round_: Round, texts: Texts) -> Revealed:
        found = list(analysis.solutions)
        return Revealed(solutions_text(texts, round_.hand, round_.target, found, REVEAL_SHOWN),
                        complete=len(found) <= REVEAL_SHOWN)

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        return texts("answer_how_24" if typing else "answer_how_24_no_typing")


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
