"""The process pool that runs all solver work, with a time limit that really stops the work.

A task in a ProcessPoolExecutor cannot be cancelled once it runs, so on a timeout the pool's
processes are terminated and a fresh pool takes their place.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class SolverTimeout(Exception):
    """The work took longer than allowed and was stopped."""


class SolverPool:
    """Owns the executor; `run` awaits a function in a worker process."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._context = multiprocessing.get_context("spawn")
        self._executor = self._new()

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=self._context,
                                   initializer=_ignore_interrupts)

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float | None = None) -> T:
        """fn(*args) in a worker; SolverTimeout (and a fresh pool) when it takes too long.

        Work that another task's timeout took down with the old pool (cancelled in its queue or
        broken in its process) runs again on the new one: solver work is pure, so that is safe.
        """
        loop = asyncio.get_running_loop()
        while True:
            executor = self._executor
            future = loop.run_in_executor(executor, fn, *args)
            try:
                return await (future if timeout is None else asyncio.wait_for(future, timeout))
            except TimeoutError:
                log.warning("solver work %s timed out after %.1f s; restarting the pool",
                            getattr(fn, "__name__", fn), timeout)
                self._restart()
                raise SolverTimeout from None
            except (BrokenProcessPool, asyncio.CancelledError):
                task = asyncio.current_task()
                if executor is self._executor or (task is not None and task.cancelling()):
                    raise

    async def warm_up(self) -> None:
        """Start every worker (importing the solver) before the first player waits for one."""
        await asyncio.gather(*(self.run(_ready) for _ in range(self.workers)))

    def _restart(self) -> None:
        old = self._executor
        self._executor = self._new()
        for process in list(getattr(old, "_processes", {}).values()):
            process.terminate()
        old.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


def _ignore_interrupts() -> None:
    """Ctrl-C reaches the whole process group: the bot shuts the workers down itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ready() -> bool:
    import solver  # noqa: F401  (warms the worker's imports)

    return True
