"""The event loop's lateness (bot.runtime.loop_lag): a loop held busy shows as a late tick, an
idle one as none, and the watcher ends with its context."""

from __future__ import annotations

import asyncio
import time

from bot.runtime import loop_lag, metrics


async def test_a_loop_held_busy_shows_as_a_late_tick_and_an_idle_one_as_none():
    seen: list[float] = []
    task = asyncio.create_task(loop_lag.watch(seen.append, tick=0.02))
    await asyncio.sleep(0.15)  # idle: ticks on time
    idle = list(seen)
    time.sleep(0.3)  # a callback that holds the loop
    await asyncio.sleep(0.05)
    task.cancel()
    assert idle and max(idle) < 0.1
    assert max(seen) >= 0.25  # the tick due during the hold ran that much later


def late_count() -> float:
    return sum(sample.value for family in metrics.REGISTRY.collect()
               for sample in family.samples
               if sample.name == "twentyfour_update_stage_seconds_count"
               and sample.labels.get("stage") == "loop")


async def test_watching_records_the_loop_stage_and_stops_with_its_context():
    before = late_count()
    async with loop_lag.watching(tick=0.01):
        await asyncio.sleep(0.1)
    during = late_count()
    assert during - before >= 3
    await asyncio.sleep(0.05)
    assert late_count() == during  # no tick after the context ended
