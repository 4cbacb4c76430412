"""A repeating job's skipped runs: counted each, said once a while (bot/runtime/skipped_runs.py)."""

from __future__ import annotations

import asyncio
import datetime
import logging

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.runtime import metrics, skipped_runs
from bot.runtime.skipped_runs import SkippedRuns


def skip_record(job: object) -> logging.LogRecord:
    """The record APScheduler 3 writes when it skips a run (its message and arguments)."""
    return logging.LogRecord(
        skipped_runs.LOGGER, logging.WARNING, __file__, 1,
        'Execution of job "%s" skipped: maximum number of running instances reached (%d)',
        (job, 1), None)


class Job:
    name = "tournaments"

    def __str__(self) -> str:
        return "tournaments (trigger: interval[0:00:01], next run at: 2026-11-28 UTC)"


def test_the_first_skip_is_said_then_none_until_the_interval_then_how_many():
    now = [0.0]
    counted: list[str] = []
    skips = SkippedRuns(every=300, clock=lambda: now[0], count=counted.append)
    first = skip_record(Job())
    assert skips.filter(first)
    assert first.getMessage().startswith("job tournaments: 1 run(s) skipped")
    for second in range(1, 300):
        now[0] = second
        assert not skips.filter(skip_record(Job()))
    now[0] = 300
    later = skip_record(Job())
    assert skips.filter(later)
    assert "job tournaments: 300 run(s) skipped" in later.getMessage()
    assert counted == ["tournaments"] * 301  # every skip counted, said or not


def test_each_job_has_its_own_line_and_every_other_record_passes_unchanged():
    skips = SkippedRuns(clock=lambda: 0.0, count=lambda job: None)
    other = type("Other", (), {"name": "overdue"})()
    assert skips.filter(skip_record(Job()))
    assert skips.filter(skip_record(other))  # another job: said, though the first was
    assert not skips.filter(skip_record(Job()))
    missed = logging.LogRecord(skipped_runs.LOGGER, logging.WARNING, __file__, 1,
                               'Run time of job "%s" was missed by %s', ("x", "0:00:02"), None)
    assert skips.filter(missed)
    assert missed.getMessage() == 'Run time of job "x" was missed by 0:00:02'


def test_a_job_without_a_name_is_named_by_what_it_prints():
    skips = SkippedRuns(clock=lambda: 0.0, count=lambda job: None)
    record = skip_record("plain")
    assert skips.filter(record)
    assert record.getMessage().startswith("job plain: 1 run(s) skipped")


def test_install_puts_one_filter_however_often_it_is_called():
    logger = logging.getLogger(skipped_runs.LOGGER)
    first = skipped_runs.install()
    try:
        assert skipped_runs.install() is first
        assert sum(isinstance(f, SkippedRuns) for f in logger.filters) == 1
    finally:
        logger.removeFilter(first)


async def test_apscheduler_s_own_skips_of_a_slow_job_make_one_line_and_a_count(caplog):
    """The real scheduler, a job due every 0.05 s whose run takes 0.6 s: about ten skips, one
    line; the counter holds every one."""
    counter = metrics.REGISTRY.get_sample_value
    before = counter("twentyfour_job_runs_skipped_total", {"job": "slow"}) or 0.0
    installed = skipped_runs.install()
    scheduler = AsyncIOScheduler(timezone=datetime.UTC)
    ran = asyncio.Event()

    async def slow() -> None:
        await asyncio.sleep(0.6)
        ran.set()

    scheduler.add_job(slow, "interval", seconds=0.05, name="slow", max_instances=1,
                      next_run_time=datetime.datetime.now(datetime.UTC))
    try:
        with caplog.at_level(logging.WARNING, logger=skipped_runs.LOGGER):
            scheduler.start()
            await asyncio.wait_for(ran.wait(), 5)
            await asyncio.sleep(0.1)
    finally:
        scheduler.shutdown(wait=False)
        logging.getLogger(skipped_runs.LOGGER).removeFilter(installed)
    lines = [r.getMessage() for r in caplog.records if r.name == skipped_runs.LOGGER
             and "skipped" in r.getMessage()]
    skipped = (counter("twentyfour_job_runs_skipped_total", {"job": "slow"}) or 0.0) - before
    assert skipped >= 3
    assert lines == ["job slow: 1 run(s) skipped, each due while the one before still ran "
                     "(said at most every 300 s; twentyfour_job_runs_skipped counts them)"]


@pytest.fixture(autouse=True)
def no_filter_left_behind():
    yield
    logger = logging.getLogger(skipped_runs.LOGGER)
    for existing in list(logger.filters):
        if isinstance(existing, SkippedRuns):
            logger.removeFilter(existing)
