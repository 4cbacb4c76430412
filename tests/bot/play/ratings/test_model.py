"""The learned ratings (bot.play.ratings), pure: the direction of each kind of response's update,
the race's censoring, provisional ratings, seasons, the prior, the adaptive choice and its
index, determinism; and a small run of the benchmark's simulator (the benchmark's goals are
its own, not judged here)."""

from __future__ import annotations

import csv
import dataclasses
import itertools
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import bench_ratings
from bot.play.ratings import (
    AIM,
    Book,
    ClosedRound,
    HandIndex,
    HandRating,
    PlayerRating,
    Response,
    adaptive_hands,
    aimed_difficulty,
    group_chance,
    hand_key,
    hand_prior,
    level_of,
    new_hand,
    new_player,
    new_scale,
    next_season,
    rate_round,
    season_of,
)
from bot.play.ratings.model import solve_chance, win_floor
from bot.play.ratings.prior import (
    LEVEL_CUTS,
    OTHER_SPREAD,
    PRIOR_SPREAD,
    UNKNOWN_SPREAD,
    on_scale,
)
from bot.play.ratings.records import HAND_PROVISIONAL, PLAYER_PROVISIONAL
from solver import is_solvable
from solver.rating import CUTS, rating_of

KEY = hand_key((1, 4, 12, 14), 24)
SEASON = "2026-11"
NOW = 1_790_000_000.0


def hand(difficulty: float = 0.0, uncertainty: float = 0.6, count: int = 0) -> HandRating:
    return HandRating(KEY, "24", difficulty, uncertainty, count, 0.0)


def player(pid: int, rating: float = 0.0, uncertainty: float = 1.0,
           count: int = 0) -> PlayerRating:
    return PlayerRating(pid, "24", SEASON, rating, uncertainty, count, 0.0)


def closed(*responses: Response, ended_at: float = 120.0, deadline: float = 120.0) -> ClosedRound:
    return ClosedRound("24", KEY, deadline, ended_at, responses)


def rated(round_: ClosedRound, players: dict[int, PlayerRating] | None = None,
          dealt: HandRating | None = None) -> tuple[dict[int, float], float]:
    """Each player's change and the hand's change after the round."""
    players = players or {r.player_id: player(r.player_id) for r in round_.responses}
    dealt = dealt or hand()
    update = rate_round(round_, players, dealt, new_scale("24", 0.0), NOW)
    return ({row.player_id: row.rating - players[row.player_id].rating for row in update.players},
            update.hand.difficulty - dealt.difficulty)


# --- directions -------------------------------------------------------------------------------

def test_a_fast_solve_raises_the_player_and_lowers_the_hand():
    moved, harder = rated(closed(Response(1, solved_at=5.0), ended_at=5.0))
    assert moved[1] > 0.1 and harder < -0.05


def test_a_slow_solve_raises_the_player_less_than_a_fast_one():
    fast, _ = rated(closed(Response(1, solved_at=10.0), ended_at=10.0))
    slow, _ = rated(closed(Response(1, solved_at=110.0), ended_at=110.0))
    assert fast[1] > slow[1]


def test_a_strong_player_who_solves_only_at_the_deadline_keeps_the_rating():
    """The likelihood alone lowers them (they were expected to be fast); a win never does. The
    hand takes the same floored evidence (one scale: what a player gains, the hand loses)."""
    round_ = closed(Response(1, solved_at=119.0), ended_at=119.0)
    strong = {1: player(1, 4.0)}
    moved, harder = rated(round_, strong)
    assert moved[1] == 0 and harder == 0
    before = rate_round(round_, strong, hand(), new_scale("24", 0.0), NOW, floored=False)
    assert before.players[0].rating < 4.0 < before.hand.difficulty + 4.0


@settings(max_examples=300, deadline=None)
@given(st.floats(-4, 6), st.floats(0.2, 1.5), st.floats(0, 200), st.integers(0, 3),
       st.lists(st.floats(-4, 6), max_size=3), st.floats(0.5, 3.5), st.floats(-3, 3))
