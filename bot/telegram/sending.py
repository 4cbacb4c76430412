"""Sending what the game services said: replies, reactions, edits of a round's deal, a round's
result with its buttons (and a match's scoreboard riding on it), and the deal's buttons taken
off once its round is over. Used by command handlers, button presses and timers alike; every
message goes to the forum topic its round belongs to; parse mode and link previews come from the
application's Defaults."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import Bot, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, TelegramError
from telegram.ext import Application

from bot.play.paging import Page
from bot.play.reply import Reply
from bot.play.services import Services
from bot.store.records import Round
from bot.telegram import keyboards
from bot.telegram.speakers import Context, chat_of, services_of, texts_of, thread
from bot.text.i18n import Texts

log = logging.getLogger(__name__)


async def reply(update: Update, text: str, quote: bool = True,
                keyboard: InlineKeyboardMarkup | None = None) -> Message | None:
    """A reply in the message's chat and topic."""
    message = update.effective_message
    if message is None:
        return None
    return await message.reply_text(text, do_quote=quote, reply_markup=keyboard)


async def deliver(update: Update, context: Context, outcome: Reply, quote: bool = True) -> None:
    """Send what a round service said. A deal gets its Hint and Reveal buttons, a result Play
    again and the like, and a match's scoreboard; the ended round's deal loses its buttons. A
    reaction or an edit of the deal stands instead of a message where it can."""
    services = services_of(context)
    if outcome.edit is not None:
        await edit_or_say(update, context, outcome)
        return
    if outcome.reaction is not None and await react(update, context, outcome.reaction):
        return
    if outcome.closed or outcome.ended is not None:
        chat = chat_of(update)
        await send_result(context.application, outcome, chat.id, chat.topic,
                          lambda text, keyboard: reply(update, text, quote, keyboard))
        return
    keyboard = keyboards.deal_keyboard(texts_of(update, context), outcome.dealt) \
        if outcome.dealt is not None else None
    sent = await reply(update, outcome.text, quote=quote and outcome.dealt is None,
                       keyboard=keyboard)
    if outcome.dealt is not None and sent is not None:
        await services.rounds.set_message(outcome.dealt, sent.message_id)


async def edit_or_say(update: Update, context: Context, outcome: Reply) -> None:
    """A command's answer that edits the deal (a hint): the deal shows it and the command is
    marked; where the deal cannot be edited, its short form is said instead."""
    assert outcome.edit is not None
    if await edit_deal(context.application, outcome.edit, outcome.text) and \
            (outcome.reaction is None or await react(update, context, outcome.reaction)):
        return
    await reply(update, outcome.notice or outcome.text)


async def edit_deal(application: Application, round_: Round, text: str) -> bool:
    """Replace the text of a round's deal message, its buttons kept; False if it cannot be."""
    services: Services = application.bot_data["services"]
    current = services.rounds.open_round(*round_.place) or round_
    if current.message_id is None:
        return False
    keyboard = keyboards.deal_keyboard(services.people.round_texts(current), current)
    try:
        await application.bot.edit_message_text(text, current.chat_id, current.message_id,
                                                 reply_markup=keyboard)
    except BadRequest as error:
        if "not modified" in str(error).lower():
            return True
        log.info("could not edit the deal of round %d: %s", current.id, error)
        return False
    return True


Send = Callable[[str, InlineKeyboardMarkup | None], Awaitable[Message | None]]


async def send_result(application: Application, outcome: Reply, chat_id: int, topic: int,
                      send: Send | None = None, board: bool = True) -> Message | None:
    """A round's result, with the buttons under a result and (`board`) the match's
    scoreboard on it; it is then announced, and the deal's buttons go. `send(text, keyboard)`
    sends it (a reply); by default, a message to the round's topic."""
    services: Services = application.bot_data["services"]
    text, head = outcome.text, outcome.head
    if board and outcome.closed and \
            (said := await services.matches.after_round(chat_id, outcome.ended, topic)):
        text, head = outcome.with_board(said), f"{head or outcome.text}\n{said}"
    ended = await services.rounds.find_round(outcome.ended) if outcome.ended else None
    keyboard = await after_keyboard(services, services.people.round_texts(ended), ended,
                                    outcome.listed_all) if ended else None
    if send is not None:
        sent = await send(text, keyboard)
    else:
        sent = await application.bot.send_message(chat_id, text, reply_markup=keyboard,
                                                  message_thread_id=thread(topic))
    if ended is not None and sent is not None:
        await services.rounds.announced(ended.id, head)
    await clear_keyboard(application.bot, ended)
    return sent


async def react(update: Update, context: Context, emoji: str) -> bool:
    """Mark the message with a reaction; False when the chat refuses it (reactions turned off
    there: the reply is then said in words). Never fails the answer: it is stored already."""
    message = update.effective_message
    if message is None:
        return False
    try:
        await context.bot.set_message_reaction(message.chat_id, message.message_id, emoji)
    except BadRequest as error:
        log.info("reaction refused in chat %s (%s); replying in words", message.chat_id, error)
        return False
    except TelegramError as error:
        log.warning("could not react in chat %s: %s", message.chat_id, error)
    return True


async def clear_keyboard(bot: Bot, round_: Round | None) -> None:
    """Take the Hint and Reveal buttons off an ended round's deal. Only cosmetic: a press on a
    keyboard left behind is refused politely, so a failure here is only logged."""
    if round_ is None or round_.message_id is None:
        return
    try:
        await bot.edit_message_reply_markup(round_.chat_id, round_.message_id, reply_markup=None)
    except TelegramError as error:
        log.info("could not remove the buttons of round %d: %s", round_.id, error)


async def after_keyboard(services: Services, texts: Texts, ended: Round,
                         listed_all: bool = True) -> InlineKeyboardMarkup | None:
    """The buttons under a round's result (fewer while a match runs in its topic)."""
    return keyboards.after_keyboard(texts, ended, await services.matches.is_on(*ended.place),
                                    listed_all)


async def send_page(update: Update, shown: Page | str) -> None:
    """A first page of solutions, with ◀ ▶ when there are more (or the text that stands in)."""
    if isinstance(shown, str):
        await reply(update, shown)
    else:
        await reply(update, shown.text, keyboard=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages))
