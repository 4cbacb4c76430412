"""Krypto: five cards off a deck of 56 and a sixth as the target, all five used once with
+ − × ÷ and brackets. Rated, played in tournaments (one deal for every group), a daily puzzle of
its own (each day's target its own), its round's page tiles as 24's."""

from __future__ import annotations

from bot.play.games.game import Game
from bot.play.games.krypto import asking
from bot.play.games.krypto.daily import DAILY
from bot.play.games.krypto.rules import Krypto
from bot.play.games.krypto.words import KryptoWords
from bot.play.rules.scale import GameScale

GAME = Game(Krypto(), KryptoWords(), place=50, command="krypto", read=asking.read,
            usage=asking.USAGE, seconds=120.0, seconds_choices=(60, 120, 180, 300),
            seconds_setting="KRYPTO_SECONDS",
            tournaments=True, scale=GameScale(120.0, 0.0, 1.5, 0.05, 0.02), daily=DAILY)
