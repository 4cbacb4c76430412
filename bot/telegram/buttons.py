"""Button presses (callback queries): read the press, answer it, then do what the command it
stands for does.

Every press is answered (answerCallbackQuery), at once and before any long work: a refused one
with a short notice instead of a message — a round that is over (its deal's buttons then go), a
player who may not steer the round (the rules of /hint and /reveal), a round already on (a
second Play again), a puzzle being played somewhere right now, data no button of this bot
carries, a page of solutions asked of a message that shows no such pages. A hint is told as the
press's notice and written into the deal; Reveal goes to the round service as /reveal does,
Play again and Same level as /play; Show all solutions and the ◀ ▶ under them page through
the round's solutions in the result's own message.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, TelegramError

from bot.play.games import GAMES, PlayOptions
from bot.play.games.countdown import LARGE
from bot.play.requests import SolveRequest
from bot.store.records import Round
from bot.telegram import keyboards
from bot.telegram.keyboards import (
    DEAL_ACTIONS,
    HINT,
    REVEAL,
    SAME,
    SOLUTIONS,
    PagePress,
    RoundPress,
)
from bot.telegram.sending import deliver, edit_deal, reply
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
    pages = press is not None and (isinstance(press, PagePress) or press.action == SOLUTIONS)
    if press is None or (pages and not keyboards.shows(query.message.reply_markup, press)):
        # pages rewrite the pressed message: only one that shows them may turn into a page
        await notify(query, texts_of(update, context)("button_unknown"))
    elif isinstance(press, PagePress):
        await turn_page(update, context, query, press)
    elif press.action in (HINT, REVEAL):
        await steer(update, context, query, press)
    elif press.action == SOLUTIONS:
        await show_solutions(update, context, query, press)
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
    """Hint and Reveal under a deal: for the round still on, by whoever may steer it. The
    hint is the press's notice, and goes into the deal."""
    services, chat, player = services_of(context), chat_of(update), player_of(update)
    current = services.rounds.open_round(chat.id, chat.topic)
    if current is None or current.id != press.round_id:
        await notify(query, texts_of(update, context)("round_over"))
        assert isinstance(query.message, Message)
        if keyboards.carries(query.message.reply_markup, query.data):
            await set_keyboard(query, None)  # a deal's buttons left behind: they go now
        return
    is_admin = admin_check(update, context)
    action = "hint" if press.action == HINT else "reveal"
    refusal = await services.rounds.steer_refusal(chat, player, press.round_id, action,
                                                  is_admin)
    if refusal is not None:
        await notify(query, refusal)
    elif press.action == HINT:
        given = await services.hints.hint(chat, player, is_admin)
        await notify(query, given.notice)
        if given.edit is not None:
            await edit_deal(context.application, given.edit, given.text)
    else:
        await notify(query)
        await deliver(update, context, await services.rounds.reveal(chat, player, is_admin),
                      quote=False)


async def ended_round(update: Update, context: Context, query: CallbackQuery,
                      press: RoundPress) -> Round | None:
    """The ended round a result's button names, or None (the press is then answered): a
    forged press names a round that never ended in this chat."""
    ended = await services_of(context).rounds.find_round(press.round_id)
    if ended is None or ended.chat_id != chat_of(update).id or ended.status == "open" or \
            (press.action == SOLUTIONS and not GAMES[ended.game].pages_solutions):
        await notify(query, texts_of(update, context)("button_unknown"))
        return None
    return ended


async def after_round(update: Update, context: Context, query: CallbackQuery,
                      press: RoundPress) -> None:
    """Play again and Same level under a round's result (anyone may): a new round, unless one
    is on in the topic already (then a notice says so)."""
    services, chat, player = services_of(context), chat_of(update), player_of(update)
    texts = texts_of(update, context)
    if (ended := await ended_round(update, context, query, press)) is None:
        return
    if (current := services.rounds.open_round(chat.id, chat.topic)) is not None:
        await notify(query, services.rounds.still_open(current, texts))
        return
    await notify(query)
    assert isinstance(query.message, Message)
    outcome = await services.rounds.play(chat, player, ended.game,
                                         replay_options(ended, press.action))
    if outcome.dealt is None and services.rounds.open_round(chat.id, chat.topic) is not None:
        return  # another press dealt meanwhile: its deal is right there
    await deliver(update, context, outcome, quote=False)
    if outcome.dealt is not None:
        await set_keyboard(query, keyboards.without(query.message.reply_markup, DEAL_ACTIONS))


async def show_solutions(update: Update, context: Context, query: CallbackQuery,
                         press: RoundPress) -> None:
    """Show all solutions, and ◀ ▶ after it: a page of the round's solutions in the result's
    own message, under the result's head (who won, or how it ended)."""
    services, texts = services_of(context), texts_of(update, context)
    if (ended := await ended_round(update, context, query, press)) is None:
        return
    request = SolveRequest(ended.hand, ended.target)
    if (refused := services.solving.refusal(request, texts)) is not None:
        await notify(query, refused)
        return
    await notify(query)
    shown = await services.solving.solve_page(request, texts, asker_of(update), press.page)
    if isinstance(shown, str):  # busy or too slow now: said in the chat
        await reply(update, context, shown)
        return
    assert isinstance(query.message, Message)
    head = services.rounds.result_head(ended.id)
    rest = keyboards.without(query.message.reply_markup, (SOLUTIONS,))
    try:
        await query.edit_message_text("\n\n".join(filter(None, [head, shown.text])),
                                      reply_markup=keyboards.result_pages(
                                          ended.id, shown.index, shown.pages, rest))
    except BadRequest as error:  # pressed twice: the page shows already
        log.info("could not show a round's solutions: %s", error)


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
    """◀ or ▶ under /solve: the message shows another page of the same solutions (unless the
    hand is being played right now)."""
    services, texts = services_of(context), texts_of(update, context)
    if (refused := services.solving.refusal(press.request, texts)) is not None:
        await notify(query, refused)
        return
    await notify(query)
    shown = await services.solving.solve_page(press.request, texts, asker_of(update),
                                              press.page)
    if isinstance(shown, str):  # busy or too slow now: said in the chat
        await reply(update, context, shown)
        return
    try:
        await query.edit_message_text(shown.text, reply_markup=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages))
    except BadRequest as error:  # pressed twice: the page shows already
        log.info("could not turn a page: %s", error)
