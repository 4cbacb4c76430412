"""solver.rating: agreement with how people do on 4nums.com, levels, the API's edges, the CLI."""

from __future__ import annotations

import csv
import io
import itertools
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver.rating as rating_module
from solver import (
    LEVELS,
    InputError,
    Rating,
    UnsolvableError,
    is_solvable,
    level,
    rate,
    rating_of,
)
from solver.rating_cli import main as rate_main
from tests.conftest import ROOT

ALL_HANDS = list(itertools.combinations_with_replacement(range(1, 14), 4))


def average_ranks(values: list[float]) -> list[float]:
    """1-based ranks; tied values share the average of the ranks they span."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start:end + 1]:
            ranks[i] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the average ranks."""
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / (vx * vy) ** 0.5


def test_spearman_helper():
    assert average_ranks([10, 20, 20, 5]) == [2.0, 3.5, 3.5, 1.0]
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 1, 2, 2], [1, 2, 3, 4]) == pytest.approx(0.8944, abs=1e-4)


def human_ranks(shared_dir) -> dict[tuple[int, ...], int]:
    with open(shared_dir / "data" / "4nums-human-difficulty.csv", newline="") as f:
        return {tuple(sorted(map(int, row["Puzzles"].split()))): int(row["Rank"])
                for row in csv.DictReader(f)}


def test_difficulty_follows_human_solve_times(shared_dir):
    ranks = human_ranks(shared_dir)
    assert len(ranks) == 1362
    hands = sorted(ranks)
    rho = spearman([rate(hand) for hand in hands], [ranks[hand] for hand in hands])
    assert rho >= 0.6, rho
    assert rho >= 0.80, rho  # what the model measures (0.807): guard regressions


def test_levels_follow_human_solve_times(shared_dir):
    ranks = human_ranks(shared_dir)
    mean_rank = {}
    for name in LEVELS:
        chosen = [ranks[hand] for hand in ranks if level(hand) == name]
        mean_rank[name] = sum(chosen) / len(chosen)
    assert mean_rank["easy"] < 500 < mean_rank["medium"] < 900 < mean_rank["hard"]


def test_level_split_over_all_solvable_hands():
    levels = []
    for hand in ALL_HANDS:
        try:
            levels.append(level(hand))
        except UnsolvableError:
            assert not is_solvable(hand)
    assert len(levels) == 1362
    share = {name: levels.count(name) / len(levels) for name in LEVELS}
    assert share["easy"] == pytest.approx(0.40, abs=0.03)
    assert share["medium"] == pytest.approx(0.35, abs=0.03)
    assert share["hard"] == pytest.approx(0.25, abs=0.03)


@pytest.mark.parametrize("hard", [(3, 3, 8, 8), (1, 5, 5, 5), (3, 3, 7, 7), (1, 3, 4, 6),
                                  (4, 4, 10, 10)])
@pytest.mark.parametrize("easy", [(1, 1, 4, 6), (1, 2, 3, 4), (12, 12, 12, 12), (1, 1, 11, 11),
                                  (2, 2, 2, 3)])
def test_trivial_hands_rate_easier_than_famous_hard_ones(easy, hard):
    assert rate(easy) < rate(hard)
    assert level(easy) == "easy" and level(hard) == "hard"


def test_a_fraction_only_hand_is_harder_than_one_with_many_solutions():
    assert rate((3, 3, 8, 8)) > rate((2, 3, 4, 6)) + 5


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6])
def test_level_boundaries(count):
    medium, hard = rating_module.CUTS.get(count, rating_module.CUTS[4])
    assert 0 < medium < hard
    assert rating_module.level_of(0.0, count) == "easy"
    assert rating_module.level_of(medium - 1e-9, count) == "easy"
    assert rating_module.level_of(medium, count) == "medium"
    assert rating_module.level_of(hard - 1e-9, count) == "medium"
    assert rating_module.level_of(hard, count) == "hard"
    assert rating_module.level_of(1e9, count) == "hard"


def test_four_number_cuts_are_the_default():
    assert rating_module.level_of(4.5) == rating_module.level_of(4.5, 4) == "medium"
    assert rating_module.level_of(4.5, 6) == "hard"


def test_rating_bundles_rate_and_level():
    result = rating_of((3, 3, 8, 8))
    assert result == Rating(rate((3, 3, 8, 8)), level((3, 3, 8, 8)))
    assert result.level == rating_module.level_of(result.difficulty)
    with pytest.raises(AttributeError):
        result.level = "easy"  # type: ignore[misc]


