"""A button press (a callback query), as every feature's presses share it (bot.telegram.features):
read back from its data (bot.telegram.keyboards) on a message of the bot still in reach, answered
(answerCallbackQuery) once the service has decided — with a short notice, or, when it is too long
for one, whole to the presser alone — and the pressed message edited in place.

A press is refused with a notice when its message is out of reach (an inline message, or one
the bot can no longer reach), or its data is none this bot's buttons carry; `unknown` answers a
press whose data no feature declares. A message only its presser sees (ephemeral) is edited as
such (bot.telegram.bot_api_10).
"""

from __future__ import annotations

import logging
from typing import TypeVar

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, EndPointNotFound, InvalidToken, TelegramError

from bot.telegram import bot_api_10, keyboards
from bot.telegram.bot_api_10 import EPHEMERAL, RICH, Refusals, Rich
from bot.telegram.context import Context
from bot.telegram.delivery import deliver, tried
from bot.telegram.keyboards import PagePress, RoundPress, SettingPress
from bot.telegram.speakers import texts_of
from bot.text.html_text import EntityError, visible_text
from bot.text.i18n import language_of, texts_for

log = logging.getLogger(__name__)
NOTICE_LIMIT = 200  # characters of an answerCallbackQuery text
P = TypeVar("P", RoundPress, PagePress, SettingPress)


async def pressed(update: Update, context: Context, kind: type[P]
                  ) -> tuple[CallbackQuery, Message, P] | None:
    """The press, its message, and what its data asks (a press of `kind`); None when the
    message is out of reach or the data does not read as such a press: the press is answered
    so then."""
    query = update.callback_query
    assert query is not None
    message = await reached(query)
    if message is None:
        return None
    press = keyboards.read_press(query.data)
    if not isinstance(press, kind):
        await notify(query, (await texts_of(update, context))("button_unknown"))
        return None
    return query, message, press


async def unknown(update: Update, context: Context) -> None:
    """A press whose data no feature declares: answered that no button of the bot does that."""
    query = update.callback_query
    assert query is not None
    if await reached(query) is not None:
        await notify(query, (await texts_of(update, context))("button_unknown"))


async def reached(query: CallbackQuery) -> Message | None:
    """The pressed message, if the bot can still reach it; else None, the press answered in
    the presser's language (an inline message, or one the bot can no longer reach: Telegram
    sends its date as 0)."""
    message = query.message
    if isinstance(message, Message) and message.is_accessible:
        return message
    await notify(query, texts_for(language_of(query.from_user.language_code))(
        "button_unknown"))
    return None


async def notify(query: CallbackQuery, text: str | None = None,
                 refusals: Refusals | None = None, alert: bool = False) -> None:
    """Answer the press (the client stops its spinner), with a short plain notice if given; a
    text too long for a notice goes whole to the presser alone where Telegram takes that (an
    ephemeral message in a group, `refusals` given), else it is cut. `alert`: the notice stays
    until the presser closes it. A query Telegram no longer takes (the bot was down a while) is
    only logged."""
    notice = None
    if text is not None:
        try:
            notice = visible_text(text)
        except EntityError:
            notice = text
        if len(notice) > NOTICE_LIMIT and refusals is not None and \
                await whisper_text(query, text, refusals):
            notice = None
        notice = notice[:NOTICE_LIMIT] if notice else None
    try:
        await query.answer(notice, show_alert=alert if notice else None)
    except BadRequest as error:
        log.info("could not answer a button press: %s", error)


async def whisper_text(query: CallbackQuery, text: str, refusals: Refusals) -> bool:
    """`text` to the presser alone (an ephemeral message answering the press), in a group
    where Telegram takes it; whether it went."""
    message = query.message
    if not isinstance(message, Message) or message.chat.type not in ("group", "supergroup"):
        return False
    whisper = bot_api_10.pressed_whisper(query)
    topic = message.message_thread_id if message.is_topic_message else None

    async def send(to: int) -> object:
        return await bot_api_10.send_text(query.get_bot(), to, text, whisper, topic=topic)

    sent = await deliver(message.chat_id, 0, refusals, [(frozenset({EPHEMERAL}), send)])
    return sent.value is not None


async def set_keyboard(query: CallbackQuery, keyboard: InlineKeyboardMarkup | None) -> None:
    """Replace the pressed message's buttons (None: remove them); cosmetic, so only logged."""
    try:
        await query.edit_message_reply_markup(keyboard)
    except TelegramError as error:
        log.info("could not change a message's buttons: %s", error)


async def edit_pressed(context: Context, query: CallbackQuery, text: str,
                       keyboard: InlineKeyboardMarkup | None, rich: Rich | None = None) -> None:
    """The pressed message shows `text` now (as mathematics, `rich`, where Telegram takes a
    rich message): a message of the chat is edited as always, one only its presser sees with
    editEphemeralMessageText. Pressed twice, it shows that already: only logged."""
    message = query.message
    assert isinstance(message, Message)
    bot, refusals, chat_id = context.bot, context.bot_data.refusals, message.chat_id
    ephemeral, receiver = bot_api_10.ephemeral_id(message), query.from_user.id

    async def as_rich(to: int) -> bool:
        assert rich is not None
        if ephemeral is not None:
            await bot_api_10.edit_ephemeral(bot, to, receiver, ephemeral, rich=rich,
                                            keyboard=keyboard)
        else:
            await bot_api_10.edit_rich(bot, to, message.message_id, rich, keyboard)
        return True

    try:
        if rich is not None and refusals.allows(chat_id, RICH):
            if await tried(chat_id, 0, as_rich) is not None:
                return
            refusals.refused(chat_id, RICH)
        if ephemeral is not None:
            await bot_api_10.edit_ephemeral(bot, chat_id, receiver, ephemeral, text=text,
                                            keyboard=keyboard)
        else:
            await query.edit_message_text(text, reply_markup=keyboard)
    except (BadRequest, EndPointNotFound, InvalidToken) as error:  # pressed twice, or gone
        log.info("could not edit a pressed message: %s", error)
