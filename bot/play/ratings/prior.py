"""Where ratings start: a new player at the game's mean, a new hand at the fixed model's
difficulty (solver.rating) mapped onto the players' scale, a game's shape from the human data;
and a hand's level from its difficulty by the same map, so a hand's level before any play is
the fixed model's level."""

from __future__ import annotations

from collections.abc import Sequence

from bot.play.ratings.model import SHAPE, SHAPE_UNCERTAINTY, scale_of
from bot.play.ratings.records import HandRating, PlayerRating, ScaleRating
from solver.rating import CUTS

# The fixed model's difficulty d (bits) of a four-number hand for 24 as a difficulty on the
# scale: BASE + SLOPE·min(d, CAP). Fitted by least squares, once, to the 4nums.com data of the
# 1362 solvable hands of 1..13 (each hand's difficulty for the site's average player, from its
# solve rate and mean time as in model.SHAPE) and rounded; residual spread 0.56, hence
# PRIOR_SPREAD. Past CAP bits the model's few outliers (up to 31 bits) say no more than "very
# hard".
BASE = -4.4
SLOPE = 0.5
CAP = 10.0
PRIOR_SPREAD = 0.6  # four numbers to 24: the fit's residual spread, rounded up
OTHER_SPREAD = 1.0  # five or six numbers, other targets: the model was not fitted there
UNKNOWN_SPREAD = 1.5  # no fixed difficulty (other rules than 24's, or none given): the game's mean
FOUR = 4


def hand_key(hand: Sequence[int], target: int) -> str:
    """A hand's key: its numbers sorted, then its target ("1 4 12 14=24")."""
    return " ".join(map(str, sorted(hand))) + f"={target}"


def as_four(fixed: float, count: int) -> float:
    """A fixed difficulty of a hand of `count` numbers as the four-number difficulty of the same
    level: piecewise linear through 0 and both level cuts (solver.rating.CUTS), slope 1 past
    the hard cut."""
    low, high = CUTS.get(count, CUTS[FOUR])
    low4, high4 = CUTS[FOUR]
    if fixed <= low:
        return fixed * low4 / low
    if fixed <= high:
        return low4 + (fixed - low) * (high4 - low4) / (high - low)
    return high4 + fixed - high


def on_scale(fixed: float, count: int = FOUR) -> float:
    """The fixed model's difficulty of a hand of `count` numbers on the rating scale."""
    return BASE + SLOPE * min(max(as_four(fixed, count), 0.0), CAP)


def hand_prior(game: str, count: int, target: int,
               fixed: float | None) -> tuple[float, float]:
    """A new hand's (difficulty, uncertainty): from the fixed model for 24 (without it, at the
    medium cut: a middling hand, very uncertain); for a game whose rules the fixed model does
    not rate (subset rules, a closest answer winning: GameScale.fixed_prior) the game's mean."""
    scale = scale_of(game)
    if not scale.fixed_prior:
        return scale.player_mean, UNKNOWN_SPREAD
    if fixed is None:
        return on_scale(CUTS[FOUR][0]), UNKNOWN_SPREAD
    spread = PRIOR_SPREAD if count == FOUR and target == 24 else OTHER_SPREAD
    return on_scale(fixed, count), spread


def new_hand(game: str, key: str, now: float, count: int = FOUR, target: int = 24,
             fixed: float | None = None) -> HandRating:
    """A hand's rating at its first deal."""
    difficulty, spread = hand_prior(game, count, target, fixed)
    return HandRating(key, game, difficulty, spread, 0, now)


def new_player(player_id: int, game: str, season: str, now: float) -> PlayerRating:
    """A player's rating before any response: the game's mean, provisional, very uncertain."""
    scale = scale_of(game)
    return PlayerRating(player_id, game, season, scale.player_mean, scale.player_uncertainty,
                        0, now)


def new_scale(game: str, now: float) -> ScaleRating:
    """A game's scale before any round: the shape the 4nums.com data gives (model.SHAPE)."""
    scale_of(game)
    return ScaleRating(game, SHAPE, SHAPE_UNCERTAINTY, 0, now)


LEVEL_CUTS = (on_scale(CUTS[FOUR][0]), on_scale(CUTS[FOUR][1]))  # medium from, hard from


def level_of(difficulty: float) -> str:
    """"easy", "medium" or "hard" for a difficulty on the scale of 24."""
    medium_from, hard_from = LEVEL_CUTS
    if difficulty >= hard_from:
        return "hard"
    return "medium" if difficulty >= medium_from else "easy"


assert as_four(CUTS[6][1], 6) == CUTS[FOUR][1] and as_four(2.0, 4) == 2.0
assert hand_key((12, 1, 14, 4), 24) == "1 4 12 14=24"
