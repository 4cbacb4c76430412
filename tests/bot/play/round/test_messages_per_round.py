"""One message per round, edited (issue 17, item 4; issue 26, items 2 and 3): the scenarios of
bench/bench_messages.py, played through the real Application, cost at most what the issues
allow. A 24 round with a hint, three wrong answers and a win: the deal and the result (the hint
edits the deal, the wrong answers go into its status, at most one edit a second); "no more
hints" and repeated presses are notices; Show all solutions pages in a message to the presser
alone (an ephemeral message: the group's result stays as it was); a
match's scoreboard rides on the result and its notice on the deal; a second Play again is a
notice; Countdown's five near answers stand in the deal's status; a round all its players passed
ends with its result. (Before issue 17 the first six cost 7, 4, 6, 3, 1 and 4 messages; before
issue 26 the Countdown round cost 7: see `python bench/bench_messages.py`.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bench_messages import (
    Count,
    a_match_round_with_its_notice,
    a_round_ended_by_pass,
    countdown_five_near_answers,
    hints_wrongs_and_a_win_by_buttons,
    hints_wrongs_and_a_win_by_command,
    no_more_hints_pressed_twice,
    play_again_pressed_twice,
    run,
    show_all_solutions_and_two_pages,
)
from bot.runtime.pool import SolverPool


@pytest.mark.parametrize(("scenario", "expected"), [
    (hints_wrongs_and_a_win_by_command, Count(sent=2, edited=2, reactions=2, notices=0)),
    (hints_wrongs_and_a_win_by_buttons, Count(sent=2, edited=2, reactions=0, notices=2)),
    (no_more_hints_pressed_twice, Count(sent=2, edited=1, reactions=0, notices=4)),
    # the pages go to their presser alone (one ephemeral message, turned twice): the group's
    # result stays as it was
    (show_all_solutions_and_two_pages, Count(sent=3, edited=2, reactions=0, notices=0)),
    (play_again_pressed_twice, Count(sent=0, edited=0, reactions=0, notices=1)),
    (a_match_round_with_its_notice, Count(sent=2, edited=1, reactions=0, notices=0)),
    (countdown_five_near_answers, Count(sent=2, edited=5, reactions=0, notices=0)),
    (a_round_ended_by_pass, Count(sent=2, edited=3, reactions=1, notices=0)),
])
async def test_a_round_costs_at_most_the_deal_and_its_result(pool: SolverPool, tmp_path: Path,
                                                             scenario, expected: Count):
    counted = await run(scenario, pool, tmp_path)
    assert counted == expected
    assert counted.sent <= 3  # the bound: deal, result, and at most one more
