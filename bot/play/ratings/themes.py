"""A player's standing per theme (docs/themes.md, "A player's themes"): how much better or worse
they do on hands that need a theme than their rating and the hands' difficulties predict.

The rating model says a player of rating r solves a hand of difficulty d within the usual round
with chance logistic(r − d). A theme's standing is one more term on that log-odds, the player's
own for that theme, learned from the rounds they answered whose hand needs it: the value that
best explains which they solved, with a prior that pulls it to 0 (as the model expects) until
the rounds say otherwise. A hand of a fraction on the way that everyone finds hard then says
nothing against a player who misses it; a player who misses the easy hands that pass 24 stands
low in that theme. Pure: the page gives the rounds, their chances and the hands' themes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.play.ratings.model import logistic
from solver.themes import THEMES

PRIOR = 1.0  # the standing's prior spread (log-odds): a theme moves only on several rounds
STEPS = 20  # Newton's steps at most: the log-posterior is concave, a few reach TOLERANCE
TOLERANCE = 1e-6  # the page shows a standing to 0.01
LEAST = 3  # rounds of a theme before the page shows it


def bits_of(codes: Iterable[str]) -> int:
    """Themes' codes as the store keeps them: a bit a theme, in THEMES' order."""
    found = 0
    for code in codes:
        found |= 1 << THEMES.index(code)
    return found


def codes_of(bits: int) -> tuple[str, ...]:
    """The codes a stored value holds (bits past THEMES, from a later version, are left out)."""
    return tuple(code for index, code in enumerate(THEMES) if bits >> index & 1)


@dataclass(frozen=True)
class ThemedRound:
    """A round a player answered: whether they solved it, the model's log-odds that they would
    (rating − difficulty), and the themes its hand needs."""

    solved: bool
    odds: float
    codes: tuple[str, ...]


@dataclass(frozen=True)
class Standing:
    """A theme's standing: `offset` is the learned term (log-odds, 0: as expected), `rounds`
    the rounds whose hand needs it, `solved` how many of them the player solved, `expected`
    how many the model predicted without the theme's term."""

    code: str
    offset: float
    rounds: int
    solved: int
    expected: float


def standings(rounds: Sequence[ThemedRound], least: int = LEAST) -> list[Standing]:
    """Each theme of at least `least` of the rounds, the weakest first (ties: more rounds
    first, then THEMES' order). The themes' terms are learned together (`offsets`): a hand
    that needs two themes is missed for one of them, and the rounds of the other that did not
    need it say which."""
    learned = offsets(rounds)
    found = []
    for code in THEMES:
        mine = [r for r in rounds if code in r.codes]
        if len(mine) >= least:
            found.append(Standing(code, learned[code], len(mine), sum(r.solved for r in mine),
                                  sum(logistic(r.odds) for r in mine)))
    return sorted(found, key=lambda s: (s.offset, -s.rounds, THEMES.index(s.code)))


def offsets(rounds: Sequence[ThemedRound], prior: float = PRIOR) -> dict[str, float]:
    """Every theme's term θ at once, the most likely given the rounds: the maximum of
    Σ log P(solved_i | odds_i + Σ θ_t over the themes of hand i) − Σ θ_t² / (2·prior²), by
    Newton's method (a ridge logistic regression of one player's rounds on their themes, the
    ratings' odds as its offset). A theme no round has stays at 0."""
    codes = [code for code in THEMES if any(code in r.codes for r in rounds)]
    index = {code: n for n, code in enumerate(codes)}
    rows = [([index[c] for c in r.codes if c in index], 1.0 if r.solved else 0.0, r.odds)
            for r in rounds]
    theta = [0.0] * len(codes)
    for _ in range(STEPS):
        gradient = [-t / prior ** 2 for t in theta]
        curvature = [[(1 / prior ** 2 if i == j else 0.0) for j in range(len(codes))]
                     for i in range(len(codes))]
        for mine, solved, odds in rows:
            p = logistic(odds + sum(theta[i] for i in mine))
            for i in mine:
                gradient[i] += solved - p
                for j in mine:
                    curvature[i][j] += p * (1 - p)
        step = solved_system(curvature, gradient)
        theta = [t + d for t, d in zip(theta, step, strict=True)]
        if max((abs(d) for d in step), default=0.0) < TOLERANCE:
            break
    found = dict.fromkeys(THEMES, 0.0)
    found.update({code: theta[n] if math.isfinite(theta[n]) else 0.0
                  for code, n in index.items()})
    return found


def solved_system(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix · x = vector, for a symmetric positive definite matrix (the prior makes
    Newton's one so), by Gaussian elimination: seven themes at most."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, n + 1):
                rows[r][c] -= factor * rows[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (rows[r][n] - sum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x
