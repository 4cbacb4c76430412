"""The scheduler port on PTB's JobQueue: an alarm's job is found by its name without a scan of
every job (bot/telegram/jobs.py keeps an index), and the index holds only what is scheduled."""

from __future__ import annotations

import asyncio
import logging

import pytest
from telegram.ext import ApplicationBuilder

from bot.play.ports import Alarm
from bot.telegram import jobs as jobs_module
from bot.telegram import polling
from bot.telegram.context import Context
from bot.telegram.jobs import JobScheduler
from bot.telegram.lean_request import LeanRequest
from bot.telegram.lifecycle import stop_application
from demo.emulator import BotApiEmulator


async def test_an_alarm_is_found_replaced_cancelled_and_forgotten_once_it_rang(
        monkeypatch: pytest.MonkeyPatch):
    rung: list[Alarm] = []

    async def ring(context: Context) -> None:
        assert context.job is not None and isinstance(context.job.data, Alarm)
        rung.append(context.job.data)

    monkeypatch.setattr(jobs_module, "ring", ring)
    scheduler = JobScheduler()  # its own queue, which the application is built with
    application = ApplicationBuilder().token("1:x").updater(None) \
        .job_queue(scheduler.queue).build()
    queue = application.job_queue
    assert queue is scheduler.queue
    first, second = Alarm("round", -5, 1), Alarm("round", -5, 2)
    await queue.start()
    try:
        scheduler.set(first, 600)
        scheduler.set(Alarm("warn", -5, 1, topic=7), 600)
        assert scheduler.pending("round", -5) == first
        assert scheduler.pending("warn", -5) is None  # another topic's
        assert scheduler.pending("warn", -5, 7) == Alarm("warn", -5, 1, topic=7)
        scheduler.set(second, 600)  # replaces the first: one job by that name
        assert [job.data for job in queue.get_jobs_by_name("round:-5")] == [second]
        scheduler.cancel("round", -5)
        scheduler.cancel("round", -5)  # nothing left to cancel
        assert scheduler.pending("round", -5) is None
        assert not queue.get_jobs_by_name("round:-5")
        scheduler.cancel("warn", -5, 7)
        scheduler.set(first, 0.01)
        for _ in range(200):
            if rung:
                break
            await asyncio.sleep(0.01)
        assert rung == [first]
        assert scheduler.pending("round", -5) is None  # it rang: not pending any more
        assert not scheduler._named  # and not kept
        scheduler.cancel("round", -5)  # a rung alarm cancelled: nothing happens
    finally:
        await queue.stop()


class Poller:
    """What `polling.serve` asks of its poller: the poll (here: until the stop), the updates
    handled confirmed, how many are in hand."""

    intake = type("Intake", (), {"in_hand": 0})()

    async def run(self, stop: asyncio.Event) -> None:
        await stop.wait()

    async def confirm(self) -> None:
        return None


def cancelled_jobs(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name.startswith("apscheduler")
            and record.levelno >= logging.ERROR]


@pytest.mark.parametrize("stops", ["stop_application", "polling.serve"])
async def test_a_stop_starts_no_job_it_then_cancels(caplog: pytest.LogCaptureFixture,
                                                     stops: str):
    """PTB's stop waits for the jobs running, then shuts the scheduler down, which cancels
    whatever started in between: a job cancelled before it ran, logged by APScheduler as one
    that raised, with CancelledError's traceback (the demo's /quit showed it once in a full
    run). The bot's stop pauses the scheduler first: what runs is waited for, nothing starts."""
    ran = 0

    async def tick(context: Context) -> None:
        nonlocal ran
        ran += 1
        await asyncio.sleep(0.002)

    emulator = BotApiEmulator()
    await emulator.start()
    try:
        for _ in range(40):
            # the bot's own requests: PTB's default ones load certifi's authorities for each
            # client (about 45 ms each, 80 of them here); the bot's load them once a process
            application = ApplicationBuilder().token(emulator.token) \
                .base_url(emulator.base_url).request(LeanRequest()) \
                .get_updates_request(LeanRequest()).updater(None) \
                .job_queue(JobScheduler().queue).build()
            application.job_queue.run_repeating(tick, interval=0.001, first=0.0)
            await application.initialize()
            if stops == "stop_application":
                await application.start()
                await asyncio.sleep(0.01)
                await stop_application(application)
            else:  # the poller's stop (the PostgreSQL fuzz showed the error here)
                stop = asyncio.Event()
                asyncio.get_running_loop().call_later(0.01, stop.set)
                await polling.serve(application, Poller(), stop, started)  # type: ignore[arg-type]
    finally:
        await emulator.stop()
    assert ran
    raised = cancelled_jobs(caplog)
    assert not raised, raised[0].getMessage()


async def started() -> bool:
    return True
