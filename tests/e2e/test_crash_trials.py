"""A small run of bench/bench_crash.py: the real bot killed with SIGKILL at random instants
and restarted, and simultaneous right answers (the bench runs more of both)."""

from __future__ import annotations

import pytest

from bench.bench_crash import Figures, kill_trials, race_trials


@pytest.mark.slow
async def test_kill_trials_lose_and_double_nothing(tmp_path):
    figures = await kill_trials(2, seed=7, folder=tmp_path, chats_per_trial=3)
    assert figures.trials == 2 and figures.integrity_ok == 2
    assert figures.score_mismatches == 0, figures.problems
    assert figures.rounds > 0 and figures.open_with_right_answer == 0
    assert figures.still_open == 0
    assert figures.announced_never == 0, figures.problems
    # a kill between a result's send and its mark may send it again at start-up: once per
    # chat a kill interrupts, at most
    assert figures.announced_twice <= 3, figures.problems
    assert figures.double_replies == 0


@pytest.mark.slow
async def test_simultaneous_right_answers_make_one_winner(tmp_path):
    figures = await race_trials(5, seed=7, folder=tmp_path, figures=Figures())
    assert figures.races == 5 and figures.one_winner == 5, figures.problems
    # every other racer is told who was first, however late their answer was read
    assert sum(figures.loser_replies.values()) == figures.losers
    assert figures.told_who == figures.losers, figures.loser_replies
    assert figures.score_mismatches == 0, figures.problems