def test_deterministic_even_from_cold_caches():
    hands = [(3, 3, 8, 8), (1, 2, 3, 4), (2, 5, 5, 10), (1, 2, 3, 4, 5, 6), (2, 2, 5, 9, 10, 11)]
    first = [rating_module.modelled_difficulty(hand, 24) for hand in hands]
    for cached in (rating_module._kept_chance, rating_module._steps,
                   rating_module._kept_spare_chance, rating_module.modelled_difficulty):
        cached.cache_clear()
    assert [rating_module.modelled_difficulty(hand, 24) for hand in reversed(hands)] \
        == first[::-1]
    assert [rate(hand) for hand in hands] == first  # the table holds what the model gives


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 13), min_size=4, max_size=4), st.randoms())
def test_order_of_the_hand_does_not_matter(hand, random):
    shuffled = hand[:]
    random.shuffle(shuffled)
    try:
        expected = rate(hand)
    except UnsolvableError:
        with pytest.raises(UnsolvableError):
            rate(shuffled)
        return
    assert rate(shuffled) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 13), min_size=1, max_size=4), st.integers(-30, 30))
def test_rated_exactly_when_the_solver_finds_a_solution(hand, target):
    try:
        difficulty = rate(hand, target)
    except UnsolvableError:
        assert not is_solvable(hand, target)
    else:
        assert is_solvable(hand, target)
        assert difficulty >= 0.0


@pytest.mark.parametrize(("hand", "target"), [
    ((1, 2, 3, 4, 5), 24), ((3, 3, 8, 8, 1), 24), ((1, 1, 3, 8, 8, 13), 24),
    ((2, 3, 5, 7, 11, 13), 100), ((89, 67, 34, 5, 6, 87), 24), ((25, 50, 75, 100, 3, 6), 952),
    ((1, 2, 3, 4, 5, 6), -24), ((1, 1, 1, 1, 1, 2), 6),
])
def test_five_and_six_numbers_are_rated_when_solvable(hand, target):
    assert is_solvable(hand, target)
    assert rate(hand, target) > 0.0


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 13), min_size=5, max_size=6), st.integers(-30, 30))
def test_big_hands_rated_exactly_when_the_solver_finds_a_solution(hand, target):
    try:
        rate(hand, target)
    except UnsolvableError:
        assert not is_solvable(hand, target)
    else:
        assert is_solvable(hand, target)


def test_unsolvable_hands_raise():
    for hand, target in [((1, 1, 1, 1), 24), ((1, 2, 3, 4), -24), ((1, 1, 1, 1, 1, 1), 24),
                         ((5,), 24), ((3, 7), 24)]:
        with pytest.raises(UnsolvableError) as caught:
            rate(hand, target)
        assert caught.value.code == "unsolvable"
        assert isinstance(caught.value, InputError)
        assert caught.value.params == {"numbers": sorted(hand), "target": target}


@pytest.mark.parametrize("hand", [(), (1, 2, 3, 4, 5, 6, 7), (1, -2, 3), (1, 2.5, 3), (True, 3)])
def test_bad_hands_raise_input_errors(hand):
    with pytest.raises(InputError) as caught:
        rate(hand)
    assert not isinstance(caught.value, UnsolvableError)


def test_hands_that_need_no_thought():
    assert rate((24,)) == 0.0
    assert rate((4, 6)) == 0.0
    assert rate((7,), 7) == 0.0
    assert level((4, 6)) == "easy"


def test_any_target():
    assert rate((1, 2, 3), 7) > 0
    assert rate((1, 2, 3, 4), -10) > 0
    assert rate((0, 0, 5, 5), 0) >= 0


# -- the command line ---------------------------------------------------------------------------


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver", "rate", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_rates_a_batch_and_goes_on_after_bad_lines():
    result = run(stdin="1 1 4 6\n3 3 8 8\n\nfoo 3\n1 1 1 1\n1 2 3 4 5 6 7\n2, 3, 4, 6\n")
    assert result.returncode == 0
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 6
    easy, hard, bad, unsolvable, too_many, commas = rows
    assert easy == {"numbers": [1, 1, 4, 6], "difficulty": round(rate((1, 1, 4, 6)), 3),
                    "level": "easy"}
    assert hard["level"] == "hard" and hard["difficulty"] > easy["difficulty"]
    assert bad["numbers"] is None and "line 4" in bad["error"] and "foo" in bad["error"]
    assert unsolvable["numbers"] == [1, 1, 1, 1] and "line 5" in unsolvable["error"]
    assert "difficulty" not in unsolvable
    assert too_many["numbers"] is None and "between 1 and 6" in too_many["error"]
    assert commas["numbers"] == [2, 3, 4, 6] and commas["level"] in LEVELS


def test_cli_target_and_one_hand_by_arguments():
    row = json.loads(run("--target", "10", stdin="1 2 3 4\n").stdout)
    assert row["difficulty"] == round(rate((1, 2, 3, 4), 10), 3)
    result = run("3", "3", "8", "8")
    assert result.returncode == 0 and json.loads(result.stdout)["level"] == "hard"
    result = run("1", "1", "1", "1")
    assert result.returncode == 2 and "error" in json.loads(result.stdout)


def test_cli_main_in_process(capsys):
    assert rate_main(["rate"], io.StringIO("4 6\n")) == 0
    assert json.loads(capsys.readouterr().out) == {"numbers": [4, 6], "difficulty": 0.0,
                                                   "level": "easy"}
