"""The registry of games: every game's folder adds its `Game` here, and every other part of the
bot reads the games from it (by the name a round is stored under, or in this order)."""

from __future__ import annotations

from bot.play.games import countdown, twentyfour, yahtzee
from bot.play.games.game import Game
from bot.runtime.config import Config

GAMES: dict[str, Game] = {game.name: game
                          for game in (twentyfour.GAME, countdown.GAME, yahtzee.GAME)}
FIRST = twentyfour.GAME  # what /play deals, and the game a reply names when none is asked


def round_lengths(config: Config) -> dict[str, float]:
    """How long a round of each game lasts: its setting in the environment, or its default."""
    return {name: config.round_length(game.seconds_setting, game.seconds)
            for name, game in GAMES.items()}
