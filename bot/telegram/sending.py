"""Sending what the game services said: replies, reactions, edits of a round's deal, a round's
result with its buttons (and a match's scoreboard riding on it), and the deal's buttons taken
off once its round is over. Used by command handlers, button presses and timers alike; every
message goes to the forum topic its round belongs to; parse mode and link previews come from the
application's Defaults.

What Telegram says of the chat itself is handled here, where it is said (`guarded`): a group that
became a supergroup has its state moved to the new id and the message sent there again; a chat
the bot can no longer write to (removed, banned, blocked, deleted; or only its forum topic gone)
has its rounds and match ended quietly (`Matches.abandon`); another refusal of one message is
logged as a warning. None of them reaches the error handler, which would apologise to the chat.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram import Bot, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.ext import Application

from bot.play.paging import Page
from bot.play.reply import Reply
from bot.play.services import Services
from bot.store.records import Round
from bot.telegram import keyboards
from bot.telegram.speakers import Context, chat_of, services_of, texts_of, thread, topic_of
from bot.text.i18n import Texts

log = logging.getLogger(__name__)
T = TypeVar("T")
# What a 400 says when the bot may not write to the chat at all (it was deleted, or the bot may
# not post there), or only to the forum topic (deleted or closed); PTB drops "Bad Request: ".
CHAT_REFUSALS = ("chat not found", "group chat was deactivated", "chat_write_forbidden",
                 "not enough rights to send", "have no rights to send",
                 "need administrator rights", "bot is not a member", "bot was kicked")
TOPIC_REFUSALS = ("message thread not found", "topic_closed", "topic_deleted")


def refused_place(error: Exception) -> str | None:
    """"chat" when Telegram says the bot cannot write to the chat (403, or a 400 saying as
    much), "topic" when only the forum topic refuses it, None for anything else."""
    if isinstance(error, Forbidden):
        return "chat"
    if isinstance(error, BadRequest):
        said = str(error).lower()
        if any(words in said for words in CHAT_REFUSALS):
            return "chat"
        if any(words in said for words in TOPIC_REFUSALS):
            return "topic"
    return None


async def guarded(application: Application, chat_id: int, topic: int,
                  send: Callable[[int], Awaitable[T]]) -> T | None:
    """`send(chat_id)`, with what Telegram says of the chat handled here: a migrated group's
    state moves to its new id and the message goes there; a chat or topic the bot cannot write
    to is abandoned quietly; another refusal of this message is logged. None when nothing was
    sent. Network errors and flood waits are the caller's (a restart sends an owed result)."""
    try:
        return await send(chat_id)
    except ChatMigrated as moved:
        await chat_moved(application, chat_id, moved.new_chat_id)
        chat_id, topic = moved.new_chat_id, 0  # a group has no topics
        try:
            return await send(chat_id)
        except (Forbidden, BadRequest) as error:
            await refused(application, chat_id, topic, error)
    except (Forbidden, BadRequest) as error:
        await refused(application, chat_id, topic, error)
    return None


async def refused(application: Application, chat_id: int, topic: int,
                  error: Exception) -> None:
    """Telegram refused a message: where the chat (or topic) takes none from the bot any more,
    its matches and open rounds end without a word; else only this message was refused."""
    place = refused_place(error)
    if place is None:
        log.warning("Telegram refused a message to chat %s: %s", chat_id, error)
        return
    await abandon(application, chat_id, topic if place == "topic" else None, str(error))


async def abandon(application: Application, chat_id: int, topic: int | None,
                  why: str) -> None:
    """The bot can no longer write to the chat (or its topic): its state ends quietly."""
    services: Services = application.bot_data["services"]
    closed = await services.matches.abandon(chat_id, topic)
    where = f"chat {chat_id}" + (f" topic {topic}" if topic else "")
    log.info("%s takes no more messages (%s): %d open rounds and its matches ended quietly",
             where, why, len(closed))


async def chat_moved(application: Application, old_id: int, new_id: int) -> None:
    """A group became a supergroup: its rounds, scores, match and timers move to the new id
    (from the service message, or from a send Telegram refused with the new id)."""
    services: Services = application.bot_data["services"]
    moved = await services.rounds.migrate_chat(old_id, new_id)
    services.matches.follow_chat(old_id, new_id, moved)
    log.info("chat %s became supergroup %s: its state moved there", old_id, new_id)


