"""Yahtzee (UVa 10149): reference totals, validity of every scoring, and an independent check."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from solver import InputError
from solver.yahtzee import (
    BONUS,
    BONUS_THRESHOLD,
    CATEGORIES,
    best_assignment,
    category_score,
)
from tests.conftest import ROOT


def read_games(path):
    rows = [list(map(int, line.split())) for line in path.read_text().splitlines() if line.strip()]
    return [rows[i:i + 13] for i in range(0, len(rows), 13)]


def assert_consistent(rolls, result):
    """A real assignment: each roll used once, scores as the rules say, bonus and total add up."""
    assert sorted(map(tuple, rolls)) == sorted(result.rolls)
    for c, roll in enumerate(result.rolls):
        assert result.scores[c] == category_score(roll, c)
    upper = sum(result.scores[:6])
    assert result.bonus == (BONUS if upper >= BONUS_THRESHOLD else 0)
    assert result.total == sum(result.scores) + result.bonus


def test_sample_totals(shared_dir):
    games = read_games(shared_dir / "data" / "yahtzee" / "sample.in")
    results = [best_assignment(g) for g in games]
    assert [r.total for r in results] == [90, 327]
    for game, result in zip(games, results, strict=True):
        assert_consistent(game, result)


def test_micro_totals(shared_dir):
    games = read_games(shared_dir / "data" / "yahtzee" / "micro.in")
    assert [best_assignment(g).total for g in games] == [148, 75, 88, 118]


@pytest.mark.parametrize(("roll", "category", "score"), [
    ((3, 3, 3, 3, 3), CATEGORIES.index("full house"), 40),
    ((2, 2, 3, 3, 3), CATEGORIES.index("full house"), 40),
    ((2, 2, 3, 3, 4), CATEGORIES.index("full house"), 0),
    ((4, 4, 4, 4, 1), CATEGORIES.index("three of a kind"), 17),
    ((4, 4, 4, 4, 4), CATEGORIES.index("four of a kind"), 20),
    ((1, 2, 2, 3, 4), CATEGORIES.index("short straight"), 25),
    ((1, 2, 3, 4, 5), CATEGORIES.index("short straight"), 25),
    ((2, 3, 4, 5, 6), CATEGORIES.index("long straight"), 35),
    ((1, 2, 3, 4, 6), CATEGORIES.index("long straight"), 0),
    ((6, 6, 6, 6, 6), CATEGORIES.index("five of a kind"), 50),
    ((6, 6, 1, 2, 6), CATEGORIES.index("sixes"), 18),
    ((6, 6, 1, 2, 6), CATEGORIES.index("chance"), 21),
])
def test_category_rules(roll, category, score):
    assert category_score(roll, category) == score


def brute_total(rolls):
    """Exact optimum by DP over (mask, exact upper sum) — small state space in practice."""
    table = [[category_score(r, c) for c in range(13)] for r in rolls]
    states = {(0, 0): 0}
    for c in range(13):
        nxt: dict[tuple[int, int], int] = {}
        for (mask, upper), lower in states.items():
            for r in range(13):
                if not mask >> r & 1:
                    key = (mask | 1 << r, upper + table[r][c] if c < 6 else upper)
                    value = lower + (table[r][c] if c >= 6 else 0)
                    if nxt.get(key, -1) < value:
                        nxt[key] = value
        states = nxt
    return max(lower + upper + (BONUS if upper >= BONUS_THRESHOLD else 0)
               for (_, upper), lower in states.items())


@pytest.mark.slow
def test_against_an_independent_dp():
    rng = random.Random(10149)
    for _ in range(6):
        rolls = [[rng.randint(1, 6) for _ in range(5)] for _ in range(13)]
        result = best_assignment(rolls)
        assert result.total == brute_total(rolls)
        assert_consistent(rolls, result)


def test_exhaustive_on_a_game_with_few_distinct_rolls():
    rolls = [[6, 6, 6, 6, 6]] * 4 + [[1, 2, 3, 4, 5]] * 9
    assert best_assignment(rolls).total == brute_total(rolls)
    result = best_assignment(rolls)
    assert_consistent(rolls, result)


def test_bonus_is_taken_when_it_pays():
    rolls = ([[face] * 5 for face in range(1, 7)] + [[face] * 5 for face in range(1, 7)]
             + [[6, 6, 6, 5, 5]])
    result = best_assignment(rolls)
    assert result.bonus == BONUS
    assert result.total == brute_total(rolls)


@pytest.mark.parametrize("rolls", [[[1, 2, 3, 4, 5]] * 12, [[1, 2, 3, 4, 7]] * 13,
                                   [[1, 2, 3, 4]] * 13])
def test_bad_games(rolls):
    with pytest.raises(InputError):
        best_assignment(rolls)


def test_numpy_is_loaded_by_the_first_game_solved_not_by_the_import():
    """The bot imports the solver at start and in each solver worker; NumPy costs a tenth of
    a second of CPU there, for a game few play: it comes with the first game solved."""
    probe = ("import sys, solver, solver.yahtzee as y; before = 'numpy' in sys.modules; "
             "y.best_assignment([[1, 2, 3, 4, 5]] * 13); print(before, 'numpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    assert done.stdout.split() == ["False", "True"]
