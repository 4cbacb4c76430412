"""The words of Krypto: its deal and how to answer are said by its catalog lines (`deal_krypto`,
`answer_how_krypto`), as every game of the target exactly words them, and so is its end
(bot.play.words.exact)."""

from __future__ import annotations

from bot.play.games.krypto.rules import NAME
from bot.play.words.exact import ExactWords


class KryptoWords(ExactWords):
    name = NAME