async def say(application: Application, chat_id: int, topic: int, text: str,
              keyboard: InlineKeyboardMarkup | None = None) -> Message | None:
    """A message to a chat's topic that answers nothing (a timer's, a start-up's), guarded."""
    async def send(to: int) -> Message:
        return await application.bot.send_message(
            to, text, reply_markup=keyboard, message_thread_id=thread(topic if to == chat_id
                                                                      else 0))

    return await guarded(application, chat_id, topic, send)


async def reply(update: Update, context: Context, text: str, quote: bool = True,
                keyboard: InlineKeyboardMarkup | None = None) -> Message | None:
    """A reply in the message's chat and topic (guarded: in a group that migrated meanwhile,
    a message to the supergroup)."""
    message = update.effective_message
    if message is None:
        return None

    async def send(to: int) -> Message:
        if to == message.chat_id:
            return await message.reply_text(text, do_quote=quote, reply_markup=keyboard)
        return await context.bot.send_message(to, text, reply_markup=keyboard)

    return await guarded(context.application, message.chat_id, topic_of(message), send)


def as_now(services: Services, round_: Round) -> Round:
    """A round as it stands now (its chat may have migrated while its deal was sent)."""
    return services.rounds.board.find(round_.id) or round_


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
                          lambda text, keyboard: reply(update, context, text, quote, keyboard))
        return
    keyboard = keyboards.deal_keyboard(texts_of(update, context), outcome.dealt) \
        if outcome.dealt is not None else None
    sent = await reply(update, context, outcome.text, quote=quote and outcome.dealt is None,
                       keyboard=keyboard)
    if outcome.dealt is not None and sent is not None:
        await services.rounds.set_message(as_now(services, outcome.dealt), sent.message_id)


async def edit_or_say(update: Update, context: Context, outcome: Reply) -> None:
    """A command's answer that edits the deal (a hint): the deal shows it and the command is
    marked; where the deal cannot be edited, its short form is said instead."""
    assert outcome.edit is not None
    if await edit_deal(context.application, outcome.edit, outcome.text) and \
            (outcome.reaction is None or await react(update, context, outcome.reaction)):
        return
    await reply(update, context, outcome.notice or outcome.text)


async def edit_deal(application: Application, round_: Round, text: str) -> bool:
    """Replace the text of a round's deal message, its buttons kept; False if it cannot be
    (then it is said instead). True too where the chat takes nothing from the bot any more."""
    services: Services = application.bot_data["services"]
    current = services.rounds.open_round(*round_.place) or round_
    if current.message_id is None:
        return False
    keyboard = keyboards.deal_keyboard(services.people.round_texts(current), current)
    try:
        await application.bot.edit_message_text(text, current.chat_id, current.message_id,
                                                 reply_markup=keyboard)
    except ChatMigrated as moved:  # the deal stays in the old group: said in the new one
        await chat_moved(application, current.chat_id, moved.new_chat_id)
        return False
    except (Forbidden, BadRequest) as error:
        if "not modified" in str(error).lower():
            return True
        if refused_place(error) is not None:
            await refused(application, current.chat_id, current.topic, error)
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
        sent = await say(application, chat_id, topic, text, keyboard)
    if ended is not None:  # sent, or refused for good: a restart owes it no more
        await services.rounds.announced(ended.id, head if sent is not None else None)
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
    except ChatMigrated as moved:  # said in words in the supergroup
        await chat_moved(context.application, message.chat_id, moved.new_chat_id)
        return False
    except (Forbidden, BadRequest) as error:
        if refused_place(error) is not None:
            await refused(context.application, message.chat_id, topic_of(message), error)
            return True
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


async def send_page(update: Update, context: Context, shown: Page | str) -> None:
    """A first page of solutions, with ◀ ▶ when there are more (or the text that stands in)."""
    if isinstance(shown, str):
        await reply(update, context, shown)
    else:
        await reply(update, context, shown.text, keyboard=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages))
