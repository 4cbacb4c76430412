"""Button presses (callback queries): read the press, answer it at once, then do what the command
it stands for does.

Every press is answered (answerCallbackQuery) before any solver work; a refused one gets a short
notice instead: a round that is over (its deal's buttons then go), a player who may not steer
the round (the rule of /hint and /reveal), data no button of this bot carries. Hint and Reveal
go to the round service as /hint and /reveal do, Play again and Same level as /play; a page of
solutions is worked out again from the press's data and edited in place.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, TelegramError

from bot.play.games import PlayOptions
from bot.play.games.countdown import LARGE
from bot.play.requests import SolveRequest
from bot.store.records import Round
from bot.telegram import keyboards
from bot.telegram.keyboards import DEAL_ACTIONS, HINT, SAME, SOLUTIONS, PagePress, RoundPress
from bot.telegram.sending import deliver, reply, send_page
from bot.telegram.speakers import (
    Context,
    admin_check,
    asker_of,
    chat_of,
    player_of,
    services_of,
    texts_of,
)
from bot.text.html_text import EntityError, visible_text
from bot.text.i18n import language_of, texts_for

log = logging.getLogger(__name__)
NOTICE_LIMIT = 200  # characters of an answerCallbackQuery text


async def button(update: Update, context: Context) -> None:
    """A button of one of the bot's messages was pressed."""
    query = update.callback_query
    assert query is not None
    if not isinstance(query.message, Message) or not query.message.is_accessible:
        # an inline message, or one the bot can no longer reach (Telegram sends its date as 0)
        await notify(query, texts_for(language_of(query.from_user.language_code))(
            "button_unknown"))
        return
    press = keyboards.read_press(query.data)
    if press is None:
        await notify(query, texts_of(update, context)("button_unknown"))
    elif isinstance(press, PagePress):
        await turn_page(update, context, query, press)
    elif press.action in (keyboards.HINT, keyboards.REVEAL):
        await steer(update, context, query, press)
    else:
        await after_round(update, context, query, press)


async def notify(query: CallbackQuery, text: str | None = None) -> None:
    """Answer the press (the client stops its spinner), with a short plain notice if given. A
    query Telegram no longer takes (the bot was down a while) is only logged."""
    notice = None
    if text is not None:
        try:
            notice = visible_text(text)
        except EntityError:
            notice = text
        notice = notice[:NOTICE_LIMIT]
    try:
        await query.answer(notice)
    except BadRequest as error:
        log.info("could not answer a button press: %s", error)


async def set_keyboard(query: CallbackQuery, keyboard: InlineKeyboardMarkup | None) -> None:
    """Replace the pressed message's buttons (None: remove them); cosmetic, so only logged."""
    try:
        await query.edit_message_reply_markup(keyboard)
    except TelegramError as error:
        log.info("could not change a message's buttons: %s", error)


async def steer(update: Update, context: Context, query: CallbackQuery,
                press: RoundPress) -> None:
    """Hint and Reveal under a deal: for the round still on, by whoever may steer it."""
    rounds, chat, player = services_of(context).rounds, chat_of(update), player_of(update)
    current = rounds.open_round(chat.id)
    if current is None or current.id != press.round_id:
        await notify(query, texts_of(update, context)("round_over"))
        assert isinstance(query.message, Message)
        if keyboards.carries(query.message.reply_markup, query.data):
            await set_keyboard(query, None)  # a deal's buttons left behind: they go now
        return
    is_admin = admin_check(update, context)
    action = "hint" if press.action == HINT else "reveal"
    refusal = await rounds.steer_refusal(chat, player, press.round_id, action, is_admin)
    await notify(query, refusal)
    if refusal is not None:
        return
    if press.action == HINT:
        await reply(update, await rounds.hint(chat, player, is_admin))
    else:
        await deliver(update, context, await rounds.reveal(chat, player, is_admin), quote=False)


async def after_round(update: Update, context: Context, query: CallbackQuery,
                      press: RoundPress) -> None:
    """Play again, Same level and Show all solutions under a round's result (anyone may)."""
    services, chat, player = services_of(context), chat_of(update), player_of(update)
    texts = texts_of(update, context)
    ended = await services.rounds.find_round(press.round_id)
    if ended is None or ended.chat_id != chat.id or ended.status == "open" or \
            (press.action == SOLUTIONS and ended.game != "24"):
        await notify(query, texts("button_unknown"))  # forged: its round never ended here
        return
    await notify(query)
    assert isinstance(query.message, Message)
    if press.action == SOLUTIONS:
        await set_keyboard(query, keyboards.without(query.message.reply_markup, (SOLUTIONS,)))
        shown = await services.solving.solve_page(SolveRequest(ended.hand, ended.target),
                                                  texts, asker_of(update))
        await send_page(update, shown)
        return
    outcome = await services.rounds.play(chat, player, ended.game,
                                         replay_options(ended, press.action))
    await deliver(update, context, outcome, quote=False)
    if outcome.dealt is not None:
        await set_keyboard(query, keyboards.without(query.message.reply_markup, DEAL_ACTIONS))


def replay_options(ended: Round, action: str) -> PlayOptions:
    """What Play again (the same game, as many numbers, the same target) and Same level (also
    the same level) deal after `ended`; Countdown keeps its count of large numbers."""
    if ended.game == "24":
        return PlayOptions(level=ended.level if action == SAME else None,
                           count=len(ended.hand), target=ended.target)
    if ended.game == "countdown":
        return PlayOptions(large=sum(n in LARGE for n in ended.hand))
    return PlayOptions()


async def turn_page(update: Update, context: Context, query: CallbackQuery,
                    press: PagePress) -> None:
    """◀ or ▶: the message shows another page of the same solutions."""
    await notify(query)
    shown = await services_of(context).solving.solve_page(
        press.request, texts_of(update, context), asker_of(update), press.page)
    if isinstance(shown, str):  # busy or too slow now: said in the chat
        await reply(update, shown)
        return
    try:
        await query.edit_message_text(shown.text, reply_markup=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages))
    except BadRequest as error:  # pressed twice: the page shows already
        log.info("could not turn a page: %s", error)