def test_a_win_never_lowers_the_winner(rating, uncertainty, seconds, wrong, others, shape,
                                       difficulty):
    """Whatever the ratings, the shape, the time and the wrong answers before it, and however
    many others took part (beaten, so still trying when it was won)."""
    deadline = 120.0
    solved_at = min(seconds, deadline)
    responses = [Response(1, solved_at=solved_at, wrong=wrong)]
    responses += [Response(2 + i) for i in range(len(others))]
    players = {1: player(1, rating, uncertainty)}
    players |= {2 + i: player(2 + i, r) for i, r in enumerate(others)}
    scale = dataclasses.replace(new_scale("24", 0.0), shape=shape)
    update = rate_round(closed(*responses, ended_at=solved_at), players, hand(difficulty),
                        scale, NOW)
    assert update.players[0].rating >= rating


@pytest.mark.parametrize("others", [(), (0.0,), (1.0, 2.0), (-2.0, 3.0, 0.5)])
@pytest.mark.parametrize("delta", [-1.0, 0.5, 1.5, 3.0, 6.0])
def test_the_floor_costs_nothing_on_average(delta, others):
    """Over the solves the model expects of a player in a round (before the deadline and
    before anyone else), the floored gradient averages what the likelihood's does: the lift
    of slow solves is paid by what every solve gives up, so no rating drifts up for it."""
    shape, deadline = 1.8, 120.0
    round_ = closed(ended_at=deadline, deadline=deadline)
    floor = win_floor(delta, others, round_, 120.0, shape)
    steps = 20_000  # the player's chance F from 0 to F(deadline), finely
    top = solve_chance(delta, deadline, 120.0, shape)
    likelihood = floored = 0.0
    for k in range(steps):
        f = top * (k + 0.5) / steps
        x = (math.log(f / (1 - f)) - delta) / shape
        alone = math.prod(1 - solve_chance(other, 120.0 * math.exp(x), 120.0, shape)
                          for other in others)
        likelihood += (1 - 2 * f) * alone
        floored += (max(floor, 1 - 2 * f) - floor) * alone
    assert (floor > 0) == (top > 0.5)
    # in the gradient's own units (a solve's is at most 1): equal to a hundredth
    assert abs(floored - likelihood) * top / steps < 0.01
    assert min(max(floor, 1 - 2 * f) - floor for f in (0.0, 0.5, top)) >= 0


def test_a_time_out_nobody_beat_raises_the_hand_and_lowers_the_players():
    moved, harder = rated(closed(Response(1), Response(2, wrong=1)))
    assert harder > 0.05 and moved[1] < 0 and moved[2] < moved[1]


def test_a_censored_loser_loses_less_than_a_wrong_answer_a_pass_or_a_time_out():
    winner = Response(1, solved_at=20.0)
    censored, _ = rated(closed(winner, Response(2), ended_at=20.0))
    wrong, _ = rated(closed(winner, Response(2, wrong=1), ended_at=20.0))
    passed, _ = rated(closed(winner, Response(2, wrong=1, passed_at=15.0), ended_at=20.0))
    timed_out, _ = rated(closed(Response(2)))
    assert 0 > censored[2] > wrong[2] > passed[2]
    assert censored[2] > timed_out[2]


def test_censoring_carries_information_about_both_sides():
    """A loser still trying at a late win says more than one stopped early, and the hand is
    harder for having beaten them than for a solo solve at the same time."""
    early, _ = rated(closed(Response(1, solved_at=5.0), Response(2), ended_at=5.0))
    late, _ = rated(closed(Response(1, solved_at=60.0), Response(2), ended_at=60.0))
    assert late[2] < early[2] < 0
    _, alone = rated(closed(Response(1, solved_at=60.0), ended_at=60.0))
    _, beaten = rated(closed(Response(1, solved_at=60.0), Response(2), ended_at=60.0))
    assert beaten > alone


def test_a_pass_is_giving_up_within_the_deadline():
    """A pass lowers the player and raises the hand as much as a time-out with the same
    wrong answer, however early it came."""
    passed, harder = rated(closed(Response(1, wrong=1, passed_at=10.0), ended_at=10.0))
    timed_out, harder_too = rated(closed(Response(1, wrong=1)))
    assert passed[1] == pytest.approx(timed_out[1]) and passed[1] < 0
    assert harder == pytest.approx(harder_too) and harder > 0


def test_a_wrong_answer_before_a_solve_costs_something():
    clean, _ = rated(closed(Response(1, solved_at=30.0), ended_at=30.0))
    after_wrong, _ = rated(closed(Response(1, solved_at=30.0, wrong=2), ended_at=30.0))
    assert 0 < after_wrong[1] < clean[1]


