"""The registry is what every other part reads of a game: each game's round length comes from
its own setting (checked at start-up as every setting is), and each game's facts hold together."""

from __future__ import annotations

import dataclasses

import pytest

from bot.play.games import ADAPTIVE_GAME, DAILY_GAME, DAILY_GAMES, FIRST, GAMES, round_lengths
from bot.play.games.registry import registered, sole
from bot.runtime.config import Config, ConfigError

TOKEN = {"TELEGRAM_BOT_TOKEN": "1:x"}


def test_each_games_round_length_is_its_own_setting_or_its_default():
    lengths = round_lengths(Config.from_env(TOKEN, env_file=None))
    assert lengths == {name: game.seconds for name, game in GAMES.items()}
    for name, game in GAMES.items():
        asked = round_lengths(Config.from_env({**TOKEN, game.seconds_setting: "77"},
                                              env_file=None))
        assert asked == {**lengths, name: 77.0}, game.seconds_setting


@pytest.mark.parametrize("value", ["soon", "0", "-5"])
def test_a_bad_round_length_is_refused_naming_its_setting(value: str):
    for game in GAMES.values():
        with pytest.raises(ConfigError) as refused:
            round_lengths(Config.from_env({**TOKEN, game.seconds_setting: value},
                                          env_file=None))
        assert game.seconds_setting in str(refused.value) and repr(value) in str(refused.value)


def test_every_game_is_whole():
    """Its rules and words name it alike; its command, setting and help topics are its own."""
    assert FIRST in GAMES.values()
    for attribute in ("command", "seconds_setting"):
        values = [getattr(game, attribute) for game in GAMES.values()]
        assert len(set(values)) == len(values), attribute
    topics = [topic for game in GAMES.values() for topic in game.help_topics]
    assert len(set(topics)) == len(topics)
    for game in GAMES.values():
        assert game.seconds in game.seconds_choices
        assert game.usage.example.startswith(game.start)


def test_two_folders_of_one_game_are_refused_not_one_lost():
    games = list(GAMES.values())
    assert registered(games) == GAMES
    with pytest.raises(ValueError, match="same name: 24"):
        registered([*games, dataclasses.replace(FIRST, command="again",
                                                seconds_setting="AGAIN_SECONDS")])
    other = next(game for game in games if game is not FIRST)
    with pytest.raises(ValueError, match="same command: play"):
        registered([game for game in games if game is not other] +
                   [dataclasses.replace(other, command=FIRST.command)])


def test_the_adaptive_deals_are_one_games():
    """The adaptive deals hold one index of hands: a second game declaring them, or none, is
    refused at import, not half served."""
    games = list(GAMES.values())
    declared = sole(games, "adaptive")
    assert declared is ADAPTIVE_GAME
    other = next(game for game in games if game is not declared)
    assert other.adaptive is None
    with pytest.raises(ValueError, match="one game must declare adaptive, not 2"):
        sole([*games, dataclasses.replace(other, adaptive=declared.adaptive)], "adaptive")
    with pytest.raises(ValueError, match="one game must declare adaptive, not 0"):
        sole([game for game in games if game is not declared], "adaptive")


def test_every_game_that_declares_a_daily_has_one_and_a_bare_daily_is_the_firsts():
    """Each game's daily is its own (its results kept by game): the registry lists every game
    that declares a deck, in place order, and a bare /daily is about the first of them."""
    assert tuple(game for game in GAMES.values() if game.daily is not None) == DAILY_GAMES
    assert DAILY_GAMES[0] is DAILY_GAME and len(DAILY_GAMES) >= 1
    assert [game.place for game in DAILY_GAMES] == sorted(game.place for game in DAILY_GAMES)


def test_the_daily_deals_what_its_game_declares():
    assert DAILY_GAME.daily is not None and DAILY_GAME.daily.target == 24
    assert all(len(hand) == 4 for hand in DAILY_GAME.daily.hands)
    assert ADAPTIVE_GAME.adaptive is not None
    assert set(ADAPTIVE_GAME.adaptive.points) == set(ADAPTIVE_GAME.levels)
