"""The games a chat can play, one folder each (its rules, its words, its `Game`), and the registry
every other part of play reads them from (bot.play.games.registry): no other file names a game."""

from __future__ import annotations

from bot.play.games.game import Game
from bot.play.games.registry import (
    ADAPTIVE_GAME,
    DAILY_GAME,
    DAILY_GAMES,
    FIRST,
    GAMES,
    PART_GAMES,
    daily_command,
    round_lengths,
)

__all__ = ["ADAPTIVE_GAME", "DAILY_GAME", "DAILY_GAMES", "FIRST", "GAMES", "PART_GAMES", "Game",
           "daily_command", "round_lengths"]
