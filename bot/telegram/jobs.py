"""The bot's timers: the game services' scheduler port (one alarm per kind, chat and topic, found
by its name, on the event loop's timers), ringing an alarm (play decides what it does and shows
it, through its outbox), and the housekeeping jobs on PTB's JobQueue (heartbeat, forgetting old
update ids, the sweep for rounds whose alarm did not ring, the answers' retention, the
tournaments' schedules)."""

from __future__ import annotations

import asyncio
import contextvars
import datetime
import logging
import time
from collections.abc import Callable
from pathlib import Path

from apscheduler.schedulers.base import STATE_RUNNING
from telegram.ext import JobQueue

from bot.play.community.retention import EXPIRE_EVERY
from bot.play.ports import Alarm
from bot.runtime.health import HEARTBEAT_SECONDS, heartbeat_job
from bot.telegram.context import App, Context

log = logging.getLogger(__name__)
# Telegram redelivers an unconfirmed update for up to 24 hours; ids are kept a while longer.
HANDLED_UPDATES_KEPT = 2 * 24 * 3600.0
FORGET_EVERY = 3600.0
OVERDUE_EVERY = 5.0  # the sweep for rounds whose end alarm did not ring
TOURNAMENTS_EVERY = 1.0  # a look at the tournaments' schedules due
# The context every alarm's timer runs `_due` in: one for all, as nothing there sets a variable
# (the ring's task copies it, and sets its own in the copy), where a context each cost 57 bytes
# an alarm, two alarms a round.
NO_UPDATE = contextvars.Context()


def job_name(kind: str, chat_id: int, topic: int = 0) -> str:
    return f"{kind}:{chat_id}" + (f":{topic}" if topic else "")


class AlarmQueue(JobQueue[Context]):
    """PTB's JobQueue (the housekeeping jobs run on it), which also tells the alarms when it
    starts: an alarm due before then rings then, as a job added before the start would."""

    def __init__(self, started: Callable[[], None]) -> None:
        super().__init__()
        self._started = started

    async def start(self) -> None:
        await super().start()
        self._started()


class JobScheduler:
    """The scheduler port (bot.play.ports) on the event loop's own timers, which ring through
    the application's `create_task` (its error handler, and its stop waits for them). A round
    sets two alarms (its end, its deal's status) and a wrong answer moves one: as APScheduler
    jobs they cost 90-130 us each to add (a Job, its trigger, its time in two time zones, a
    wake-up) and more to ring, about a twentieth of a round's CPU; a loop's timer costs 3 us.

    An alarm rings only while the queue's scheduler runs, as a job would: one due before the
    start rings at the start, and none rings once a stop has paused it (the next start's
    recovery and the overdue sweep end what it leaves, bot.play.recovery)."""

    def __init__(self) -> None:
        """Its queue, which the application is then built with (bot.telegram.app)."""
        self.queue: JobQueue[Context] = AlarmQueue(self._ring_held)
        self._pending: dict[str, Alarm] = {}  # name -> its alarm, until it rings
        self._timers: dict[str, asyncio.TimerHandle] = {}  # name -> its timer, until due
        self._held: dict[str, None] = {}  # due while the scheduler did not run, in order

    def set(self, alarm: Alarm, seconds: float) -> None:
        self.cancel(alarm.kind, alarm.chat_id, alarm.topic)
        name = job_name(alarm.kind, alarm.chat_id, alarm.topic)
        self._pending[name] = alarm
        # rung in an empty context, not the one of the update that set it: a ring is no
        # update's handling (its arrival, its owed claim), however long after it comes
        self._timers[name] = asyncio.get_running_loop().call_later(
            max(0.0, seconds), self._due, name, context=NO_UPDATE)

    def cancel(self, kind: str, chat_id: int, topic: int = 0) -> None:
        self._drop(job_name(kind, chat_id, topic))

    def pending(self, kind: str, chat_id: int, topic: int = 0) -> Alarm | None:
        return self._pending.get(job_name(kind, chat_id, topic))

    def pending_in(self, chat_id: int) -> list[Alarm]:
        """Every alarm of the chat, of any kind and topic, that has not rung yet."""
        return [alarm for alarm in self._pending.values() if alarm.chat_id == chat_id]

    def cancel_chats(self, chats: Callable[[int], bool]) -> None:
        for name in [name for name, alarm in self._pending.items() if chats(alarm.chat_id)]:
            self._drop(name)

    def _drop(self, name: str) -> None:
        if self._pending.pop(name, None) is not None:
            self._held.pop(name, None)  # (a held one is not rung: set again, it waits anew)
            timer = self._timers.pop(name, None)
            if timer is not None:
                timer.cancel()

    def _due(self, name: str) -> None:
        """An alarm's time came: rung now while the scheduler runs, else held for its start."""
        del self._timers[name]
        if self.queue.scheduler.state != STATE_RUNNING:
            self._held[name] = None
            return
        self._ring(name)

    def _ring_held(self) -> None:
        held, self._held = self._held, {}
        for name in held:
            self._ring(name)

    def _ring(self, name: str) -> None:
        """Forgotten (no longer pending), then rung in a task of the application's."""
        alarm = self._pending.pop(name, None)
        if alarm is not None:
            application = self.queue.application
            application.create_task(ring(application, alarm), name=f"alarm:{name}")


