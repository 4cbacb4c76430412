"""The 24 game: four (or five, six) cards 1..13, every one used once with + - * / and brackets to
make 24 (or the target asked); dealt by level, rated, played in tournaments."""

from __future__ import annotations

from bot.play.games.game import Game, RatedHands
from bot.play.games.twentyfour import asking
from bot.play.games.twentyfour.daily import DAILY
from bot.play.games.twentyfour.rules import CARDS, LEVEL_POINTS, NAME, TwentyFour
from bot.play.games.twentyfour.words import TwentyFourWords
from bot.play.rules.feats import RoundAchievement, right_in
from bot.play.rules.scale import GameScale

GAME = Game(TwentyFour(), TwentyFourWords(), place=10, command="play", read=asking.read,
            usage=asking.USAGE, seconds=120.0,
            seconds_choices=(60, 120, 180, 300), seconds_setting="ROUND_SECONDS",
            tournaments=True, levels=tuple(LEVEL_POINTS),
            scale=GameScale(120.0, 0.0, 1.5, 0.05, 0.02, fixed_prior=True),
            achievements=(
                RoundAchievement("hard_hand",
                                 lambda close: right_in(NAME)(close) and close.level == "hard"),
                RoundAchievement("five_numbers",
                                 lambda close: right_in(NAME)(close) and close.numbers == 5)),
            daily=DAILY, adaptive=RatedHands(4, CARDS[1], 24, LEVEL_POINTS))
