"""The words of the 24 game: its deal and how to answer (its end lists the solutions, as every
game of the target exactly does: bot.play.words.exact)."""

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

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        return texts("answer_how_24" if typing else "answer_how_24_no_typing")
