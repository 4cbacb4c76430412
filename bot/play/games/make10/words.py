"""The words of Make 10: its deal and how to answer are said by its catalog lines (`deal_make10`,
`answer_how_make10`), as every game of the target exactly words them, and so is its end
(bot.play.words.exact)."""

from __future__ import annotations

from bot.play.games.make10.rules import NAME
from bot.play.words.exact import ExactWords


class MakeTenWords(ExactWords):
    name = NAME
