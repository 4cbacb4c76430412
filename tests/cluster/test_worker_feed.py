"""What a worker does with an update's body (bot.telegram.webhook.process_body): it is read and
handled to its end through the application's update processor, so that when it returns the
handlers have run — and, for one that raised, the error handler too — and the consumer may
acknowledge it; a body that is not an update is dropped, not raised (it would fail again)."""

from __future__ import annotations

import json

from telegram import Update
from telegram.ext import ApplicationBuilder, ContextTypes, MessageHandler, filters

from bot.telegram.webhook import process_body

BODY = json.dumps({"update_id": 5, "message": {
    "message_id": 1, "date": 0, "text": "hello", "from": {"id": 7, "is_bot": False,
                                                           "first_name": "Ann"},
    "chat": {"id": 7, "type": "private", "first_name": "Ann"}}}).encode()


async def test_a_handler_that_raises_has_met_the_error_handler_when_it_returns(telegram):
    ran: list[str] = []

    async def failing(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        ran.append(f"handler {update.update_id}")
        raise RuntimeError("a handler's bug")

    async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        ran.append(f"error handler: {context.error}")

    application = (ApplicationBuilder().token(telegram.token).base_url(telegram.base_url)
                   .updater(None).concurrent_updates(4).build())
    application.add_handler(MessageHandler(filters.TEXT, failing))
    application.add_error_handler(on_error)
    await application.initialize()
    try:
        await process_body(application, BODY)
        assert ran == ["handler 5", "error handler: a handler's bug"]
        await process_body(application, b"not an update")  # logged and dropped
        await process_body(application, b'{"message": {}}')
        assert len(ran) == 2
    finally:
        await application.shutdown()
