"""Sending what the game services said, by one path (`show`) for command handlers, button presses
and timers alike: words, a reaction, an edit of a round's deal, a deal or a result with its
buttons (the ended deal's buttons then go). What must follow a sent message is the outcome's own
`after` (bot.play.round.outcomes): this module never calls back into a service to finish a job.
Every message goes to the forum topic its round belongs to; parse mode and link previews come
from the application's Defaults.

What Telegram says of the chat itself is handled once, in `guarded`, around every call that
writes: a group that became a supergroup has its state moved to the new id (and the message sent
there again, where that makes sense); a chat the bot can no longer write to (removed, banned,
blocked, deleted; or only its forum topic gone) has its rounds and match ended quietly; another
refusal of one message is logged. None of them reaches the error handler, which would apologise.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram import Bot, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, TelegramError

from bot.play.round.outcomes import Closed, Dealt, Edited, Marked, Outcome, Refused, Said
from bot.play.solving.paging import Page
from bot.store.records import Round
from bot.telegram import keyboards
from bot.telegram.context import App, Context
from bot.telegram.speakers import thread, topic_of

log = logging.getLogger(__name__)
T = TypeVar("T")
Send = Callable[[str, InlineKeyboardMarkup | None], Awaitable[Message | None]]
Opener = Callable[[Round], keyboards.MiniApp | None]
React = Callable[[str], Awaitable[bool]]
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


async def guarded(application: App, chat_id: int, topic: int,
                  send: Callable[[int], Awaitable[T]], *, follow: bool = True,
                  quiet: bool = False, gone: T | None = None) -> T | None:
    """`send(chat_id)`, with what Telegram says of the chat handled here: a migrated group's
    state moves to its new id and (`follow`) the message goes there; a chat or topic the bot
    cannot write to is abandoned quietly; another refusal of this message is logged (`quiet`:
    as information — a reaction turned off, a deal that can't be edited, where words stand
    in). None when nothing was sent, or `gone` where the chat takes nothing from the bot any
    more (nothing is to stand in then). Network errors and flood waits are the caller's (a
    restart sends an owed result)."""
    try:
        return await send(chat_id)
    except ChatMigrated as moved:
        await chat_moved(application, chat_id, moved.new_chat_id)
        if not follow:
            return None
        chat_id, topic = moved.new_chat_id, 0  # a group has no topics
        try:
            return await send(chat_id)
        except (Forbidden, BadRequest) as error:
            return gone if await refused(application, chat_id, topic, error, quiet) else None
    except (Forbidden, BadRequest) as error:
        return gone if await refused(application, chat_id, topic, error, quiet) else None


async def refused(application: App, chat_id: int, topic: int, error: Exception,
                  quiet: bool = False) -> bool:
    """Telegram refused a message: where the chat (or topic) takes none from the bot any more,
    its matches and open rounds end without a word (True); else only this message was
    refused."""
    place = refused_place(error)
    if place is None:
        (log.info if quiet else log.warning)("Telegram refused a message to chat %s: %s",
                                             chat_id, error)
        return False
    await abandon(application, chat_id, topic if place == "topic" else None, str(error))
    return True


async def abandon(application: App, chat_id: int, topic: int | None, why: str) -> None:
    """The bot can no longer write to the chat (or its topic): its state ends quietly."""
    closed = await application.bot_data.services.places.abandon(chat_id, topic)
    where = f"chat {chat_id}" + (f" topic {topic}" if topic else "")
    log.info("%s takes no more messages (%s): %d open rounds and its matches ended quietly",
             where, why, len(closed))


async def chat_moved(application: App, old_id: int, new_id: int) -> None:
    """A group became a supergroup: its rounds, scores, match and timers move to the new id
    (from the service message, or from a send Telegram refused with the new id)."""
    deal = await application.bot_data.services.places.migrate(old_id, new_id)
    log.info("chat %s became supergroup %s: its state moved there", old_id, new_id)
    if deal is not None:  # its round's deal, shown again where replies and hints can reach it
        await publish(application, new_id, 0, deal)


# --- the Mini App's button under a deal ---------------------------------------------------------

def open_with(application: App, opener: Opener | None) -> None:
    """Deals get the Mini App's button `opener` makes for their round (None: no button)."""
    application.bot_data.mini_app = opener


def mini_app(application: App, round_: Round) -> keyboards.MiniApp | None:
    opener = application.bot_data.mini_app
    return opener(round_) if opener is not None else None


# --- one path for every outcome ----------------------------------------------------------------

