"""Deals are made in batches in the solver pool (one trip to a worker makes several), each timed,
and the limits a deal's search keeps to. A costly kind's deal (another target, more numbers) is
made in slices instead: one worker is shared by everyone's questions, and a search that may take
a second must not hold it that long while someone else's /solve waits."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.play.rules.records import Deal

DEAL_SECONDS = 1.0  # how long a deal may search before it settles for what it found
DEAL_GRACE = 4.0  # past its budget (and a wait for the worker), a deal is stopped
ANALYSIS_GRACE = 10.0  # and past that, the time its solutions may take (six numbers: ~1.5 s)
SLICE_SECONDS = 0.15  # a costly deal's search per trip to a worker (plus one hand's rating)


class Unfinished:
    """What a costly kind's maker returns when its slice ran out before its search did: given
    back to the maker in place of the seed, the search goes on where it stopped, with the same
    draws and what is left of the same budget (so the deal is the one an unsliced search makes).
    Picklable: the next slice may run in any worker."""


Maker = Callable[..., "Deal | Unfinished | None"]
"""make(seed, *args) -> a deal (None: the options admit none within the budget); a costly kind's
maker also takes `slice_seconds=` and then may return an Unfinished search."""


def deal_many(make: Maker, seeds: Sequence[int], *args: Any) -> list[tuple[Deal | None, float]]:
    """make(seed, *args) for each seed, with the CPU seconds each took: a batch of deals in one
    trip to a worker."""
    made = []
    for seed in seeds:
        started = time.process_time()
        dealt = make(seed, *args)
        assert not isinstance(dealt, Unfinished)  # unsliced, a search always ends
        made.append((dealt, time.process_time() - started))
    return made


def deal_slice(make: Maker, start: int | Unfinished, slice_seconds: float,
               *args: Any) -> tuple[Deal | Unfinished | None, float]:
    """One slice of a costly deal: make(start, *args) searching for at most about
    `slice_seconds` (a seed starts the search, an Unfinished one goes on), with the CPU seconds
    the slice took."""
    started = time.process_time()
    made = make(start, *args, slice_seconds=slice_seconds)
    return made, time.process_time() - started
