"""The solver's worker processes, one lane of them, with a time limit that really stops the work.

Answers are judged in the event loop (the reader bounds them: a verdict is a fraction of a
millisecond), so every process here does the heavy work — dealing and working out a round's
solutions, /solve, a game's command with a puzzle, inline queries — at a lower CPU
priority than the event loop, where the bot's own round work goes ahead of what waits (`rank`:
quick deals and a round's solutions, then slow deals, then the players' questions).
A task in a ProcessPoolExecutor cannot be cancelled once it runs, so on a timeout the lane's
processes are terminated and fresh ones take their place.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import SpawnContext
from typing import Any, TypeVar

from cachetools import FIFOCache

from bot.runtime import metrics

log = logging.getLogger(__name__)
T = TypeVar("T")

HEAVY_NICENESS = 10  # the workers yield the CPU to the event loop, which judges answers
ROUND_WORK, SLOW_DEALS, QUESTIONS, SPARES = range(4)  # ranks in the heavy lane's queue, first first
SERVED_KEPT = 10_000  # people whose last turn in the heavy lane is remembered
ORPHAN_CHECK_SECONDS = 1.0  # how often a worker checks that the bot that started it still runs


class SolverTimeout(Exception):
    """The work took longer than allowed and was stopped."""


class Work(Future):
    """A job's future, which knows the executor that runs it (None: not started yet)."""

    executor: ProcessPoolExecutor | None = None
    submitted = 0.0  # time.monotonic() when it was submitted: its lane wait starts
    on_start: Callable[[], None] | None = None  # called (in any thread) when a worker takes it


Job = tuple[Work, Callable[..., Any], tuple]
Who = int | None  # whose work it is: a person's id, or None for the bot's own


class Slots:
    """At most `workers` jobs in the executor at a time, the rest waiting here in two queues:
    the next free worker takes the job of the lowest `rank` waiting. The bookkeeping runs in the
    executor's own callbacks (any thread), so it needs no event loop and a job left behind by a
    closed loop still frees its worker."""

    def __init__(self, workers: int, executor: Callable[[], ProcessPoolExecutor],
                 lane: str = "") -> None:
        self.workers = workers
        self.lane = lane  # the metrics' label
        self.executor = executor  # the lane's executor of the moment (restarts replace it)
        self._busy = 0
        # per rank, each person's jobs in order; people take turns (the bot's own work is
        # `None`'s), the one served least lately first, as the update processor does
        self._waiting: tuple[OrderedDict[Who, deque[Job]], ...] = tuple(
            OrderedDict() for _ in range(SPARES + 1))
        # who -> the turn they last had; the SERVED_KEPT least lately served go first (a
        # setting moves a key to the end), and count as never served
        self._served: FIFOCache[Who, int] = FIFOCache(SERVED_KEPT)
        self._turns = 0
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], args: tuple, rank: int = QUESTIONS,
               who: Who = None, on_start: Callable[[], None] | None = None) -> Work:
        """A future for fn(*args), in `who`'s turn among the jobs of its rank; cancelling it
        before a worker takes it drops the work. `on_start` is called when a worker takes it."""
        job: Job = (Work(), fn, args)
        job[0].submitted = time.monotonic()
        job[0].on_start = on_start
        with self._lock:
            if self._busy >= self.workers:
                self._waiting[rank].setdefault(who, deque()).append(job)
                return job[0]
            self._busy += 1
        self._start(job)
        return job[0]

    def waiting(self) -> int:
        return sum(len(jobs) for queue in self._waiting for jobs in queue.values())

    def _start(self, job: Job) -> None:
        while True:
            outer, fn, args = job
            if outer.set_running_or_notify_cancel():
                metrics.observe_lane_wait(self.lane, time.monotonic() - outer.submitted)
                if outer.on_start is not None:
                    outer.on_start()
                try:
                    outer.executor = self.executor()
                    inner = outer.executor.submit(fn, *args)
                except Exception as error:  # shut down, or broken: the caller sees why
                    outer.set_exception(error)
                else:
                    inner.add_done_callback(functools.partial(self._finished, outer))
                    return
            next_job = self._next()
            if next_job is None:
                return
            job = next_job

    def _finished(self, outer: Work, inner: Future) -> None:
        if inner.cancelled():
            outer.set_exception(BrokenProcessPool("the lane was restarted"))
        elif (error := inner.exception()) is not None:
            outer.set_exception(error)
        else:
            outer.set_result(inner.result())
        if (job := self._next()) is not None:
            self._start(job)

    def _next(self) -> Job | None:
        """The job that takes the worker just freed (None: the worker stays free)."""
        with self._lock:
            for queue in self._waiting:
                if queue:
                    who = min(queue, key=lambda w: self._served.get(w, -1))
                    jobs = queue[who]
                    job = jobs.popleft()
                    if not jobs:
                        del queue[who]
                    self._turns += 1
                    self._served.pop(who, None)  # to the end: the latest served
                    self._served[who] = self._turns
                    return job
            self._busy -= 1
            return None


