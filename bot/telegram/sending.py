"""Sending what the game services said: replies, reactions, a round's result with its buttons,
and the deal's buttons taken off once its round is over. Used by command handlers, button
presses and timers alike; parse mode and link previews come from the application's Defaults."""

from __future__ import annotations

import logging

from telegram import Bot, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, TelegramError
from telegram.ext import Application

from bot.play.paging import Page
from bot.play.reply import Reply
from bot.play.services import Services
from bot.store.records import Round
from bot.telegram import keyboards
from bot.telegram.speakers import Context, chat_of, services_of, texts_of
from bot.text.i18n import Texts

log = logging.getLogger(__name__)


async def reply(update: Update, text: str, quote: bool = True,
                keyboard: InlineKeyboardMarkup | None = None) -> Message | None:
    message = update.effective_message
    if message is None:
        return None
    return await message.reply_text(text, do_quote=quote, reply_markup=keyboard)


async def deliver(update: Update, context: Context, outcome: Reply, quote: bool = True) -> None:
    """Send what a round service said. A deal gets its Hint and Reveal buttons, a result Play
    again and the like; the ended round's deal loses its buttons, and a match in the chat
    goes on."""
    services = services_of(context)
    keyboard, ended = None, None
    if outcome.dealt is not None:
        keyboard = keyboards.deal_keyboard(texts_of(update, context), outcome.dealt)
    if outcome.reaction is not None and await react(update, context, outcome.reaction):
        return
    if outcome.ended is not None and \
            (ended := await services.rounds.find_round(outcome.ended)) is not None:
        keyboard = await after_keyboard(services, texts_of(update, context), ended)
    sent = await reply(update, outcome.text, quote=quote and outcome.dealt is None,
                       keyboard=keyboard)
    if outcome.dealt is not None and sent is not None:
        await services.rounds.set_message(outcome.dealt, sent.message_id)
    if outcome.ended is not None and sent is not None:
        await services.rounds.announced(outcome.ended)
    await clear_keyboard(context.bot, ended)
    if outcome.closed:
        await follow_match(context.application, chat_of(update).id, outcome.ended)


async def send_result(application: Application, chat_id: int, text: str,
                      ended: Round | None) -> None:
    """A round's result that nobody's message asked for (its time ran out, or it is owed
    after a restart), with the buttons under a result; the deal's buttons go."""
    services: Services = application.bot_data["services"]
    keyboard = await after_keyboard(services, services.people.round_texts(ended), ended) \
        if ended else None
    await application.bot.send_message(chat_id, text, reply_markup=keyboard)


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


async def after_keyboard(services: Services, texts: Texts, ended: Round) -> InlineKeyboardMarkup:
    """The buttons under a round's result (fewer while a match runs in the chat)."""
    return keyboards.after_keyboard(texts, ended, await services.matches.is_on(ended.chat_id))


async def follow_match(application: Application, chat_id: int, round_id: int | None) -> None:
    """A round ended in the chat: if a match is on there, its scoreboard (or podium)."""
    services: Services = application.bot_data["services"]
    said = await services.matches.after_round(chat_id, round_id)
    if said is not None:
        await application.bot.send_message(chat_id, said)


async def send_page(update: Update, shown: Page | str) -> None:
    """A first page of solutions, with ◀ ▶ when there are more (or the text that stands in)."""
    if isinstance(shown, str):
        await reply(update, shown)
    else:
        await reply(update, shown.text, keyboard=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages))
