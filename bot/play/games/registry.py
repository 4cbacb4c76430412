"""The registry of games: every folder of bot/play/games that makes a `Game` (its `GAME`) is a
game the bot plays, found here at import, in the order of their `place`; every other part of the
bot reads the games from here. Adding a game is adding its folder (and its catalogs' lines):
no file here, nor anywhere else, names it."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from bot.play.games.game import Game
from bot.runtime.config import Config

FOLDER = Path(__file__).parent


def found_games() -> list[Game]:
    """Each game folder's `Game`, in the order of their places."""
    games = []
    for module in pkgutil.iter_modules([str(FOLDER)]):
        if module.ispkg:
            made = getattr(importlib.import_module(f"{__package__}.{module.name}"), "GAME", None)
            if isinstance(made, Game):
                games.append(made)
    return sorted(games, key=lambda game: game.place)


def registered(games: list[Game]) -> dict[str, Game]:
    """The games by name; two folders naming one game, or one command or setting twice, are
    refused here, at import, rather than one of them silently lost."""
    for fact in ("name", "command", "seconds_setting"):
        values = [getattr(game, fact) for game in games]
        if twice := sorted({value for value in values if values.count(value) > 1}):
            raise ValueError(f"two games have the same {fact}: {', '.join(twice)}")
    return {game.name: game for game in games}


def sole(games: list[Game], fact: str) -> Game:
    """The one game that declares `fact` (the adaptive deals are kept for one game); none or two
    are refused at import."""
    having = [game for game in games if getattr(game, fact) is not None]
    if len(having) != 1:
        raise ValueError(f"one game must declare {fact}, not {len(having)}: "
                         f"{', '.join(game.name for game in having)}")
    return having[0]


GAMES: dict[str, Game] = registered(found_games())
FIRST = next(iter(GAMES.values()))  # the first in place: what /play deals, and a board names
DAILY_GAMES = tuple(game for game in GAMES.values() if game.daily is not None)  # each a daily
DAILY_GAME = DAILY_GAMES[0]  # the daily a bare /daily (and /top daily) is about: first in place
PART_GAMES = tuple(name for name, game in GAMES.items() if game.part_answers)  # part of a hand
ADAPTIVE_GAME = sole(list(GAMES.values()), "adaptive")  # the game dealt for a group's skill


def daily_command(game: str, command: str = "/daily") -> str:
    """The command that shows (and answers) a game's daily (or, `command` /top daily, its
    board): bare for the first daily's game, else followed by the game's word."""
    return command if game == DAILY_GAME.name else f"{command} {game}"


def round_lengths(config: Config) -> dict[str, float]:
    """How long a round of each game lasts: its setting in the environment, or its default."""
    return {name: config.round_length(game.seconds_setting, game.seconds)
            for name, game in GAMES.items()}
