"""What every game's words are made of: the base a game's words subclass (`GameWords`), and the
wording of numbers, places and formulas they share. Each game's own words are
bot.play.games.<game>.words."""

from __future__ import annotations

from bot.play.words.game import GameWords, Revealed

__all__ = ["GameWords", "Revealed"]
