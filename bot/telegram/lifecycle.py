"""The end of the Telegram application, for the loops that run it themselves (the demo, the
webhook server, a start-up cut short): what run_polling and run_webhook do at the end. What the
application opened at start-up is the composition root's (bot.wiring), closed in post_shutdown.
"""

from __future__ import annotations

from bot.telegram.context import App


async def stop_application(application: App) -> None:
    """What run_polling and run_webhook do at the end, for the loops that run the application
    themselves (the demo, the webhook server); post_shutdown closes the stores and the pool."""
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    if application.running:
        await application.stop()
        if application.post_stop is not None:
            await application.post_stop(application)
    await application.shutdown()
    if application.post_shutdown is not None:
        await application.post_shutdown(application)
