"""Make 10: four digits 0..9, each used once with + − × ÷ and brackets, to make exactly 10.
Rated, played in tournaments (one hand for every group), a daily puzzle of its own, its round's
page tiles as 24's."""

from __future__ import annotations

from bot.play.games.game import Game
from bot.play.games.make10 import asking
from bot.play.games.make10.daily import DAILY
from bot.play.games.make10.rules import MakeTen
from bot.play.games.make10.words import MakeTenWords
from bot.play.rules.scale import GameScale

GAME = Game(MakeTen(), MakeTenWords(), place=40, command="make10", read=asking.read,
            usage=asking.USAGE, seconds=60.0, seconds_choices=(30, 60, 90, 120),
            seconds_setting="MAKE10_SECONDS",
            tournaments=True, scale=GameScale(60.0, 0.0, 1.5, 0.05, 0.02), daily=DAILY)