def test_a_longer_round_makes_the_same_failure_say_more():
    short, _ = rated(closed(Response(1), ended_at=30.0, deadline=30.0))
    long, _ = rated(closed(Response(1), ended_at=240.0, deadline=240.0))
    assert long[1] < short[1] < 0


def test_a_round_with_no_responses_changes_nothing():
    dealt = hand()
    update = rate_round(closed(), {}, dealt, new_scale("24", 0.0), NOW)
    assert update.players == () and update.hand == dealt


# --- uncertainty, provisional, the shape ------------------------------------------------------

def test_a_rating_moves_less_as_it_becomes_certain():
    book = Book(SEASON, [hand()])
    steps, spreads = [], []
    for number in range(12):
        before = book.player(1, "24", NOW)
        book.rate(closed(Response(1, solved_at=30.0), ended_at=30.0), NOW + number)
        after = book.player(1, "24", NOW)
        steps.append(after.rating - before.rating)
        spreads.append(after.uncertainty)
    assert all(a > b for a, b in itertools.pairwise(spreads[:6]))
    assert abs(steps[0]) > abs(steps[-1])


def test_new_players_and_hands_are_provisional_until_enough_responses():
    book = Book(SEASON, [hand()])
    assert book.player(1, "24", NOW).provisional and book.hands["24", KEY].provisional
    for number in range(PLAYER_PROVISIONAL):
        assert book.player(1, "24", NOW).provisional
        assert book.hands["24", KEY].provisional == (number < HAND_PROVISIONAL)
        book.rate(closed(Response(1, solved_at=40.0), ended_at=40.0), NOW)
    assert not book.player(1, "24", NOW).provisional
    assert book.player(1, "24", NOW).count == PLAYER_PROVISIONAL


def test_the_shape_learns_from_play_and_a_fixed_one_stays():
    """A solve exactly at the reference time by an even match says times spread less than the
    shape allows: the shape grows. With no uncertainty it cannot move."""
    scale = new_scale("24", 0.0)
    round_ = closed(Response(1, solved_at=120.0), ended_at=120.0)
    update = rate_round(round_, {1: player(1)}, hand(), scale, NOW)
    assert update.scale.shape > scale.shape and update.scale.count == 1
    fixed = dataclasses.replace(scale, uncertainty=0.0)
    assert rate_round(round_, {1: player(1)}, hand(), fixed, NOW).scale.shape == fixed.shape


# --- seasons ----------------------------------------------------------------------------------

def test_a_season_is_a_utc_month():
    assert season_of(1_793_491_199.0) == "2026-10"  # 2026-10-31 23:59:59 UTC
    assert season_of(1_793_491_200.0) == "2026-11"


def test_a_new_season_shrinks_toward_the_mean_and_widens_the_uncertainty():
    veteran = dataclasses.replace(player(1, 2.0, 0.3, 250), season="2026-10")
    fresh = next_season(veteran, "2026-11", NOW)
    assert 0 < fresh.rating < 2.0 and fresh.uncertainty > 0.3
    assert (fresh.season, fresh.count, fresh.updated_at) == ("2026-11", 0, NOW)
    assert fresh.provisional
    weak = next_season(dataclasses.replace(veteran, rating=-2.0), "2026-11", NOW, mean=-1.0)
    assert -2.0 < weak.rating < -1.0
    new = new_player(2, "24", "2026-10", NOW)
    assert next_season(new, "2026-11", NOW).uncertainty == new.uncertainty  # never past a new one


def test_the_book_starts_a_season_for_everyone():
    book = Book("2026-10", [hand()])
    book.rate(closed(Response(1, solved_at=5.0), ended_at=5.0), NOW)
    was = book.player(1, "24", NOW)
    book.new_season("2026-11", NOW)
    now = book.player(1, "24", NOW)
    assert now.season == "2026-11" and 0 < now.rating < was.rating


# --- the prior and levels ---------------------------------------------------------------------

@pytest.mark.parametrize("numbers", [(1, 1, 4, 6), (1, 5, 5, 5), (3, 3, 8, 8), (2, 4, 6, 8),
                                     (1, 2, 3, 4, 5), (3, 5, 7, 9, 11), (2, 3, 7, 7, 13),
                                     (1, 3, 5, 7, 9, 11), (2, 2, 5, 8, 11, 13)])
