"""A repeating job's runs that APScheduler skipped, counted and said once in a while.

A repeating job (the tournaments' look each second, the overdue rounds' sweep) whose run is
still going when its next is due has that run skipped, which is what it should be: the run under
way does the work. APScheduler says so in a WARNING each time, so a burst that holds the one
second's look for a few seconds wrote a line a second: 87 lines in one run of the memory bench,
each the same. Each skip is counted instead (`twentyfour_job_runs_skipped{job}`), and a job's
skips are said in one line at most every `EVERY` seconds, with how many there were.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot.runtime import metrics

LOGGER = "apscheduler.scheduler"  # where APScheduler 3 says a run was skipped
SKIPPED = "maximum number of running instances reached"
EVERY = 300.0  # seconds between two lines about one job's skips


class SkippedRuns(logging.Filter):
    """The filter on APScheduler's logger: every other record passes unchanged."""

    def __init__(self, every: float = EVERY, clock: Callable[[], float] = time.monotonic,
                 count: Callable[[str], None] = metrics.record_job_run_skipped) -> None:
        super().__init__()
        self.every, self.clock, self.count = every, clock, count
        self._said: dict[str, float] = {}  # a job's name: when its last line was written
        self._since: dict[str, int] = {}  # a job's name: its skips not said yet

    def filter(self, record: logging.LogRecord) -> bool:
        if SKIPPED not in str(record.msg):
            return True
        job = _name(record)
        self.count(job)
        skipped = self._since[job] = self._since.get(job, 0) + 1
        now = self.clock()
        said = self._said.get(job)
        if said is not None and now - said < self.every:
            return False
        self._said[job], self._since[job] = now, 0
        record.msg = ("job %s: %d run(s) skipped, each due while the one before still ran "
                      "(said at most every %.0f s; twentyfour_job_runs_skipped counts them)")
        record.args = (job, skipped, self.every)
        return True


def _name(record: logging.LogRecord) -> str:
    """The job's name: APScheduler passes the job itself as the message's first argument (its
    `name` is the one the bot gave it)."""
    args = record.args if isinstance(record.args, tuple) else ()
    job = args[0] if args else None
    return str(getattr(job, "name", None) or job or "?")


def install() -> SkippedRuns:
    """Put the filter on APScheduler's logger (once: a second call finds the first)."""
    logger = logging.getLogger(LOGGER)
    for existing in logger.filters:
        if isinstance(existing, SkippedRuns):
            return existing
    found = SkippedRuns()
    logger.addFilter(found)
    return found
