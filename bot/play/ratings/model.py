"""The rating scale and what one response says about it: a solve-time model with censoring.

Players and hands share one scale per game. With Δ = rating − difficulty, the chance that a
player has solved a hand by t seconds is logistic(Δ + shape·ln(t / reference)), `reference`
being the game's usual round length: Δ is the log-odds of solving within that time, and a
shorter or longer round moves every chance the same way. `shape` (how fast the chance grows
with time) is the scale's one global parameter, learned from play like the ratings. A
response's evidence is the gradient and curvature of its log-likelihood in Δ and in the shape;
the update (update.py) takes one Newton step on them.

A solve's gradient in Δ, 1 − 2F(t), is negative when it came later than the ratings expected;
a win may not lower the winner (`win_floor`): the gradient is lifted to a floor L, and L is taken
off every solve, L being the floor whose lift costs, on average over the solves the player could
have shown, exactly what it takes, so no rating drifts up for it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.play.games import GAMES as REGISTERED
from bot.play.ratings.records import ClosedRound, Response
from bot.play.rules.scale import GameScale

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
# The solves a player could have shown in a race, in this many slices of their chance (win_floor).
FLOOR_SLICES = 16


# Each rated game's scale, as its folder declares it (Game.scale): its usual round length, fixed
# there, defines the scale, and a chat's own round length enters each response through its
# deadline.
GAMES: dict[str, GameScale] = {name: game.scale for name, game in REGISTERED.items()
                               if game.scale is not None}


@dataclass(frozen=True)
class Evidence:
    """Gradient and information (minus the second derivative) of a response's log-likelihood,
    in Δ and in the shape."""

    gradient: float
    information: float
    shape_gradient: float
    shape_information: float


def scale_of(game: str) -> GameScale:
    """The scale of a rated game; ValueError for a game without ratings."""
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


def win_floor(delta: float, others: Sequence[float], closed: ClosedRound, reference: float,
              shape: float) -> float:
    """The floor L of a solve's gradient at Δ (`others`: the Δs of the round's other players):
    a solve counts max(L, 1 − 2F(t)) − L, never below 0, so a win never lowers the winner, and
    L is the one floor that costs nothing on average — over the solves this player could have
    shown (before the deadline, and before any other player solved), what the lift adds equals
    what taking L off every solve takes. 0 when no solve before the deadline could have had a
    negative gradient (F(d) ≤ ½): the likelihood's own gradient, unchanged.

    Alone (the daily puzzle, a round of one) it is exact: with a = F(d) and m = 2a − 1,
    E[(L − 1 + 2F)₊] = (m + L)²/4 = L·a gives L = 1 − √(1 − m²). In a race each slice of the
    player's chance is weighted by the chance that nobody else had solved by then."""
    chance = solve_chance(delta, closed.deadline, reference, shape)
    if chance <= 0.5:
        return 0.0
    if not others:
        m = 2.0 * chance - 1.0
        return 1.0 - math.sqrt(max(0.0, 1.0 - m * m))
    slices = []
    for k in range(FLOOR_SLICES):
        low, high = chance * k / FLOOR_SLICES, chance * (k + 1) / FLOOR_SLICES
        middle = (low + high) / 2.0
        x = (math.log(middle / (1.0 - middle)) - delta) / shape  # the log time F reaches it
        alone = math.prod(1.0 - logistic(other + shape * x) for other in others)
        slices.append((low, high, alone))
    shown = sum((high - low) * alone for low, high, alone in slices)

    floor = 0.0  # Newton's steps from 0: the balance is convex and falling, so they stay below
    for _ in range(20):  # the root and climb to it
        cut = (1.0 - floor) / 2.0  # the solves above this F are lifted
        above = [(alone, high, max(low, cut)) for low, high, alone in slices if high > cut]
        lifted = sum(alone * ((2 * high - 1 + floor) ** 2 - (2 * start - 1 + floor) ** 2)
                     for alone, high, start in above) / 4.0
        slope = sum(alone * (high - start) for alone, high, start in above) - shown
        step = (lifted - floor * shown) / -slope
        floor += step
        if step < 1e-9:
            break
    return floor


def predicted_chance(rating: float, uncertainty: float, difficulty: float, seconds: float,
                     reference: float, shape: float = SHAPE) -> float:
    """The chance of solving within `seconds`, averaged over the rating's uncertainty (the
    probit approximation: an uncertain player's chances lean toward 1/2)."""
    spread = math.sqrt(1.0 + math.pi * uncertainty * uncertainty / 8.0)
    return logistic((rating - difficulty + shape * log_time(seconds, reference)) / spread)


assert logistic(0.0) == 0.5 and solve_chance(0.0, 120.0, 120.0) == 0.5
assert win_floor(0.0, (), ClosedRound("game", "", 120.0, 1.0, ()), 120.0, 1.0) == 0.0
assert solve_chance(0.0, 60.0, 120.0) < 0.5 < solve_chance(0.0, 240.0, 120.0)