def test_a_new_hand_has_the_fixed_models_level(numbers):
    fixed = rating_of(numbers)
    dealt = new_hand("24", hand_key(numbers, 24), NOW, len(numbers), 24, fixed.difficulty)
    assert level_of(dealt.difficulty) == fixed.level
    assert dealt.count == 0 and dealt.provisional


@pytest.mark.parametrize("count", [5, 6])
def test_more_numbers_map_level_for_level_onto_four(count):
    """A five- or six-number hand starts where a four-number hand at the same place among its
    level's cuts does: the cuts onto the cuts, and in proportion between them."""
    (low, high), (low4, high4) = CUTS[count], CUTS[4]
    for share in (0.25, 0.5, 0.75):
        assert on_scale(low * share, count) == pytest.approx(on_scale(low4 * share))
        assert on_scale(low + (high - low) * share, count) == \
            pytest.approx(on_scale(low4 + (high4 - low4) * share))
    assert on_scale(high + 1.0, count) == pytest.approx(on_scale(high4 + 1.0))


def test_the_prior_is_sure_only_where_it_was_fitted():
    level_cut = LEVEL_CUTS[0]  # no fixed difficulty: a middling hand
    easy, hard = hand_prior("24", 4, 24, 1.0), hand_prior("24", 4, 24, 7.0)
    assert easy[0] < hard[0] and easy[1] == PRIOR_SPREAD
    assert hand_prior("24", 5, 24, 3.0)[1] == hand_prior("24", 4, 10, 3.0)[1] == OTHER_SPREAD
    assert hand_prior("24", 4, 24, 25.0) == hand_prior("24", 4, 24, 40.0)  # outliers capped
    assert hand_prior("24", 4, 24, None) == (pytest.approx(level_cut), UNKNOWN_SPREAD)
    assert hand_prior("countdown", 6, 437, None) == (0.0, UNKNOWN_SPREAD)
    with pytest.raises(ValueError):
        hand_prior("yahtzee", 5, 0, None)


# --- adaptive choice --------------------------------------------------------------------------

@pytest.mark.parametrize("group", [[(0.0, 0.3)], [(-2.0, 0.5), (-1.5, 1.0)],
                                   [(1.0, 0.3), (2.0, 0.3), (3.0, 1.5)]])
def test_adaptive_hands_hit_the_aimed_chance(group):
    scale = new_scale("24", 0.0)
    rng = random.Random(5)
    difficulty = {f"h{i}": rng.uniform(-8.0, 8.0) for i in range(3000)}
    keys = adaptive_hands(HandIndex(difficulty.items()), group, 120.0, scale, count=5)
    assert len(keys) == 5
    for key in keys:
        assert group_chance(group, difficulty[key], 120.0, scale) == pytest.approx(AIM, abs=0.02)
    # a shorter round deals easier hands to the same group
    assert aimed_difficulty(group, 60.0, scale) < aimed_difficulty(group, 120.0, scale)


def test_a_stronger_group_is_aimed_at_harder_hands():
    scale = new_scale("24", 0.0)
    alone = aimed_difficulty([(0.0, 0.3)], 120.0, scale)
    assert aimed_difficulty([(1.0, 0.3)], 120.0, scale) > alone
    assert aimed_difficulty([(0.0, 0.3), (0.0, 0.3)], 120.0, scale) > alone
    with pytest.raises(ValueError):
        aimed_difficulty([], 120.0, scale)


def test_the_index_finds_the_nearest_hands_as_a_scan_would():
    rng = random.Random(9)
    hands = {f"h{i}": rng.gauss(0.0, 3.0) for i in range(500)}
    index = HandIndex(hands.items())
    for key in list(hands)[:100]:  # moved, as updates move them
        hands[key] = rng.gauss(0.0, 3.0)
        index.put(key, hands[key])
    assert len(index) == 500
    for number in range(60):
        aim, count = rng.uniform(-12.0, 12.0), rng.randint(1, 20)
        if number >= 50:  # far past every hand: the hardest, or the easiest
            aim = 29.0 if number % 2 else -29.0
        exclude = set(rng.sample(sorted(hands), 50))
        scanned = sorted((abs(d - aim), k) for k, d in hands.items() if k not in exclude)
        assert index.nearest(aim, count, exclude) == [k for _, k in scanned[:count]]
    index.discard("h0")
    assert "h0" not in index and len(index) == 499
    assert len(index.nearest(0.0, 1000)) == 499