async def show(application: App, outcome: Outcome, send: Send,
               react: React | None = None) -> None:
    """Show an outcome: `send(text, keyboard)` writes a message (a reply, or a message to the
    round's topic), `react(emoji)` marks the message answered (None: nothing to mark)."""
    if isinstance(outcome, Edited):
        if await edit_deal(application, outcome) and \
                (outcome.reaction is None or react is None or await react(outcome.reaction)):
            return
        if outcome.notice:  # a status written by its alarm has none: the next one will do
            await send(outcome.notice, None)
    elif isinstance(outcome, Marked):
        if react is None or not await react(outcome.reaction):
            await send(outcome.text, None)
    elif isinstance(outcome, Closed):
        sent = await send(outcome.text, keyboards.result_keyboard(outcome.texts,
                                                                  outcome.round.id,
                                                                  outcome.actions))
        await outcome.after(sent.message_id if sent is not None else None)
        await clear_keyboard(application.bot, outcome.round)
    elif isinstance(outcome, Dealt):
        sent = await send(outcome.text, keyboards.deal_keyboard(
            outcome.texts, outcome.round.id, outcome.actions, mini_app(application, outcome.round)))
        await outcome.after(sent.message_id if sent is not None else None)
    elif isinstance(outcome, Said | Refused):
        await send(outcome.text, None)
    # Noted: its words go into the deal's status when its alarm rings; nothing to send now


async def deliver(update: Update, context: Context, outcome: Outcome | None,
                  quote: bool = True) -> None:
    """Show an outcome in answer to an update: words reply to its message (`quote`), a deal
    never does, a reaction marks it."""
    if outcome is None:
        return
    quoted = quote and not isinstance(outcome, Dealt)

    async def send(text: str, keyboard: InlineKeyboardMarkup | None) -> Message | None:
        return await reply(update, context, text, quoted, keyboard)

    async def mark(emoji: str) -> bool:
        return await react(update, context, emoji)

    await show(context.application, outcome, send, mark)


async def publish(application: App, chat_id: int, topic: int, outcome: Outcome) -> None:
    """Show an outcome nobody's message asked for (a timer's, a start-up's) in the topic."""
    async def send(text: str, keyboard: InlineKeyboardMarkup | None) -> Message | None:
        return await say(application, chat_id, topic, text, keyboard)

    await show(application, outcome, send)


# --- the calls that write ----------------------------------------------------------------------

async def say(application: App, chat_id: int, topic: int, text: str,
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


async def edit_deal(application: App, outcome: Edited) -> bool:
    """Replace the text of a round's deal message, its buttons kept; False if it cannot be
    (its short form is then said instead)."""
    current = outcome.round
    message_id = current.message_id
    if message_id is None:
        return False
    keyboard = keyboards.deal_keyboard(outcome.texts, current.id, outcome.actions,
                                       mini_app(application, current))

    async def edit(to: int) -> bool:
        try:
            await application.bot.edit_message_text(outcome.text, to, message_id,
                                                     reply_markup=keyboard)
        except BadRequest as error:
            if "not modified" not in str(error).lower():
                raise
        return True

    # a migrated group's deal stays in the old group: the notice is said in the new one
    return bool(await guarded(application, current.chat_id, current.topic, edit, follow=False,
                              quiet=True, gone=True))


async def react(update: Update, context: Context, emoji: str) -> bool:
    """Mark the message with a reaction; False when it can't be (reactions turned off there:
    the reply is then said in words). Never fails the answer: it is stored already."""
    message = update.effective_message
    if message is None:
        return False

    async def mark(to: int) -> bool:
        try:
            await context.bot.set_message_reaction(to, message.message_id, emoji)
        except BadRequest:
            raise
        except NetworkError as error:  # timed out or cut: the answer counts all the same
            log.warning("could not react in chat %s: %s", to, error)
        return True

    return bool(await guarded(context.application, message.chat_id, topic_of(message), mark,
                              follow=False, quiet=True, gone=True))


async def clear_keyboard(bot: Bot, round_: Round) -> None:
    """Take the Hint and Reveal buttons off an ended round's deal. Only cosmetic: a press on a
    keyboard left behind is refused politely, so a failure here is only logged."""
    if round_.message_id is None:
        return
    try:
        await bot.edit_message_reply_markup(round_.chat_id, round_.message_id, reply_markup=None)
    except TelegramError as error:
        log.info("could not remove the buttons of round %d: %s", round_.id, error)


async def send_page(update: Update, context: Context, shown: Page | str) -> None:
    """A first page of solutions, with ◀ ▶ when there are more (or the text that stands in)."""
    if isinstance(shown, str):
        await reply(update, context, shown)
    else:
        await reply(update, context, shown.text, keyboard=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages))
