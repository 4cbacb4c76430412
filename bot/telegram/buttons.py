"""Button presses (callback queries): read the press, answer it, then do what the command it stands
for does.

Every press is answered (answerCallbackQuery) once the service has decided, before anything is
sent: a refused one with a short notice instead of a message — a round that is over (its deal's
buttons then go), a player who may not steer the round (the rules of /hint and /reveal), a round
already on (a second Play again), a puzzle being played somewhere right now, data no button of this
bot carries, a page of solutions asked of a message that shows no such pages. A hint is told as the
press's notice and written into the deal; Reveal goes to the round service as /reveal does, Pass
as /pass does, Play again and Same level to `replay` (the game says what it deals again); Show
all solutions and the ◀ ▶ under them page through the round's solutions in the result's own
message. A press of the /settings panel changes one setting and the panel says so in place; a
press naming another chat, a value no button offers, or pressed by someone not an admin is
refused with a notice.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, TelegramError

from bot.play.outcomes import Dealt, Edited, Marked, Outcome, Refused, Said
from bot.telegram import keyboards
from bot.telegram.context import Context
from bot.telegram.grammar import SolveRequest
from bot.telegram.handlers import answer_with
from bot.telegram.keyboards import (
    DEAL_ACTIONS,
    HINT,
    PASS,
    REVEAL,
    SAME,
    SOLUTIONS,
    PagePress,
    RoundPress,
    SettingPress,
)
from bot.telegram.speakers import (
    admin_check,
    asker_of,
    chat_of,
    member_check,
    player_of,
    press_target,
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
    if isinstance(press, SettingPress):
        await change_setting(update, context, query, press)
        return
    pages = press is not None and (isinstance(press, PagePress) or press.action == SOLUTIONS)
    if press is None or (pages and not keyboards.shows(query.message.reply_markup, press)):
        # pages rewrite the pressed message: only one that shows them may turn into a page
        await notify(query, (await texts_of(update, context))("button_unknown"))
    elif isinstance(press, PagePress):
        await turn_page(update, context, query, press)
    elif press.action in (HINT, REVEAL, PASS):
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
    """Hint, Pass and Reveal under a deal: for the round still on, by whoever may steer it
    (the services' rules, as for /hint, /pass and /reveal). What the chat must see (the deal
    rewritten, a result) play shows; the presser is told the rest as the press's notice; a
    press on a deal whose round is over takes its buttons off."""
    rounds, chat, player = services_of(context).rounds, chat_of(update), player_of(update)
    is_admin, target = admin_check(update, context), press_target(update)
    outcome: Outcome
    if press.action == HINT:
        outcome = await rounds.hint(chat, player, is_admin, press.round_id, target)
    elif press.action == PASS:
        outcome = await rounds.pass_round(chat, player, is_admin, press.round_id, target)
    else:
        outcome = await rounds.reveal(chat, player, is_admin, press.round_id, target)
    await notify(query, notice_of(outcome))
    if isinstance(outcome, Refused) and outcome.over:
        await drop_left_behind(query)


def notice_of(outcome: Outcome) -> str | None:
    """What a press is told: an edit's short form, a refusal or a mark's words; nothing for a
    result (the chat sees it)."""
    if isinstance(outcome, Edited):
        return outcome.notice
    if isinstance(outcome, Refused | Marked | Said):
        return outcome.text
    return None


async def change_setting(update: Update, context: Context, query: CallbackQuery,
                         press: SettingPress) -> None:
    """A press of the /settings panel: the setting changed, and the panel, edited in place,
    says so. Only a button the pressed message shows counts (else the press was forged)."""
    assert isinstance(query.message, Message)
    services = services_of(context)
    if not keyboards.carries(query.message.reply_markup, query.data):
        await notify(query, (await texts_of(update, context))("button_unknown"))
        return
    panel = await services.settings.change(chat_of(update), player_of(update),
                                           admin_check(update, context), press.chat_id,
                                           press.key, press.value)
    if isinstance(panel, Refused):
        await notify(query, panel.text)
        return
    await notify(query, (await texts_of(update, context))("settings_saved"))
    try:
        await query.edit_message_text(panel.text, reply_markup=keyboards.settings_keyboard(panel))
    except BadRequest as error:  # pressed twice: the panel shows it already
        log.info("could not show the settings: %s", error)


async def drop_left_behind(query: CallbackQuery) -> None:
    """A refused press on the deal of a round that is over: its buttons go now (only from a
    message that carries the button pressed)."""
    assert isinstance(query.message, Message)
    if keyboards.carries(query.message.reply_markup, query.data):
        await set_keyboard(query, None)


async def after_round(update: Update, context: Context, query: CallbackQuery,
                      press: RoundPress) -> None:
    """Play again and Same level under a round's result (anyone may): a new round, unless one
    is on in the topic already (then a notice says so)."""
    outcome = await services_of(context).rounds.replay(
        chat_of(update), player_of(update), press.round_id, same_level=press.action == SAME)
    if isinstance(outcome, Refused):
        await notify(query, outcome.text)
        return
    await notify(query)
    assert isinstance(query.message, Message)
    if isinstance(outcome, Dealt):
        await set_keyboard(query, keyboards.without(query.message.reply_markup, DEAL_ACTIONS))


async def show_solutions(update: Update, context: Context, query: CallbackQuery,
                         press: RoundPress) -> None:
    """Show all solutions, and ◀ ▶ after it: a page of the round's solutions in the result's
    own message, under the result's head (who won, or how it ended)."""
    services, texts = services_of(context), await texts_of(update, context)
    ended = await services.rounds.ended_here(chat_of(update), press.round_id, pages=True)
    if ended is None:
        await notify(query, texts("button_unknown"))
        return
    request = SolveRequest(ended.hand, ended.target)
    member = member_check(update, context)
    if (refused := await services.solving.refusal(request, texts, member)) is not None:
        await notify(query, refused)
        return
    await notify(query)
    shown = await services.solving.solve_page(request, texts, asker_of(update), press.page,
                                              member)
    if isinstance(shown, str):  # busy or too slow now: said in the chat
        await answer_with(update, context, shown)
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


async def turn_page(update: Update, context: Context, query: CallbackQuery,
                    press: PagePress) -> None:
    """◀ or ▶ under /solve: the message shows another page of the same solutions (unless the
    hand is being played right now)."""
    services, texts = services_of(context), await texts_of(update, context)
    member = member_check(update, context)
    if (refused := await services.solving.refusal(press.request, texts, member)) is not None:
        await notify(query, refused)
        return
    await notify(query)
    shown = await services.solving.solve_page(press.request, texts, asker_of(update),
                                              press.page, member)
    if isinstance(shown, str):  # busy or too slow now: said in the chat
        await answer_with(update, context, shown)
        return
    try:
        await query.edit_message_text(shown.text, reply_markup=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages))
    except BadRequest as error:  # pressed twice: the page shows already
        log.info("could not turn a page: %s", error)