# --- determinism and input checks -------------------------------------------------------------

def test_updates_are_deterministic_and_ignore_the_order_of_responses():
    responses = (Response(1, solved_at=33.0), Response(2, wrong=1), Response(3),
                 Response(4, wrong=2, passed_at=20.0))
    players = {pid: player(pid, pid - 2.0, 0.5 + pid / 10) for pid in range(1, 5)}
    scale = new_scale("24", 0.0)
    first = rate_round(closed(*responses, ended_at=33.0), players, hand(), scale, NOW)
    again = rate_round(closed(*responses, ended_at=33.0), players, hand(), scale, NOW)
    turned = rate_round(closed(*reversed(responses), ended_at=33.0), players, hand(), scale, NOW)
    assert first == again
    assert sorted(first.players, key=lambda p: p.player_id) == \
        sorted(turned.players, key=lambda p: p.player_id)
    assert turned.hand.difficulty == pytest.approx(first.hand.difficulty, abs=1e-12)


def test_the_same_seed_deals_the_same_hands():
    def deals(seed: int) -> list[str]:
        book = Book(SEASON, (HandRating(f"h{i}", "24", -4.0 + i / 100, 0.5, 0, 0.0)
                             for i in range(800)))
        rng = random.Random(seed)
        return [book.choose("24", [1, 2], 120.0, NOW, rng) for _ in range(20)]
    assert deals(3) == deals(3)
    with pytest.raises(ValueError):
        Book(SEASON).choose("24", [1], 120.0, NOW, random.Random(1))


def test_what_cannot_be_rated_is_refused():
    with pytest.raises(ValueError):
        closed(Response(1), Response(1))
    with pytest.raises(ValueError):
        ClosedRound("24", KEY, 0.0, 0.0, ())
    other = HandRating("2 3 4 5=24", "24", 0.0, 0.6, 0, 0.0)
    with pytest.raises(ValueError):
        rate_round(closed(Response(1)), {1: player(1)}, other, new_scale("24", 0.0), NOW)
    with pytest.raises(ValueError):
        new_scale("yahtzee", NOW)


# --- the benchmark's simulator, small ---------------------------------------------------------

def small_data(path: Path) -> Path:
    """A made-up table in the human data's format: 60 solvable hands, times and rates that
    grow with their order (the benchmark never needs the real one to run)."""
    hands = [h for h in itertools.combinations_with_replacement(range(1, 14), 4)
             if is_solvable(h, 24)][:60]
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Rank", "Puzzles", "AMT (s)", "Solved rate", "1-sigma Mean (s)",
                         "1-sigma STD (s)"])
        for rank, numbers in enumerate(hands, 1):
            seconds = 4.0 * 1.05 ** rank
            writer.writerow([rank, " ".join(map(str, numbers)), f"{seconds:.2f}",
                             f"{99 - rank:.1f}%", f"{seconds:.2f}", f"{seconds / 3:.2f}"])
    return path


def test_the_benchmark_runs_small_and_its_values_are_finite(tmp_path):
    rows, seasons = bench_ratings.run(small_data(tmp_path / "human.csv"), rounds=300,
                                      players=20, adaptive_rounds=30, seed=2, repeat=5,
                                      many=1000)
    assert sum(not what.startswith(("(f)", "(g)")) for what, _, _ in rows) == 15
    for what, value, _ in rows:
        assert math.isfinite(value), what
    named = [value for what, value, _ in rows if what.startswith("(f)")]
    assert named and all(0 <= value <= bench_ratings.THEMED_RUNS for value in named)
    shares = [value for what, value, _ in rows if what.startswith("(g)") and "share" in what]
    assert shares and all(0 <= value <= 1 for value in shares)
    now, before = seasons.values()
    assert now.wins == before.wins > 0 and now.lowered == 0 < before.lowered
    assert all(len(season.means) == 4 for season in seasons.values())
    for censoring in ("failed", "ignored"):
        rows, _ = bench_ratings.run(tmp_path / "human.csv", 100, 10, 10, 2,
                                    censoring=censoring, fixed_shape=True, repeat=5, many=1000)
        assert all(math.isfinite(value) for _, value, _ in rows)
