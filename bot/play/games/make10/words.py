"""The words of Make 10: its deal and how to answer (its end lists the solutions, as every game
of the target exactly does: bot.play.words.exact)."""

from __future__ import annotations

from bot.play.games.make10.rules import NAME
from bot.play.words.exact import ExactWords
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts


class MakeTenWords(ExactWords):
    name = NAME

    def deal_text(self, round_: Round, texts: Texts) -> str:
        return texts("deal_make10", numbers=markup.numbers(round_.hand), target=round_.target,
                     seconds=round(round_.deadline - round_.started_at), points=round_.points)

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        return texts("answer_how_make10" if typing else "answer_how_make10_no_typing")
