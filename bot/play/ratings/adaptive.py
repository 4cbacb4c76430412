"""Adaptive deals: the hands a group solves with a chance of about 0.75 within the round's time.

The round is the group's: it is solved when anyone solves it, so the chance aimed at is the
group's, 1 − Π(1 − pᵢ) over the players active in the chat lately. That chance falls as the
difficulty rises, so one difficulty meets the aim (found by bisection); the hands nearest to it
come from an index by difficulty (buckets of BUCKET on the scale), never a scan of every hand.
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable, Sequence

from bot.play.ratings.model import GAMES, log_time, logistic, predicted_chance, scale_of
from bot.play.ratings.records import ScaleRating

AIM = 0.75  # Math Garden's: solved about three times in four
BUCKET = 0.05  # width of the index's buckets on the scale
LOWEST, HIGHEST = -30.0, 30.0  # the difficulties the bisection looks between
# bisection steps: (HIGHEST − LOWEST) / 2**30, 6e-8, is far below any rating's precision (the
# index's buckets are 0.05 wide); each step costs every player of the group a chance
STEPS = 30

Skill = tuple[float, float]  # (rating, uncertainty) of one player


def group_chance(group: Sequence[Skill], difficulty: float, seconds: float,
                 scale: ScaleRating) -> float:
    """The chance that anyone of the group solves a hand of this difficulty within `seconds`
    (players taken as independent given the hand)."""
    reference = scale_of(scale.game).reference_seconds
    missed = 1.0
    for rating, uncertainty in group:
        missed *= 1.0 - predicted_chance(rating, uncertainty, difficulty, seconds, reference,
                                         scale.shape)
    return 1.0 - missed


def aimed_difficulty(group: Sequence[Skill], seconds: float, scale: ScaleRating,
                     aim: float = AIM) -> float:
    """The difficulty at which the group's chance within `seconds` is `aim`."""
    if not group:
        raise ValueError("a group of no players has no chance")
    terms = player_terms(group, seconds, scale)
    low, high = LOWEST, HIGHEST
    for _ in range(STEPS):
        middle = (low + high) / 2
        if chance_of(terms, middle) > aim:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def player_terms(group: Sequence[Skill], seconds: float,
                 scale: ScaleRating) -> list[tuple[float, float]]:
    """Each player's chance as predicted_chance makes it, less the difficulty: (their lead
    within `seconds`, their spread), so that the bisection's steps work out only what the
    difficulty changes (a busy group's fifty players, each worked out whole at every step,
    were half of an adaptive deal's time)."""
    lead = scale.shape * log_time(seconds, scale_of(scale.game).reference_seconds)
    return [(rating + lead, math.sqrt(1.0 + math.pi * uncertainty * uncertainty / 8.0))
            for rating, uncertainty in group]


def chance_of(terms: Sequence[tuple[float, float]], difficulty: float) -> float:
    """The group's chance at a difficulty, from its players' terms (group_chance's)."""
    missed = 1.0
    for lead, spread in terms:
        missed *= 1.0 - logistic((lead - difficulty) / spread)
    return 1.0 - missed


class HandIndex:
    """Hands by difficulty, for the nearest ones to a difficulty in time that grows with how
    many are asked for, not with how many hands there are. Kept up to date with `put` after
    every update (a mutable cache of the hands' rows, not state of its own)."""

    def __init__(self, hands: Iterable[tuple[str, float]] = ()) -> None:
        self._where: dict[str, float] = {}
        self._buckets: dict[int, set[str]] = {}
        self._low = self._high = 0
        for key, difficulty in hands:
            self.put(key, difficulty)

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, key: object) -> bool:
        return key in self._where

    def put(self, key: str, difficulty: float) -> None:
        """Add a hand or move it to its new difficulty."""
        self.discard(key)
        bucket = math.floor(difficulty / BUCKET)
        if not self._where:
            self._low = self._high = bucket
        self._low, self._high = min(self._low, bucket), max(self._high, bucket)
        self._where[key] = difficulty
        self._buckets.setdefault(bucket, set()).add(key)

    def discard(self, key: str) -> None:
        old = self._where.pop(key, None)
        if old is not None:
            self._buckets[math.floor(old / BUCKET)].discard(key)

    def nearest(self, difficulty: float, count: int,
                exclude: Container[str] = ()) -> list[str]:
        """Up to `count` hands nearest to `difficulty`, nearest first (ties by key), leaving out
        `exclude`. Rings of buckets outward, until the next ring cannot hold a nearer hand."""
        centre = math.floor(difficulty / BUCKET)
        found: list[tuple[float, str]] = []
        ring = max(0, centre - self._high, self._low - centre)  # the first ring holding hands
        while centre - ring >= self._low or centre + ring <= self._high:
            for bucket in {centre - ring, centre + ring}:
                for key in self._buckets.get(bucket, ()):
                    if key not in exclude:
                        found.append((abs(self._where[key] - difficulty), key))
            if len(found) >= count:
                found.sort()
                if found[count - 1][0] <= ring * BUCKET:  # ring + 1 lies ring·BUCKET away
                    break
            ring += 1
        found.sort()
        return [key for _, key in found[:count]]


def adaptive_hands(index: HandIndex, group: Sequence[Skill], seconds: float, scale: ScaleRating,
                   count: int = 5, exclude: Container[str] = (), aim: float = AIM) -> list[str]:
    """The `count` hands whose difficulty is nearest the one the group solves with chance
    `aim` within `seconds` (deal one of them at random, so a group does not meet one hand)."""
    return index.nearest(aimed_difficulty(group, seconds, scale, aim), count, exclude)



_SHAPED = ScaleRating(next(iter(GAMES)), 1.0, 0.1, 0, 0.0)  # any rated game's scale
assert abs(chance_of(player_terms([(0.3, 0.4), (-1.0, 1.2)], 60.0, _SHAPED), 0.5)
           - group_chance([(0.3, 0.4), (-1.0, 1.2)], 0.5, 60.0, _SHAPED)) < 1e-12
