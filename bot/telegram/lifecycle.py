"""The end of the Telegram application, for the loops that run it themselves (the poller, the
webhook server, a worker, the demo): what run_polling and run_webhook do at the end. What was
opened for the application (the stores, the pool, the lease) is the composition root's
(bot.wiring), closed by it after this.
"""

from __future__ import annotations

from bot.telegram.context import App


async def stop_application(application: App) -> None:
    """What run_polling and run_webhook do at the end: the updater stopped, the application
    stopped (the updates in hand handled, the jobs ended) and shut down (its bot's requests
    closed). Idempotent: a stop already done is done again as nothing."""
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    if application.running:
        await application.stop()
    await application.shutdown()
