"""Waiting for an event with a bound, in place of a fixed sleep: a test waits as long as the
thing takes, however loaded the machine, and fails saying what never came. The bound is no
assertion on time: it only keeps a broken run from hanging.

Imports nothing beyond the standard library (tests/solver uses nothing of it, but may).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable

BOUND = 30.0  # seconds: far past what any awaited event takes on a loaded machine


async def until(ready: Callable[[], bool | Awaitable[bool]], what: str,
                timeout: float = BOUND, every: float = 0.02) -> None:
    """Return once `ready()` (a function or a coroutine function) is true; AssertionError
    naming `what` when it is still false after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        answer = ready()
        if inspect.isawaitable(answer):
            answer = await answer
        if answer:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        await asyncio.sleep(every)