async def ring(application: App, alarm: Alarm) -> None:
    """An alarm rang: a round's time is up, a match deals, a round's end is near, or a deal's
    status is due to be written; play says and shows what it does."""
    await application.bot_data.services.alarms.ring(alarm)


def start_housekeeping(application: App, heartbeat: Path,
                       sole: Callable[[], bool] = lambda: True) -> None:
    """The heartbeat (the health check reads it), the clean-up of old update ids, the sweep
    for overdue rounds and the answers' retention, each run first as soon as the JobQueue
    starts: a container's first health probe comes within seconds, and a bot restarted every
    hour would otherwise never clean up. The two that span the database run only while
    `sole()` (one of many workers at a time)."""
    queue = application.job_queue
    assert queue is not None

    async def forget_handled_updates(context: Context) -> None:
        if sole():
            await context.bot_data.services.once.forget_before(
                time.time() - HANDLED_UPDATES_KEPT)

    async def expire_answers(context: Context) -> None:
        if sole():
            await context.bot_data.services.community.retention.expire()

    for callback, interval, name in ((heartbeat_job(heartbeat), HEARTBEAT_SECONDS, "heartbeat"),
                                     (forget_handled_updates, FORGET_EVERY, "forget-updates"),
                                     (expire_answers, EXPIRE_EVERY, "expire-answers"),
                                     (end_overdue, OVERDUE_EVERY, "overdue"),
                                     (tournaments, TOURNAMENTS_EVERY, "tournaments")):
        queue.run_repeating(callback, interval=interval, name=name, job_kwargs=at_start())


async def end_overdue(context: Context) -> None:
    """End the rounds whose time ran out without their alarm ringing (a stall past it, a
    job lost): an end is late by one sweep at most, never missed."""
    await context.bot_data.services.alarms.sweep()


async def tournaments(context: Context) -> None:
    """A look at the tournaments' schedules due now, where this process plays (a standby
    waits); it runs on its own, holding no job's turn."""
    if context.bot_data.lead.leading():
        await context.bot_data.services.tournaments.tick()


def at_start() -> dict[str, object]:
    """APScheduler's options for a repeating job that runs first when the queue starts. PTB's
    `first=0` does not: a job added before the scheduler starts (with the application) gets its
    first time counted from when it was added, a whole interval later; a first time in the past
    with no grace limit runs at once, however long the start-up took."""
    return {"next_run_time": datetime.datetime.now(datetime.UTC), "misfire_grace_time": None}
