"""The crash trials and the fuzz on PostgreSQL too (issue 35, beyond the eleven): a small run of
bench/bench_crash.py with the bot's data in a PostgreSQL database, and small runs of
bench/bench_fuzz.py on each backend — no traceback in the bot's log, every readable press
answered, the bot still answering at the end (the benches run more of each)."""

from __future__ import annotations

import pytest

from bench import bench_fuzz
from bench.bench_crash import Figures, kill_trials, race_trials
from bot.store.postgres import open_postgres
from tests.postgres import new_database
from tests.postgres import postgres_server as postgres_server
from tests.postgres.server import PostgresServer


async def migrated(server: PostgresServer) -> str:
    url = await new_database(server)
    await (await open_postgres(url)).close()
    return url


@pytest.mark.slow
async def test_kill_trials_on_postgres_lose_and_double_nothing(tmp_path, postgres_server):
    figures = await kill_trials(2, seed=7, folder=tmp_path, chats_per_trial=3,
                                url=await migrated(postgres_server))
    assert figures.trials == 2 and figures.integrity_checked == 0
    assert figures.score_mismatches == 0, figures.problems
    assert figures.rounds > 0 and figures.open_with_right_answer == 0
    assert figures.still_open == 0
    assert figures.announced_never == 0, figures.problems
    assert figures.announced_twice <= 3, figures.problems
    assert figures.double_replies == 0


@pytest.mark.slow
async def test_races_on_postgres_make_one_winner(tmp_path, postgres_server):
    figures = await race_trials(4, seed=7, folder=tmp_path, figures=Figures(),
                                url=await migrated(postgres_server))
    assert figures.races == 4 and figures.one_winner == 4, figures.problems
    assert figures.told_who == figures.losers, figures.loser_replies
    assert figures.score_mismatches == 0, figures.problems


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_fuzz_of_every_update_type_leaves_no_traceback(tmp_path, backend, request):
    url = None
    if backend == "postgres":
        url = await migrated(request.getfixturevalue("postgres_server"))
    figures = await bench_fuzz.run(1500, seed=3, folder=tmp_path, database_url=url)
    assert figures.delivered >= 1500 and len(figures.fed) >= 25
    assert figures.fed["unreadable"] > 0 and figures.skipped_unreadable > 0
    assert figures.tracebacks == 0 and figures.errors == 0, figures.samples
    # every press answered but those past their sender's budget after its one notice (a burst
    # of one person's presses on a loaded machine): the bot counts those apart
    assert figures.presses and figures.unanswered <= figures.unanswered_past_budget
    assert figures.running and figures.help_answered
