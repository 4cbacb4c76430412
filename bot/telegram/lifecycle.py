"""The end of the Telegram application, for the loops that run it themselves (the poller, the
webhook server, a worker, the demo): what run_polling and run_webhook do at the end. What was
opened for the application (the stores, the pool, the lease) is the composition root's
(bot.wiring), closed by it after this.
"""

from __future__ import annotations

from bot.telegram.context import App


async def stop_application(application: App) -> None:
    """What run_polling and run_webhook do at the end: the updater stopped, the application
    stopped (`stop_handling`) and shut down (its bot's requests closed). Idempotent: a stop
    already done is done again as nothing."""
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    await stop_handling(application)
    await application.shutdown()


async def stop_handling(application: App) -> None:
    """The application stopped: the updates in hand handled, the jobs running ended, no other
    started. Every stop goes through here (the poller stops handling before it confirms the
    updates handled, then stops the rest)."""
    jobs = application.job_queue
    if jobs is not None and jobs.scheduler.running:
        # PTB's stop waits for the jobs running, then shuts the scheduler down, which cancels
        # a job started in between before it ran: APScheduler logs that as an error, with
        # CancelledError's traceback. Paused, it starts none; what runs is waited for.
        jobs.scheduler.pause()
    if application.running:
        await application.stop()
