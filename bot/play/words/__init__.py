"""The words of each game, by the game's name (its rules are bot.play.games: they decide, these
say it)."""

from __future__ import annotations

from bot.play.words.countdown import CountdownWords
from bot.play.words.game import GameWords, Revealed
from bot.play.words.twentyfour import TwentyFourWords
from bot.play.words.yahtzee import YahtzeeWords

WORDS: dict[str, GameWords] = {words.name: words
                               for words in (TwentyFourWords(), CountdownWords(), YahtzeeWords())}

__all__ = ["WORDS", "GameWords", "Revealed"]
