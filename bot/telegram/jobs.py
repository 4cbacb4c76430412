"""Every use of PTB's JobQueue: the game services' scheduler port (one job per alarm kind, chat
and topic, found by its name), what the bot says when an alarm rings (in the topic the alarm is
for, through sending's guarded helpers: a chat that is gone or migrated is handled there), and
the housekeeping jobs (heartbeat, forgetting old update ids, the answers' retention)."""

from __future__ import annotations

import datetime
import logging
import time
from pathlib import Path

from telegram.ext import Job, JobQueue

from bot.play.round.outcomes import Outcome
from bot.play.round.status import STATUS
from bot.play.scheduler import NEXT_DEAL, ROUND_END, WARNING, Alarm
from bot.runtime.health import HEARTBEAT_SECONDS, heartbeat_job
from bot.store.retention import ANSWER_TEXTS_KEPT, EXPIRE_EVERY
from bot.store.stores import Stores
from bot.telegram.context import App, Context
from bot.telegram.sending import publish

log = logging.getLogger(__name__)
# Telegram redelivers an unconfirmed update for up to 24 hours; ids are kept a while longer.
HANDLED_UPDATES_KEPT = 2 * 24 * 3600.0
FORGET_EVERY = 3600.0
OVERDUE_EVERY = 5.0  # the sweep for rounds whose end alarm did not ring


def job_name(kind: str, chat_id: int, topic: int = 0) -> str:
    return f"{kind}:{chat_id}" + (f":{topic}" if topic else "")


class JobScheduler:
    """The scheduler port (bot.play.scheduler) on the application's JobQueue."""

    def __init__(self, queue: JobQueue[Context] | None) -> None:
        assert queue is not None, "python-telegram-bot[job-queue] is not installed"
        self.queue = queue

    def set(self, alarm: Alarm, seconds: float) -> None:
        self.cancel(alarm.kind, alarm.chat_id, alarm.topic)
        # no misfire grace: an alarm whose time passed during a stall rings late, never not
        self.queue.run_once(ring, max(0.0, seconds), data=alarm,
                            name=job_name(alarm.kind, alarm.chat_id, alarm.topic),
                            chat_id=alarm.chat_id, job_kwargs={"misfire_grace_time": None})

    def cancel(self, kind: str, chat_id: int, topic: int = 0) -> None:
        for job in self._jobs(kind, chat_id, topic):
            job.schedule_removal()

    def pending(self, kind: str, chat_id: int, topic: int = 0) -> Alarm | None:
        jobs = self._jobs(kind, chat_id, topic)
        return jobs[0].data if jobs else None  # type: ignore[return-value]

    def _jobs(self, kind: str, chat_id: int, topic: int) -> tuple[Job, ...]:
        return tuple(job for job in self.queue.get_jobs_by_name(job_name(kind, chat_id, topic))
                     if not job.removed)


async def ring(context: Context) -> None:
    """An alarm rang: a round's time is up, a match deals, a round's end is near, or a deal's
    status is due to be written; what the service says goes to the alarm's topic."""
    assert context.job is not None and isinstance(context.job.data, Alarm)
    await ring_alarm(context.application, context.job.data)


async def ring_alarm(application: App, alarm: Alarm) -> None:
    """What an alarm says, shown in its topic."""
    services = application.bot_data.services
    outcome: Outcome | None = None
    if alarm.kind == ROUND_END:
        assert alarm.round_id is not None
        outcome = await services.rounds.expire(alarm.round_id)
    elif alarm.kind == NEXT_DEAL:
        outcome = await services.matches.deal_next(alarm.chat_id, alarm.topic)
    elif alarm.kind == WARNING:
        assert alarm.round_id is not None
        outcome = services.matches.warning(alarm.chat_id, alarm.round_id, alarm.topic)
    elif alarm.kind == STATUS:
        assert alarm.round_id is not None
        outcome = services.rounds.status_due(alarm.round_id)
    if outcome is not None:
        await publish(application, alarm.chat_id, alarm.topic, outcome)


def start_housekeeping(application: App, stores: Stores, heartbeat: Path) -> None:
    """The heartbeat (the health check reads it) and the clean-up of old update ids, each run
    first as soon as the JobQueue starts: a container's first health probe comes within
    seconds, and a bot restarted every hour would otherwise never clean up."""
    queue = application.job_queue
    assert queue is not None

    async def forget_handled_updates(_context: Context) -> None:
        await stores.updates.forget_updates(time.time() - HANDLED_UPDATES_KEPT)

    async def expire_answers(_context: Context) -> None:  # the retention: bot/store/retention.py
        await stores.rounds.expire_answers(time.time() - ANSWER_TEXTS_KEPT)

    for callback, interval, name in ((heartbeat_job(heartbeat), HEARTBEAT_SECONDS, "heartbeat"),
                                     (forget_handled_updates, FORGET_EVERY, "forget-updates"),
                                     (expire_answers, EXPIRE_EVERY, "expire-answers"),
                                     (end_overdue, OVERDUE_EVERY, "overdue")):
        queue.run_repeating(callback, interval=interval, name=name, job_kwargs=at_start())


async def end_overdue(context: Context) -> None:
    """End the rounds whose time ran out without their alarm ringing (a stall past it, a
    job lost): an end is late by one sweep at most, never missed."""
    for closed in await context.bot_data.services.rounds.overdue():
        chat_id, topic = closed.round.place
        await publish(context.application, chat_id, topic, closed)


def at_start() -> dict[str, object]:
    """APScheduler's options for a repeating job that runs first when the queue starts. PTB's
    `first=0` does not: a job added before the scheduler starts (post_init) gets its first
    time counted from when it was added, a whole interval later; a first time in the past with
    no grace limit runs at once, however long the start-up took."""
    return {"next_run_time": datetime.datetime.now(datetime.UTC), "misfire_grace_time": None}
