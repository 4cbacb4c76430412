"""Countdown: six tiles (large and small), a target 101..999, whole-number steps using any of the
tiles at most once; the closest answer at the end wins. Rated, played in tournaments."""

from __future__ import annotations

from bot.play.games.countdown import asking
from bot.play.games.countdown.rules import NAME, Countdown, best
from bot.play.games.countdown.words import CountdownWords, given_text
from bot.play.games.game import Game, Given
from bot.play.rules.feats import RoundAchievement, right_in
from bot.play.rules.scale import GameScale

GAME = Game(Countdown(), CountdownWords(), place=20, command="countdown", read=asking.read,
            usage=asking.USAGE, seconds=60.0,
            seconds_choices=(30, 60, 90, 120), seconds_setting="COUNTDOWN_SECONDS",
            tournaments=True, part_answers=True, scale=GameScale(60.0, 0.0, 1.5, 0.05, 0.02),
            given=Given(best, given_text),
            achievements=(RoundAchievement("countdown_exact", right_in(NAME)),))
