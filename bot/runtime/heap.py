"""The garbage collector set for a process that lives for weeks: what start-up made (modules,
sixteen catalogs, CLDR's data, the Application and its handlers) is kept out of every later
collection. A full collection otherwise walks all of it, 24 ms in the pages' bench process
and more in the bot's, at whatever request happens to allocate past the threshold: the pages'
year bench saw a heavy player's page take 118 ms where its reads took 30."""

from __future__ import annotations

import gc
import time

from bot.runtime import metrics

_settled = False  # whether this process's first start-up has settled
_began: list[float] = []  # the collection under way began then (perf_counter)


def settle_once() -> int:
    """`settle` at the process's first start-up only; how many objects are frozen. A process
    that starts a bot more than once (the demo's restarts, the tests' hundreds of bots, each
    let go after its test) would only freeze the garbage of the ones before, and walk the whole
    heap to do it: 0.17 s a start-up in a test process."""
    global _settled
    if _settled:
        return gc.get_freeze_count()
    _settled = True
    gc.callbacks.append(timed)
    return settle()


def timed(phase: str, info: dict[str, int]) -> None:
    """gc's callback: each collection's pause, a metric (a tail of the updates' times is often
    a full collection, which stops everything while it walks the heap)."""
    if phase == "start":
        _began[:] = [time.perf_counter()]
    elif _began:
        metrics.observe_gc_pause(info.get("generation", 0), time.perf_counter() - _began[0])
        _began.clear()


def settle() -> int:
    """Collect what start-up left, then freeze the rest (gc.freeze: moved to a generation no
    collection scans); how many objects are frozen now. Called once start-up is done; calling
    it again freezes what was made since."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
