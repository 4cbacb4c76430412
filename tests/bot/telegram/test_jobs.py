"""The scheduler port on the event loop's timers: an alarm is found by its name, replaced,
cancelled (one chat's, or many chats' at once) and forgotten once it rang; it rings only while
the JobQueue's scheduler runs (one due before the start rings at the start, none after a stop
paused it), in a task of the application's, whose error handler hears what it raised."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram.ext import Application, ApplicationBuilder

from bot.play.ports import Alarm
from bot.runtime import arrivals
from bot.telegram import jobs as jobs_module
from bot.telegram import polling
from bot.telegram.context import Context
from bot.telegram.jobs import JobScheduler
from bot.telegram.lean_request import LeanRequest
from bot.telegram.lifecycle import stop_application, stop_handling
from bot.telegram.speakers import OWED
from demo.emulator import BotApiEmulator

App = Application[Any, Any, Any, Any, Any, Any]


@pytest.fixture
def rung(monkeypatch: pytest.MonkeyPatch) -> list[Alarm]:
    rung: list[Alarm] = []

    async def ring(application: App, alarm: Alarm) -> None:
        if alarm.kind == "boom":
            raise RuntimeError("the ring failed")
        rung.append(alarm)

    monkeypatch.setattr(jobs_module, "ring", ring)
    return rung


def application_of(scheduler: JobScheduler, telegram: BotApiEmulator | None = None) -> App:
    builder = ApplicationBuilder().token(telegram.token if telegram else "1:x").updater(None)
    if telegram is not None:
        builder = builder.base_url(telegram.base_url)
    application = builder.job_queue(scheduler.queue).build()
    assert application.job_queue is scheduler.queue
    return application


async def until(condition: Any) -> None:
    for _ in range(300):
        if condition():
            return
        await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def running(scheduler: JobScheduler, telegram: BotApiEmulator) -> AsyncIterator[App]:
    application = application_of(scheduler, telegram)  # (its queue holds it weakly)
    await application.initialize()
    await application.start()
    try:
        yield application
    finally:
        await application.stop()
        await application.shutdown()


async def test_an_alarm_is_found_replaced_cancelled_and_forgotten_once_it_rang(
        rung: list[Alarm], telegram: BotApiEmulator):
    scheduler = JobScheduler()
    first, second = Alarm("round", -5, 1), Alarm("round", -5, 2)
    async with running(scheduler, telegram):
        scheduler.set(first, 600)
        scheduler.set(Alarm("warn", -5, 1, topic=7), 600)
        assert scheduler.pending("round", -5) == first
        assert scheduler.pending("warn", -5) is None  # another topic's
        assert scheduler.pending("warn", -5, 7) == Alarm("warn", -5, 1, topic=7)
        scheduler.set(second, 0.05)  # replaces the first: its timer goes with it
        assert scheduler.pending("round", -5) == second
        scheduler.cancel("round", -5)
        scheduler.cancel("round", -5)  # nothing left to cancel
        assert scheduler.pending("round", -5) is None
        scheduler.cancel("warn", -5, 7)
        scheduler.set(first, 0.01)
        await until(lambda: rung)
        await asyncio.sleep(0.1)  # the replaced and the cancelled never ring
        assert rung == [first]
        assert scheduler.pending("round", -5) is None  # it rang: not pending any more
        assert not scheduler._pending and not scheduler._timers  # and not kept
        scheduler.cancel("round", -5)  # a rung alarm cancelled: nothing happens


async def test_an_alarm_set_while_an_update_is_handled_rings_outside_it(
        monkeypatch: pytest.MonkeyPatch, telegram: BotApiEmulator):
    """A round's end, set by the /play that dealt it, rings a minute later as no update's
    handling: nothing waited (an ephemeral way is not skipped for the /play's age) and no
    update's claim is held."""
    heard: list[tuple[float, int | None]] = []

    async def ring(application: App, alarm: Alarm) -> None:
        heard.append((arrivals.waited(), OWED.get()))

    monkeypatch.setattr(jobs_module, "ring", ring)
    scheduler = JobScheduler()
    async with running(scheduler, telegram):
        with arrivals.arrived(arrivals.monotonic() - 60.0):
            owed = OWED.set(4242)
            scheduler.set(Alarm("round", -5, 1), 0.01)
            OWED.reset(owed)
        await until(lambda: heard)
    assert heard == [(0.0, None)]


async def test_alarms_share_one_empty_context_and_leave_nothing_in_it(
        monkeypatch: pytest.MonkeyPatch, telegram: BotApiEmulator):
    """Every alarm's timer runs in the same empty context (a context each was 57 bytes an
    alarm, two a round); what one ring sets stays in its own task, so the next ring, set from
    another update, still hears of no update."""
    heard: list[tuple[float, int | None]] = []

    async def ring(application: App, alarm: Alarm) -> None:
        heard.append((arrivals.waited(), OWED.get()))
        OWED.set(alarm.chat_id)  # in the ring's task: not in the next ring

    monkeypatch.setattr(jobs_module, "ring", ring)
    scheduler = JobScheduler()
    async with running(scheduler, telegram):
        for chat, owner in ((-5, 4242), (-6, 4343)):
            with arrivals.arrived(arrivals.monotonic() - 60.0):
                owed = OWED.set(owner)
                scheduler.set(Alarm("round", chat, 1), 0.05)
                scheduler.set(Alarm("status", chat, 1), 0.05)
                OWED.reset(owed)
        contexts = {id(timer._context) for timer in scheduler._timers.values()}
        assert len(contexts) == 1  # one context for the four timers
        await until(lambda: len(heard) == 4)
    assert heard == [(0.0, None)] * 4


async def test_many_chats_alarms_cancelled_at_once(rung: list[Alarm],
                                                  telegram: BotApiEmulator):
    scheduler = JobScheduler()
    async with running(scheduler, telegram):
        for chat in (-1, -2, -3):
            scheduler.set(Alarm("round", chat, 1), 0.02)
            scheduler.set(Alarm("status", chat, 1, topic=4), 0.02)
        scheduler.cancel_chats(lambda chat: chat != -2)
        await asyncio.sleep(0.2)
        assert sorted(rung, key=lambda alarm: alarm.kind) == \
            [Alarm("round", -2, 1), Alarm("status", -2, 1, topic=4)]


async def test_an_alarm_rings_only_while_the_scheduler_runs(rung: list[Alarm],
                                                            telegram: BotApiEmulator):
    scheduler = JobScheduler()
    application = application_of(scheduler, telegram)
    await application.initialize()
    early, cancelled, moved = Alarm("round", -5, 1), Alarm("round", -6, 1), Alarm("status", -7, 1)
    scheduler.set(early, 0)  # due before the start: held
    scheduler.set(cancelled, 0)
    scheduler.set(moved, 0)
    await asyncio.sleep(0.05)
    assert rung == [] and scheduler.pending("round", -5) == early
    scheduler.cancel("round", -6)  # held, then cancelled: never rings
    later = Alarm("status", -7, 2)
    scheduler.set(later, 600)  # held, then set again: waits for its new time
    await application.start()
    try:
        await until(lambda: rung)
        await asyncio.sleep(0.05)
        assert rung == [early] and scheduler.pending("round", -5) is None
        assert scheduler.pending("status", -7) == later
        scheduler.set(Alarm("round", -7, 1), 0.05)
        await stop_handling(application)  # a stop pauses the scheduler first
        await asyncio.sleep(0.15)
        assert rung == [early]  # due during the stop: not rung
    finally:
        if application.running:
            await application.stop()
        await application.shutdown()


async def test_what_a_ring_raises_reaches_the_error_handler(rung: list[Alarm],
                                                             telegram: BotApiEmulator):
    scheduler = JobScheduler()
    heard: list[BaseException | None] = []

    async def on_error(update: object, context: Context) -> None:
        heard.append(context.error)

    async with running(scheduler, telegram) as application:
        application.add_error_handler(on_error)
        scheduler.set(Alarm("boom", -5, 1), 0)
        await until(lambda: heard)
        assert [str(error) for error in heard] == ["the ring failed"]


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
