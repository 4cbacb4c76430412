"""The Yahtzee best-score puzzle (UVa 10149): assign 13 rolls to 13 categories, maximise the total.

A dynamic programme over the set of rolls used so far, filling categories in their fixed order;
the upper bonus is decided once the six upper categories are filled, because more upper points
never hurt (x + 35*[x >= 63] grows with x). Vectorised with NumPy: one array operation per
(category, roll) pair instead of 53,248 Python steps per game. NumPy is imported by the first
game solved, not with the module: the bot imports this module at start, and its processes and
their solver workers had each paid a tenth of a second of CPU for NumPy whether or not anyone
played Yahtzee.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from solver.errors import InputError

if TYPE_CHECKING:
    import numpy as np

CATEGORIES = ("ones", "twos", "threes", "fours", "fives", "sixes", "chance", "three of a kind",
              "four of a kind", "five of a kind", "short straight", "long straight", "full house")
UPPER = 6
BONUS, BONUS_THRESHOLD = 35, 63
ROLLS = len(CATEGORIES)
Roll = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class YahtzeeResult:
    """An optimal scoring: `scores[c]` for category c, and `rolls[c]`, the roll it scores."""

    scores: tuple[int, ...]
    rolls: tuple[Roll, ...]
    bonus: int
    total: int


def category_score(roll: Sequence[int], category: int) -> int:
    """What the roll scores in the category (0 when it does not qualify)."""
    counts = Counter(roll)
    if category < UPPER:
        face = category + 1
        return face * counts[face]
    total = sum(roll)
    most = max(counts.values())
    faces = set(roll)
    name = CATEGORIES[category]
    if name == "chance":
        return total
    if name == "three of a kind":
        return total if most >= 3 else 0
    if name == "four of a kind":
        return total if most >= 4 else 0
    if name == "five of a kind":
        return 50 if most == 5 else 0
    if name == "short straight":
        return 25 if any(set(run) <= faces for run in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)))\
            else 0
    if name == "long straight":
        return 35 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    # full house: three equal and the other two equal; five equal dice count too
    return 40 if sorted(counts.values()) in ([2, 3], [5]) else 0


def validate_rolls(rolls: Sequence[Sequence[int]]) -> list[Roll]:
    """13 rolls of five dice 1..6, or InputError."""
    if len(rolls) != ROLLS:
        raise InputError(f"A game has {ROLLS} rolls, not {len(rolls)}.", count=len(rolls))
    checked = []
    for i, roll in enumerate(rolls, 1):
        dice = list(roll)
        if len(dice) != 5 or any(isinstance(d, bool) or d not in range(1, 7) for d in dice):
            raise InputError(f"Roll {i} must be five dice from 1 to 6.", roll=i)
        checked.append((dice[0], dice[1], dice[2], dice[3], dice[4]))
    return checked


UNREACHED = -(1 << 40)  # so far below any score that adding a roll's points never lifts it


@cache
def _layers() -> list[tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]]:
    """Per count k of used rolls: those masks, and per roll r the ones without r (and with r)."""
    import numpy as np

    masks = np.arange(1 << ROLLS)
    popcount = np.array([bin(m).count("1") for m in range(1 << ROLLS)])
    layers = []
    for k in range(ROLLS):
        layer = masks[popcount == k]
        per_roll = []
        for r in range(ROLLS):
            src = layer[(layer >> r) & 1 == 0]
            per_roll.append((src, src | (1 << r)))
        layers.append((layer, per_roll))
    return layers


def best_assignment(rolls: Sequence[Sequence[int]]) -> YahtzeeResult:
    """An optimal assignment of the 13 rolls to the 13 categories, with bonus and total."""
    import numpy as np

    game = validate_rolls(rolls)
    table = np.array([[category_score(roll, c) for c in range(ROLLS)] for roll in game])
    best = np.full(1 << ROLLS, UNREACHED, dtype=np.int64)
    best[0] = 0
    raw_upper = best
    for k, (layer, per_roll) in enumerate(_layers()):
        if k == UPPER:
            raw_upper = best.copy()
            best[layer] += BONUS * (best[layer] >= BONUS_THRESHOLD)
        for r, (src, dest) in enumerate(per_roll):
            best[dest] = np.maximum(best[dest], best[src] + table[r, k])
    return _backtrack(game, table, best, raw_upper)


def _backtrack(game: list[Roll], table: np.ndarray, best: np.ndarray,
               raw_upper: np.ndarray) -> YahtzeeResult:
    mask = (1 << ROLLS) - 1
    chosen = [0] * ROLLS
    for k in range(ROLLS - 1, -1, -1):
        before = raw_upper if k == UPPER - 1 else best
        target = best[mask] if k != UPPER - 1 else raw_upper[mask]
        for r in range(ROLLS):
            if mask >> r & 1:
                prev = mask ^ (1 << r)
                if before[prev] + table[r, k] == target:
                    chosen[k] = r
                    mask = prev
                    break
        else:  # pragma: no cover - the table is consistent by construction
            raise AssertionError("backtracking failed")
    scores = tuple(int(table[chosen[c], c]) for c in range(ROLLS))
    bonus = BONUS if sum(scores[:UPPER]) >= BONUS_THRESHOLD else 0
    return YahtzeeResult(scores, tuple(game[chosen[c]] for c in range(ROLLS)), bonus,
                         sum(scores) + bonus)
