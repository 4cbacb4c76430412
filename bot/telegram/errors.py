"""The application's error handler: what a handler or a timer raised is logged, and the chat gets
a short apology, never a traceback. What Telegram says of the chat itself (gone, migrated), from
a send no helper guarded, goes to play's places as the helpers' does; a slow or cut network and
a database out of reach are a line, not a failure of the bot's.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError

from bot.play.guards.once import Outage, is_outage
from bot.play.ports import Fate, Moved
from bot.telegram.context import Context
from bot.telegram.delivery import fate_of
from bot.telegram.sending import say
from bot.telegram.speakers import services_of, topic_of
from bot.text.i18n import language_of, texts_for

log = logging.getLogger(__name__)
OUTAGE = Outage(log, "handling updates and timers")  # errors that only say the database is down


def in_transport(error: BaseException | None) -> bool:
    """A Bot API request that timed out or failed on the way (PTB's NetworkError, TimedOut
    among them), not one Telegram refused (BadRequest is a NetworkError in PTB too)."""
    return isinstance(error, NetworkError) and not isinstance(error, BadRequest)


async def on_error(update: object, context: Context) -> None:
    """Log the error; the chat gets a short apology, never a traceback. What Telegram says of
    the chat itself (gone, migrated), from a send no helper guarded, is handled as the helpers
    handle it: a warning, and no apology to a chat that cannot be written to."""
    error = context.error
    chat = update.effective_chat if isinstance(update, Update) else None
    topic = topic_of(update.effective_message) if isinstance(update, Update) else 0
    fate: Fate | None = None
    if chat is not None and isinstance(error, ChatMigrated):
        fate = Moved(chat.id, error.new_chat_id)
    elif chat is not None and isinstance(error, Forbidden | BadRequest):
        fate = fate_of(error, chat.id, topic)
    if fate is not None:
        log.warning("Telegram refused a message to chat %s: %s", chat and chat.id, error)
        await services_of(context).places.settle(fate)
        return
    if in_transport(error):  # a slow or cut network is not the bot's failure: no apology
        log.warning("a Bot API request failed in transport: %s", error)
        return
    if error is None or not is_outage(error, OUTAGE):  # the database down: a line a minute
        log.error("error while handling an update", exc_info=error)
    if isinstance(update, Update) and update.callback_query is not None:
        try:  # the press's spinner stops (answered already: Telegram refuses, nothing lost)
            await update.callback_query.answer()
        except Exception:  # the network, or answered before
            log.info("could not answer a press whose handling failed")
    if isinstance(update, Update) and chat is not None:
        texts = texts_for(language_of(update.effective_user.language_code
                                      if update.effective_user else None))
        try:
            await say(context.bot, chat.id, topic, texts("error"))
        except Exception:  # the network; nothing more to do
            log.warning("could not tell the chat about the error")
