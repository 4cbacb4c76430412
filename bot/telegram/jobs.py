"""Every use of PTB's JobQueue: the game services' scheduler port (one job per alarm kind, chat
and topic, found by its name), ringing an alarm (play decides what it does and shows it, through
its outbox), and the housekeeping jobs (heartbeat, forgetting old update ids, the sweep for rounds
whose alarm did not ring, the answers' retention, the tournaments' schedules)."""

from __future__ import annotations

import datetime
import logging
import time
from collections.abc import Callable
from pathlib import Path

from telegram.ext import Job, JobQueue

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


def job_name(kind: str, chat_id: int, topic: int = 0) -> str:
    return f"{kind}:{chat_id}" + (f":{topic}" if topic else "")


class JobScheduler:
    """The scheduler port (bot.play.ports) on the application's JobQueue. Each alarm's job is
    found by its name in an index of the jobs this scheduler set and that are still scheduled
    (PTB's get_jobs_by_name wraps every job of the queue to find one: with a round open in
    each of many chats, that scan was a good part of a deal's CPU)."""

    def __init__(self, queue: JobQueue[Context] | None = None) -> None:
        """`queue`: the application's, or (None) a new one, which the application is then
        built with (bot.telegram.app.build_application)."""
        self.queue: JobQueue[Context] = JobQueue() if queue is None else queue
        self._named: dict[str, Job] = {}  # name -> its job, while scheduled

    def set(self, alarm: Alarm, seconds: float) -> None:
        self.cancel(alarm.kind, alarm.chat_id, alarm.topic)
        name = job_name(alarm.kind, alarm.chat_id, alarm.topic)
        # no misfire grace: an alarm whose time passed during a stall rings late, never not
        self._named[name] = self.queue.run_once(
            self._ring, max(0.0, seconds), data=alarm, name=name, chat_id=alarm.chat_id,
            job_kwargs={"misfire_grace_time": None})

    def cancel(self, kind: str, chat_id: int, topic: int = 0) -> None:
        job = self._job(job_name(kind, chat_id, topic))
        if job is not None:
            del self._named[job.name or ""]
            job.schedule_removal()

    def pending(self, kind: str, chat_id: int, topic: int = 0) -> Alarm | None:
        job = self._job(job_name(kind, chat_id, topic))
        return job.data if job is not None else None  # type: ignore[return-value]

    def cancel_chats(self, chats: Callable[[int], bool]) -> None:
        for name, job in list(self._named.items()):
            if job.chat_id is not None and chats(job.chat_id):
                del self._named[name]
                job.schedule_removal()

    def _job(self, name: str) -> Job | None:
        """The job of that name, if it is still scheduled (a job that rang, or was removed,
        is forgotten here)."""
        job = self._named.get(name)
        if job is not None and not self._scheduled(job):
            del self._named[name]
            return None
        return job

    def _scheduled(self, job: Job) -> bool:
        """Whether the job waits to run: APScheduler drops a once-job when its time comes,
        before its callback runs (a look-up by id, not a scan)."""
        return not job.removed and self.queue.scheduler.get_job(job.job.id) is not None

    async def _ring(self, context: Context) -> None:
        """The alarm's job ran: forgotten (unless still scheduled: run by hand), then rung."""
        job = context.job
        if job is not None and self._named.get(job.name or "") is job and \
                not self._scheduled(job):
            del self._named[job.name or ""]
        await ring(context)


async def ring(context: Context) -> None:
    """An alarm rang: a round's time is up, a match deals, a round's end is near, or a deal's
    status is due to be written; play says and shows what it does."""
    assert context.job is not None and isinstance(context.job.data, Alarm)
    await context.bot_data.services.alarms.ring(context.job.data)


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
