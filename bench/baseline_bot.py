"""The limit of the stack: a bare python-telegram-bot application that answers every update
with one message (a /play with a hand, as a deal looks; anything else with a reply to it), with
the bot's own transport settings (8 pooled connections, 32 updates at a time, polling with no
pause). bench_bot_load.py runs it on the same emulator as the bot."""

from __future__ import annotations

import os
import sys

from telegram import Update
from telegram.ext import ApplicationBuilder, ContextTypes, MessageHandler, filters

HAND = "1 2 3 4"  # what bench_bot_load reads its answers from


async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    if message is None:
        return
    if (message.text or "").startswith("/play"):
        await context.bot.send_message(message.chat_id, HAND)
    else:
        await message.reply_text("ok")


def main() -> int:
    application = (ApplicationBuilder().token(os.environ["TELEGRAM_BOT_TOKEN"])
                   .base_url(os.environ["TELEGRAM_BASE_URL"]).concurrent_updates(32)
                   .connection_pool_size(8).pool_timeout(30.0).build())
    application.add_handler(MessageHandler(filters.ALL, answer))
    application.run_polling(poll_interval=0.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
