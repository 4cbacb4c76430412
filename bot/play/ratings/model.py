"""The rating scale and what one response says about it: a solve-time model with censoring.

Players and hands share one scale per game. With Δ = rating − difficulty, the chance that a
player has solved a hand by t seconds is logistic(Δ + shape·ln(t / reference)), `reference`
being the game's usual round length: Δ is the log-odds of solving within that time, and a
shorter or longer round moves every chance the same way. `shape` (how fast the chance grows
with time) is the scale's one global parameter, learned from play like the ratings. A
response's evidence is the gradient and curvature of its log-likelihood in Δ and in the shape;
the update (update.py) takes one Newton step on them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.play.ratings.records import ClosedRound, Response

# Where the shape starts. People either see a hand's trick soon or not at all, so the chance
# grows slowly: in the 4nums.com data the curve through each hand's two facts (half its solvers
# by its mean time, all of them, its solve rate, by 120 s) has shape 0.95 at the median hand
# (0.76 to 1.25 for 80 % of hands). Players in a chat, slower (they type), may differ: play
# moves it (update.py), and the chances the adaptive deals aim at are only as good as it is.
SHAPE = 1.0
SHAPE_UNCERTAINTY = 0.5
SHAPE_DRIFT = 0.005  # per round: the shape stays learnable if the players change
SHAPES = (0.3, 5.0)  # the shape stays within these
# A wrong answer is evidence of failing within the round, counted at this weight once a round:
# a fraction of a failure, since the player may still have found it (and often does).
WRONG_WEIGHT = 0.5
# Times below this many seconds count as this: a right answer typed in 0.2 s was prepared.
MIN_SECONDS = 1.0


@dataclass(frozen=True)
class GameScale:
    """What the scale of a game is measured against."""

    reference_seconds: float  # Δ = 0 means a chance of 1/2 of solving within this time
    player_mean: float  # where a new player starts
    player_uncertainty: float  # a new player's standard deviation
    player_drift: float  # standard deviation a player's skill may move by per response
    hand_drift: float  # the same for a hand (its difficulty hardly moves)


# The usual round lengths (bot/play/round/rounds.py), fixed here: they define the scale, and a
# chat's own round length enters each response through its deadline.
GAMES = {
    "24": GameScale(120.0, 0.0, 1.5, 0.05, 0.02),
    "countdown": GameScale(60.0, 0.0, 1.5, 0.05, 0.02),
}


@dataclass(frozen=True)
class Evidence:
    """Gradient and information (minus the second derivative) of a response's log-likelihood,
    in Δ and in the shape."""

    gradient: float
    information: float
    shape_gradient: float
    shape_information: float


def scale_of(game: str) -> GameScale:
    """The scale of a rated game; ValueError for a game without ratings (Yahtzee)."""
    try:
        return GAMES[game]
    except KeyError:
        raise ValueError(f"{game!r} has no ratings") from None


def logistic(x: float) -> float:
    """1 / (1 + e^-x), without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-min(x, 40.0)))
    z = math.exp(max(x, -40.0))
    return z / (1.0 + z)


def log_time(seconds: float, reference: float) -> float:
    return math.log(max(seconds, MIN_SECONDS) / reference)


def solve_chance(delta: float, seconds: float, reference: float, shape: float = SHAPE) -> float:
    """The chance of having solved by `seconds` at Δ = rating − difficulty."""
    return logistic(delta + shape * log_time(seconds, reference))


def evidence(response: Response, delta: float, closed: ClosedRound, reference: float,
             shape: float) -> Evidence:
    """What one player's response says, at Δ and the shape before the round.

    Solved at t: the density of solving at t, gradient 1 − 2F(t) in Δ — fast is good, slow is
    bad for whoever was expected to be fast. Not solved: survival to the time they were seen
    trying, gradient −F(c); the race's losers are censored at the winner's time (they stopped
    then; a late time says more than an early one), a time-out at the deadline, and a pass
    (giving up) counts as not solving within the deadline. A wrong answer adds a weighted
    failure within the deadline.
    """
    if response.solved_at is not None:
        x = log_time(response.solved_at, reference)
        f = logistic(delta + shape * x)
        spread = 2.0 * f * (1.0 - f)
        found = Evidence(1.0 - 2.0 * f, spread, x * (1.0 - 2.0 * f) + 1.0 / shape,
                         x * x * spread + 1.0 / (shape * shape))
    else:
        stop = closed.deadline if response.passed_at is not None else \
            min(closed.ended_at, closed.deadline)
        found = _failed(delta, log_time(stop, reference), shape, 1.0)
    if not response.wrong:
        return found
    wrong = _failed(delta, log_time(closed.deadline, reference), shape, WRONG_WEIGHT)
    return Evidence(found.gradient + wrong.gradient, found.information + wrong.information,
                    found.shape_gradient + wrong.shape_gradient,
                    found.shape_information + wrong.shape_information)


def _failed(delta: float, x: float, shape: float, weight: float) -> Evidence:
    """weight × log(1 − F) at log time x: not solved by then."""
    f = logistic(delta + shape * x)
    spread = weight * f * (1.0 - f)
    return Evidence(-weight * f, spread, -weight * x * f, x * x * spread)


def predicted_chance(rating: float, uncertainty: float, difficulty: float, seconds: float,
                     reference: float, shape: float = SHAPE) -> float:
    """The chance of solving within `seconds`, averaged over the rating's uncertainty (the
    probit approximation: an uncertain player's chances lean toward 1/2)."""
    spread = math.sqrt(1.0 + math.pi * uncertainty * uncertainty / 8.0)
    return logistic((rating - difficulty + shape * log_time(seconds, reference)) / spread)


assert logistic(0.0) == 0.5 and solve_chance(0.0, 120.0, 120.0) == 0.5
assert solve_chance(0.0, 60.0, 120.0) < 0.5 < solve_chance(0.0, 240.0, 120.0)
