"""One message per round, edited (issue 17, item 4): the scenarios of bench/bench_messages.py,
played through the real Application, cost at most what the issue allows. A 24 round with two
hints, three wrong answers and a win: the deal and the result (the hints edit the deal, the wrong
answers are marked); "no more hints" and repeated presses are notices; Show all solutions pages
in the result's own message; a match's scoreboard rides on the result and its notice on the
deal; a second Play again is a notice. (Before issue 17 the same scenarios cost 7, 4, 6, 3, 1
and 4 messages: see `python bench/bench_messages.py`.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bench_messages import (
    Count,
    a_match_round_with_its_notice,
    hints_wrongs_and_a_win_by_buttons,
    hints_wrongs_and_a_win_by_command,
    no_more_hints_pressed_twice,
    play_again_pressed_twice,
    run,
    show_all_solutions_and_two_pages,
)
from bot.runtime.pool import SolverPool


@pytest.mark.parametrize(("scenario", "expected"), [
    (hints_wrongs_and_a_win_by_command, Count(sent=2, edited=2, reactions=5, notices=0)),
    (hints_wrongs_and_a_win_by_buttons, Count(sent=2, edited=2, reactions=3, notices=2)),
    (no_more_hints_pressed_twice, Count(sent=2, edited=2, reactions=0, notices=4)),
    (show_all_solutions_and_two_pages, Count(sent=2, edited=3, reactions=0, notices=0)),
    (play_again_pressed_twice, Count(sent=0, edited=0, reactions=0, notices=1)),
    (a_match_round_with_its_notice, Count(sent=2, edited=1, reactions=0, notices=0)),
])
async def test_a_round_costs_at_most_the_deal_and_its_result(pool: SolverPool, tmp_path: Path,
                                                             scenario, expected: Count):
    counted = await run(scenario, pool, tmp_path)
    assert counted == expected
    assert counted.sent <= 3  # the bound: deal, result, and at most one more
