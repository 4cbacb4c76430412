"""A player's standing per theme (bot.play.ratings.themes): the term on the rating's log-odds
that best explains the rounds of a theme, pulled to 0 by its prior; the themes' bits as the
store keeps them."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from bot.play.ratings.model import logistic
from bot.play.ratings.themes import (
    LEAST,
    ThemedRound,
    bits_of,
    codes_of,
    offsets,
    standings,
)
from solver.themes import THEMES


def offset(rounds: list[ThemedRound]) -> float:
    """The term of the one theme these rounds all need (0 for no rounds)."""
    return offsets(rounds)[rounds[0].codes[0]] if rounds else 0.0


def test_bits_hold_each_theme_in_its_place():
    assert bits_of(()) == 0 and codes_of(0) == ()
    assert bits_of(["fraction"]) == 1 and bits_of(["unique"]) == 1 << 6
    assert codes_of(bits_of(["unique", "beyond"])) == ("beyond", "unique")  # THEMES' order
    assert codes_of(1 << 7 | 1) == ("fraction",)  # a later version's bit is left out


@given(st.sets(st.sampled_from(THEMES)))
def test_bits_round_trip(codes):
    assert set(codes_of(bits_of(codes))) == codes


def test_no_rounds_no_standing_and_as_expected_none():
    assert offset([]) == 0.0
    # solved as often as the ratings expected: the term stays at 0
    even = [ThemedRound(True, 0.0, ("beyond",)), ThemedRound(False, 0.0, ("beyond",))]
    assert abs(offset(even)) < 1e-9


def test_missing_easy_hands_stands_low_and_missing_hard_ones_hardly_moves():
    easy_missed = [ThemedRound(False, 2.0, ("beyond",))] * 5  # expected 88 % each
    hard_missed = [ThemedRound(False, -2.0, ("fraction",))] * 5  # expected 12 % each
    assert offset(easy_missed) < -1.0
    assert -0.5 < offset(hard_missed) < 0
    solved_hard = [ThemedRound(True, -2.0, ("fraction",))] * 5
    assert offset(solved_hard) > 1.0


def test_the_prior_pulls_one_round_less_than_ten():
    one = offset([ThemedRound(False, 1.0, ("cancel",))])
    ten = offset([ThemedRound(False, 1.0, ("cancel",))] * 10)
    assert ten < one < 0


def test_the_standing_is_the_posteriors_peak():
    rounds = [ThemedRound(s, o, ("unique",)) for s, o in
              ((True, 0.5), (False, 1.5), (False, -0.3), (True, 2.0), (False, 0.1))]
    theta = offset(rounds)

    def log_posterior(t: float) -> float:
        return sum(math.log(logistic(r.odds + t) if r.solved else 1 - logistic(r.odds + t))
                   for r in rounds) - t * t / 2

    assert log_posterior(theta) >= max(log_posterior(theta + d) for d in (-1e-3, 1e-3))


@given(st.lists(st.tuples(st.booleans(), st.floats(-4, 4)), max_size=30))
def test_the_standing_leans_the_way_the_rounds_do(results):
    """Below 0 exactly when the rounds solved fall short of the ratings' expectation."""
    rounds = [ThemedRound(solved, odds, ("beyond",)) for solved, odds in results]
    surplus = sum(solved - logistic(odds) for solved, odds in results)
    theta = offset(rounds)
    if surplus < -1e-6:
        assert theta < 0
    elif surplus > 1e-6:
        assert theta > 0
    else:
        assert abs(theta) < 1e-3


def test_standings_the_weakest_first_only_themes_of_enough_rounds():
    rounds = ([ThemedRound(False, 1.0, ("beyond", "unique"))] * 4
              + [ThemedRound(True, 0.0, ("factor_pair", "unique"))] * 4
              + [ThemedRound(False, 3.0, ("fraction",))] * (LEAST - 1))
    found = standings(rounds)
    assert [s.code for s in found] == ["beyond", "unique", "factor_pair"]  # fraction: too few
    beyond = found[0]
    assert (beyond.rounds, beyond.solved) == (4, 0)
    assert beyond.expected == 4 * logistic(1.0)
    assert found[-1].offset > 0
