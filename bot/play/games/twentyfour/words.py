"""The words of the 24 game: its deal, with the hand's level and a line for more than four
numbers; how to answer and its end are worded as every game of the target exactly words them
(bot.play.words.exact)."""

from __future__ import annotations

from bot.play.games.twentyfour.rules import NAME
from bot.play.words.exact import ExactWords
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts


class TwentyFourWords(ExactWords):
    name = NAME

    def deal_text(self, round_: Round, texts: Texts) -> str:
        dealt = texts("deal_24", numbers=markup.numbers(round_.hand), target=round_.target,
                      seconds=round(round_.deadline - round_.started_at), points=round_.points,
                      level=texts(f"level_{round_.level}"))
        return "\n".join(filter(None, [dealt, self.every_number_line(round_, texts)]))
