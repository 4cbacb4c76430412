"""The heavy lane's queue: the bot's own round work goes ahead of slow deals, and both ahead of
the questions waiting; never more than `workers` jobs are in the executor, and a dropped job
frees nothing it never held."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from bot.runtime.pool import ROUND_WORK, SLOW_DEALS, Slots


def test_first_work_takes_the_next_free_worker():
    executor = ThreadPoolExecutor(max_workers=4)
    slots = Slots(1, lambda: executor)  # type: ignore[arg-type, return-value]
    gate, order = threading.Event(), []
    try:
        blocking = slots.submit(gate.wait, (10,))
        asked = slots.submit(order.append, ("asked",))
        dropped = slots.submit(order.append, ("dropped",))
        slow = slots.submit(order.append, ("slow deal",), rank=SLOW_DEALS)
        deal = slots.submit(order.append, ("deal",), rank=ROUND_WORK)
        assert slots.waiting() == 4  # one worker: the rest wait, whatever the executor allows
        assert dropped.cancel()
        gate.set()
        for future in (blocking, asked, slow, deal):
            future.result(10)
        assert order == ["deal", "slow deal", "asked"]
        assert dropped.cancelled() and slots.waiting() == 0
        again = slots.submit(order.append, ("again",))  # the worker is free again
        again.result(10)
        assert order[-1] == "again"
    finally:
        executor.shutdown()


def test_an_error_reaches_the_caller_and_frees_the_worker():
    executor = ThreadPoolExecutor(max_workers=2)
    slots = Slots(1, lambda: executor)  # type: ignore[arg-type, return-value]
    try:
        failing = slots.submit(int, ("x",))
        assert isinstance(failing.exception(10), ValueError)
        assert slots.submit(int, ("7",)).result(10) == 7
    finally:
        executor.shutdown()


def test_people_take_turns_in_a_rank():
    """A troll's many slow deals wait their turn: each other person's question goes after
    at most one of the troll's jobs, not after all of them."""
    executor = ThreadPoolExecutor(max_workers=2)
    slots = Slots(1, lambda: executor)  # type: ignore[arg-type, return-value]
    gate, order = threading.Event(), []
    try:
        blocking = slots.submit(gate.wait, (10,))
        jobs = [slots.submit(order.append, (f"troll {i}",), who=666) for i in range(4)]
        jobs.append(slots.submit(order.append, ("ann",), who=1))
        jobs.append(slots.submit(order.append, ("ben",), who=2))
        jobs.append(slots.submit(order.append, ("ann again",), who=1))
        gate.set()
        for future in (blocking, *jobs):
            future.result(10)
        assert order == ["troll 0", "ann", "ben", "troll 1", "ann again", "troll 2", "troll 3"]
    finally:
        executor.shutdown()
