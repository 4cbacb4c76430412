"""The Yahtzee puzzle: thirteen rolls of five dice, each scored in a category of its own; guess
the best total in three sealed guesses. Each group's dice are its own: no tournaments."""

from __future__ import annotations

from bot.play.games.game import Game, Given
from bot.play.games.yahtzee import asking
from bot.play.games.yahtzee.rules import NAME, Yahtzee
from bot.play.games.yahtzee.words import YahtzeeWords, given_text
from bot.play.rules.feats import RoundAchievement, right_in
from solver.yahtzee import best_assignment

GAME = Game(Yahtzee(), YahtzeeWords(), place=30, command="yahtzee", read=asking.read,
            usage=asking.USAGE, seconds=300.0,
            seconds_choices=(120, 180, 300), seconds_setting="YAHTZEE_SECONDS",
            help_topics=("yahtzee", "快艇骰子"), given=Given(best_assignment, given_text),
            achievements=(RoundAchievement("yahtzee_optimum", right_in(NAME)),))
