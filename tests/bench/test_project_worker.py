"""The benchmark's bot round (bench/project_worker.py, mode "bot") deals with the bot's own deal,
so it needs the bot installed: it lives here, not with the solver's tests."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import ROOT
from tests.solver.test_bench_protocol import ask

WORKER = str(ROOT / "bench" / "project_worker.py")


@pytest.mark.slow
def test_the_worker_deals_the_bots_round_from_its_seed():
    first, _ = ask([sys.executable, WORKER, "bot"], [(5,), (6,)])
    again, _ = ask([sys.executable, WORKER, "bot"], [(5,)])
    assert first.results[0] == again.results[0] > 0
