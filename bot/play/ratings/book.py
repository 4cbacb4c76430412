"""An in-memory book of ratings: the rows by key, the hands' index, and the update applied to
both. The benchmark plays on it; the bot can keep one as its cache of the hands' difficulties
(loaded at start-up) and of the ratings a round's close reads and writes."""

from __future__ import annotations

import random
from collections.abc import Collection, Container, Iterable

from bot.play.ratings.adaptive import HandIndex, adaptive_hands
from bot.play.ratings.prior import new_player, new_scale
from bot.play.ratings.records import (
    ClosedRound,
    HandRating,
    PlayerRating,
    RatingUpdate,
    ScaleRating,
)
from bot.play.ratings.seasons import next_season
from bot.play.ratings.update import rate_round


class Book:
    """Players' ratings for one season and hands' difficulties, of every rated game."""

    def __init__(self, season: str, hands: Iterable[HandRating] = (),
                 floored: bool = True) -> None:
        self.season = season
        self.floored = floored  # rate_round's: False rates as before wins were floored
        self.players: dict[tuple[int, str], PlayerRating] = {}
        self.hands: dict[tuple[str, str], HandRating] = {}
        self.indexes: dict[str, HandIndex] = {}
        self.scales: dict[str, ScaleRating] = {}
        for hand in hands:
            self.keep_hand(hand)

    def keep_hand(self, hand: HandRating) -> None:
        self.hands[hand.game, hand.hand_key] = hand
        self.indexes.setdefault(hand.game, HandIndex()).put(hand.hand_key, hand.difficulty)

    def player(self, player_id: int, game: str, now: float) -> PlayerRating:
        """A player's row, a new player's if they have none."""
        found = self.players.get((player_id, game))
        return found if found is not None else new_player(player_id, game, self.season, now)

    def scale(self, game: str, now: float) -> ScaleRating:
        """A game's scale, its first one if it has none."""
        found = self.scales.get(game)
        return found if found is not None else new_scale(game, now)

    def rate(self, closed: ClosedRound, now: float) -> RatingUpdate:
        """Apply a closed round (its hand must be in the book) and return the rows it changed."""
        players = {r.player_id: self.player(r.player_id, closed.game, now)
                   for r in closed.responses}
        update = rate_round(closed, players, self.hands[closed.game, closed.hand_key],
                            self.scale(closed.game, now), now, self.floored)
        for row in update.players:
            self.players[row.player_id, row.game] = row
        self.keep_hand(update.hand)
        self.scales[closed.game] = update.scale
        return update

    def choose(self, game: str, player_ids: Collection[int], seconds: float, now: float,
               rng: random.Random, count: int = 5, exclude: Container[str] = ()) -> str:
        """One of the `count` hands nearest the group's aimed difficulty, drawn by `rng`."""
        group = [(row.rating, row.uncertainty)
                 for row in (self.player(p, game, now) for p in player_ids)]
        keys = adaptive_hands(self.indexes.get(game, HandIndex()), group, seconds,
                              self.scale(game, now), count, exclude)
        if not keys:
            raise ValueError(f"no hand of {game} left to deal")
        return rng.choice(keys)

    def new_season(self, season: str, now: float) -> None:
        """Every player into `season`, by the partial reset."""
        self.season = season
        self.players = {key: next_season(row, season, now) for key, row in self.players.items()}
