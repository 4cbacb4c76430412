"""What a rated game's scale is measured against (bot.play.ratings): each game that is rated
declares one in its folder (Game.scale); a game without one is not rated."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameScale:
    """What the scale of a game is measured against."""

    reference_seconds: float  # Δ = 0 means a chance of 1/2 of solving within this time
    player_mean: float  # where a new player starts
    player_uncertainty: float  # a new player's standard deviation
    player_drift: float  # standard deviation a player's skill may move by per response
    hand_drift: float  # the same for a hand (its difficulty hardly moves)
    # a new hand's difficulty from the solver's fixed model of hands of 1..13 (solver.rating);
    # without it (other rules, or a closest answer winning) the game's mean, very uncertain
    fixed_prior: bool = False
