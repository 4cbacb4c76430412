"""How late the event loop runs what is due (issue 71: what makes the half-load tail).

Everything the bot does for an update runs on one event loop, and a callback that is due waits
while another runs: an update's "handling" stage includes that wait, which no store or Bot API
timing shows. A timer due every TICK seconds measures it: how much later than due it ran, as the
`loop` stage of `twentyfour_update_stage_seconds`. A tail there that matches the updates' tail
says the loop (the process's CPU) is the bottleneck; a flat one says the time goes in awaits.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

from bot.runtime import metrics

TICK = 0.1  # seconds between two looks: ten a second, a few µs each


async def watch(observe: Callable[[float], None], tick: float = TICK) -> None:
    """Observe how late each tick ran, until cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + tick
        await asyncio.sleep(tick)
        observe(max(0.0, loop.time() - due))


@contextlib.asynccontextmanager
async def watching(tick: float = TICK) -> AsyncIterator[None]:
    """The loop's lateness observed while inside."""
    task = asyncio.create_task(watch(metrics.stage_timer("loop"), tick))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
