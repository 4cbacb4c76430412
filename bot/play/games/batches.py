"""Deals are made in batches in the solver pool (one trip to a worker makes several), each timed,
and the limits a deal's search keeps to."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.play.games.records import Deal

DEAL_SECONDS = 1.0  # how long a deal may search before it settles for what it found
DEAL_GRACE = 4.0  # past its budget (and a wait for the worker), a deal is stopped
ANALYSIS_GRACE = 10.0  # and past that, the time its solutions may take (six numbers: ~1.5 s)

Maker = Callable[..., "Deal | None"]


def deal_many(make: Maker, seeds: Sequence[int], *args: Any) -> list[tuple[Deal | None, float]]:
    """make(seed, *args) for each seed, with the CPU seconds each took: a batch of deals in one
    trip to a worker."""
    made = []
    for seed in seeds:
        started = time.process_time()
        dealt = make(seed, *args)
        made.append((dealt, time.process_time() - started))
    return made
