"""One closed round's update: each player's rating, the hand's difficulty and the game's shape.

An Elo step with a K that shrinks as evidence comes in, as Math Garden's is, written as one
Newton step on the round's log-likelihood (model.py) with each side's variance as its K
(Glicko's form): a new, uncertain player or hand moves far, a well-known one little, and the
other side's uncertainty damps the step. Everything is updated from the values before the
round, so the order of the responses does not matter. A solve never lowers its player: its
gradient is lifted to a floor that costs nothing on average (model.win_floor).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

from bot.play.ratings.model import SHAPE_DRIFT, SHAPES, evidence, scale_of, win_floor
from bot.play.ratings.records import (
    ClosedRound,
    HandRating,
    PlayerRating,
    RatingUpdate,
    ScaleRating,
)

MAX_STEP = 1.5  # no single round moves a rating further (a wild response of a new player)


def rate_round(closed: ClosedRound, players: Mapping[int, PlayerRating], hand: HandRating,
               scale: ScaleRating, now: float, floored: bool = True) -> RatingUpdate:
    """The players', the hand's and the scale's rows after a closed round. `players` holds a row
    for each response's player (new players: prior.new_player); `hand` is the round's hand.
    `floored=False` rates a solve by the likelihood alone, as before wins were floored (a slow
    win could lower its player): the benchmark compares the two."""
    game = scale_of(closed.game)
    if (hand.game, hand.hand_key, scale.game) != (closed.game, closed.hand_key, closed.game):
        raise ValueError(f"the round dealt {closed.hand_key} in {closed.game}")
    hand_var = hand.uncertainty ** 2
    pull = weight = 0.0  # the hand's gradient and information, summed over the responses
    shape_pull = shape_weight = 0.0  # the same for the shape
    rated = []
    deltas = {r.player_id: players[r.player_id].rating - hand.difficulty
              for r in closed.responses}
    for response in closed.responses:
        player = players[response.player_id]
        if player.game != closed.game:
            raise ValueError(f"player {player.player_id} is rated in {player.game}")
        var = player.uncertainty ** 2
        delta = deltas[response.player_id]
        said = evidence(response, delta, closed, game.reference_seconds, scale.shape)
        gradient = said.gradient
        if floored and response.solved_at is not None:
            floor = win_floor(delta, [d for p, d in deltas.items() if p != response.player_id],
                              closed, game.reference_seconds, scale.shape)
            gradient = max(floor, gradient) - floor
        damp = 1.0 + (var + hand_var) * said.information
        rated.append(dataclasses.replace(
            player, rating=player.rating + _bounded(var * gradient / damp),
            uncertainty=_spread(var - var * var * said.information / damp, game.player_drift,
                                game.player_uncertainty),
            count=player.count + 1, updated_at=now))
        pull += gradient / (1.0 + var * said.information)
        weight += said.information / (1.0 + var * said.information)
        shape_pull += said.shape_gradient
        shape_weight += said.shape_information
    if not rated:
        return RatingUpdate((), hand, scale)
    step = _bounded(hand_var * pull / (1.0 + hand_var * weight))
    rated_hand = dataclasses.replace(
        hand, difficulty=hand.difficulty - step,
        uncertainty=_spread(hand_var / (1.0 + hand_var * weight), game.hand_drift,
                            hand.uncertainty),
        count=hand.count + len(rated), updated_at=now)
    return RatingUpdate(tuple(rated), rated_hand, _reshaped(scale, shape_pull, shape_weight, now))


def _reshaped(scale: ScaleRating, pull: float, weight: float, now: float) -> ScaleRating:
    """The scale after a round: the same Newton step, for the one parameter every round shares."""
    var = scale.uncertainty ** 2
    low, high = SHAPES
    shape = min(high, max(low, scale.shape + var * pull / (1.0 + var * weight)))
    return dataclasses.replace(scale, shape=shape,
                               uncertainty=_spread(var / (1.0 + var * weight), SHAPE_DRIFT,
                                                   scale.uncertainty),
                               count=scale.count + 1, updated_at=now)


def _bounded(step: float) -> float:
    return max(-MAX_STEP, min(MAX_STEP, step))


def _spread(variance: float, drift: float, most: float) -> float:
    """The standard deviation after a response: the posterior's, widened by the drift a skill
    (or a hand's difficulty) may have had, never above `most`."""
    return min(math.sqrt(max(variance, 0.0) + drift * drift), most)