class Lane:
    """One executor; `run` awaits a function in one of its processes."""

    def __init__(self, name: str, workers: int, context: SpawnContext,
                 niceness: int = 0) -> None:
        self.name = name
        self.workers = max(1, workers)
        self.niceness = niceness
        self._context = context
        self._executor = self._new()
        self.slots = Slots(self.workers, lambda: self._executor, name)
        metrics.watch_lane_queue(name, self.slots.waiting)

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=self._context,
                                   initializer=_start_worker,
                                   initargs=(self.niceness, os.getpid()))

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float | None = None,
                  rank: int = QUESTIONS, who: Who = None, waiting_counts: bool = True) -> T:
        """fn(*args) in a worker; SolverTimeout (and fresh workers) when it takes too long.

        The time counts from the call, so waiting for a free worker counts too (unless
        `waiting_counts` is False: work nobody waits for, which may wait behind everyone's as
        long as it takes, and is timed from when a worker takes it); work that never left the
        queue is just dropped, work that runs takes the lane's processes down.
        Work that another task's timeout took down with the old executor (broken in its
        process) runs again on the new one: solver work is pure, so that is safe. `rank`:
        ahead of every job waiting of a higher rank.
        """
        while True:
            begun = None if waiting_counts or timeout is None else _Begun()
            job = self.slots.submit(fn, args, rank, who, None if begun is None else begun.set)
            future = asyncio.wrap_future(job)
            try:
                if begun is not None:
                    await begun.wait(future)
                return await (future if timeout is None else asyncio.wait_for(future, timeout))
            except TimeoutError:
                # still queued, or its processes already replaced: nothing left to stop
                if not job.cancel() and job.executor is self._executor:
                    log.warning("solver work %s timed out after %.1f s; restarting the %s lane",
                                _name(fn, args), timeout, self.name)
                    self._restart()
                raise SolverTimeout from None
            except (BrokenProcessPool, asyncio.CancelledError):
                task = asyncio.current_task()
                if job.executor is self._executor or (task is not None and task.cancelling()):
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

    def stop_now(self) -> None:
        """Stop at once, the process being about to exit: the workers terminated, then the
        executor shut down, so that its queues release what they hold (their semaphores,
        which the resource tracker would otherwise report leaked)."""
        for process in list(getattr(self._executor, "_processes", {}).values()):
            process.terminate()
        self._executor.shutdown(wait=True, cancel_futures=True)


class SolverPool:
    """`workers` processes (at least one) in the heavy lane; `heavy` is the lane."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        context = multiprocessing.get_context("spawn")
        self.heavy = Lane("heavy", self.workers, context, HEAVY_NICENESS)

    async def run_heavy(self, fn: Callable[..., T], *args: Any,
                        timeout: float | None = None, rank: int = QUESTIONS,
                        who: Who = None, waiting_counts: bool = True) -> T:
        """Work that may take seconds: deals, a round's solutions, /solve and the like;
        `rank` ROUND_WORK or SLOW_DEALS for the bot's own round work, which goes ahead of the
        players' questions (QUESTIONS), where each person (`who`) waits their turn."""
        return await self.heavy.run(fn, *args, timeout=timeout, rank=rank, who=who,
                                    waiting_counts=waiting_counts)

    async def warm_up(self) -> None:
        await self.heavy.warm_up()

    def shutdown(self) -> None:
        self.heavy.shutdown()

    def stop_now(self) -> None:
        """Stop every worker at once (a lost lease ends the process next)."""
        self.heavy.stop_now()


class _Begun:
    """Set, from any thread, when a worker takes a job; awaited in the event loop."""

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()

    def set(self) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            self._loop.call_soon_threadsafe(self._event.set)

    async def wait(self, job: asyncio.Future) -> None:
        """Until a worker takes the job (or it ends before: cancelled, failed); cancelling
        the wait drops the job."""
        started = asyncio.ensure_future(self._event.wait())
        try:
            await asyncio.wait((started, job), return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            job.cancel()
            raise
        finally:
            started.cancel()


def timed(fn: Callable[..., T], *args: Any) -> tuple[T, float]:
    """fn(*args) and the CPU seconds it took in the worker (not the wait for the worker)."""
    started = time.process_time()
    result = fn(*args)
    return result, time.process_time() - started


def _name(fn: Callable[..., Any], args: tuple) -> str:
    """The work's name for the log (what `timed` runs, rather than `timed`)."""
    inner = args[0] if fn is timed and args else fn
    return str(getattr(inner, "__name__", inner))


def _start_worker(niceness: int, parent: int) -> None:
    """Ctrl-C reaches the whole process group: the bot shuts the workers down itself. A bot
    killed outright (kill -9, the OOM killer) cannot, so each worker also ends itself once its
    parent is gone instead of idling forever as an orphan. The parent's pid comes from the
    parent: a worker still starting when the bot was killed would read its new parent's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True,
                     name="parent-watch").start()


def _exit_with_parent(parent: int, every: float = ORPHAN_CHECK_SECONDS) -> None:
    """An orphan is adopted by another process, so its parent id changes."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(0)


def _ready() -> bool:
    import solver  # noqa: F401  (warms the worker's imports)

    return True
