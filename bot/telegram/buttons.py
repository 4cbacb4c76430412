"""Button presses (callback queries): read the press, answer it, then do what the command it stands
for does.

Every press is answered (answerCallbackQuery) once the service has decided, before anything is
sent: a refused one with a short notice instead of a message — a round that is over (its deal's
buttons then go), a player who may not steer the round (the rules of /hint and /reveal), a round
already on (a second Play again), a puzzle being played somewhere right now, data no button of this
bot carries, a page of solutions asked of a message that shows no such pages. A hint is told as the
press's notice and written into the deal; Reveal goes to the round service as /reveal does, Pass
as /pass does, Play again and Same level to `replay` (the game says what it deals again); Show
all solutions in a group sends its presser the first page to them alone (an ephemeral message,
where Telegram takes it; else, as in a private chat, the result's own message turns into the
pages), and the ◀ ▶ under them page through the round's solutions in the message that shows
them; solutions are written as mathematics where Telegram takes a rich message. A press of the
/settings panel changes one setting and the panel says so in place; a press naming another
chat, a value no button offers, or pressed by someone not an admin is refused with a notice.
A message only its presser sees (ephemeral) is edited as such (bot.telegram.bot_api_10).
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest, EndPointNotFound, InvalidToken, TelegramError

from bot.play.outcomes import Dealt, Edited, Marked, Outcome, Refused, Said
from bot.telegram import bot_api_10, keyboards, menus
from bot.telegram.bot_api_10 import EPHEMERAL, RICH, Refusals, Rich
from bot.telegram.context import Context
from bot.telegram.grammar import SolveRequest
from bot.telegram.handlers import answer_with, rich_page
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
from bot.telegram.sending import Attempt, deliver, tried
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


async def notify(query: CallbackQuery, text: str | None = None,
                 refusals: Refusals | None = None) -> None:
    """Answer the press (the client stops its spinner), with a short plain notice if given; a
    text too long for a notice goes whole to the presser alone where Telegram takes that (an
    ephemeral message in a group, `refusals` given), else it is cut. A query Telegram no
    longer takes (the bot was down a while) is only logged."""
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
        await query.answer(notice)
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
    await notify(query, notice_of(outcome), context.bot_data.refusals)
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
    await edit_pressed(context, query, panel.text, keyboards.settings_keyboard(panel))
    if press.key == menus.UNSEEN:  # /a is declared seen by the bot alone there, or no more
        await menus.set_chat_menus(context.bot, press.chat_id,
                                   (await services.settings.of(press.chat_id)).unseen)


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
        await notify(query, refused, context.bot_data.refusals)
        return
    await notify(query)
    shown = await services.solving.solve_page(request, texts, asker_of(update), press.page,
                                              member)
    if isinstance(shown, str):  # busy or too slow now: said in the chat
        await answer_with(update, context, shown)
        return
    assert isinstance(query.message, Message)
    head = services.rounds.result_head(ended.id)
    text = "\n\n".join(filter(None, [head, shown.text]))
    rich = rich_page(shown, head)
    if bot_api_10.ephemeral_id(query.message) is None and \
            chat_of(update).type in ("group", "supergroup"):
        # the result stays as the chat saw it; the pages go to whoever asked for them
        pages = keyboards.result_pages(ended.id, shown.index, shown.pages, None)
        if await whisper_pages(context, query, text, pages, rich):
            return
    rest = keyboards.without(query.message.reply_markup, (SOLUTIONS,))
    await edit_pressed(context, query, text, keyboards.result_pages(
        ended.id, shown.index, shown.pages, rest), rich)


async def whisper_pages(context: Context, query: CallbackQuery, text: str,
                        keyboard: InlineKeyboardMarkup | None, rich: Rich) -> bool:
    """A page of solutions sent to the presser alone, as mathematics where Telegram takes it;
    False when it takes no ephemeral message here (the pressed message then shows it)."""
    message = query.message
    assert isinstance(message, Message)
    bot, whisper = context.bot, bot_api_10.pressed_whisper(query)
    topic = message.message_thread_id if message.is_topic_message else None

    async def rich_to(to: int) -> object:
        return await bot_api_10.send_rich(bot, to, rich, topic=topic, keyboard=keyboard,
                                          whisper=whisper)

    async def text_to(to: int) -> object:
        return await bot_api_10.send_text(bot, to, text, whisper, topic=topic,
                                          keyboard=keyboard)

    attempts: list[Attempt[object]] = [(frozenset({EPHEMERAL, RICH}), rich_to),
                                       (frozenset({EPHEMERAL}), text_to)]
    sent = await deliver(message.chat_id, 0, context.bot_data.refusals, attempts)
    return sent.value is not None or sent.fate is not None


async def turn_page(update: Update, context: Context, query: CallbackQuery,
                    press: PagePress) -> None:
    """◀ or ▶ under /solve: the message shows another page of the same solutions (unless the
    hand is being played right now)."""
    services, texts = services_of(context), await texts_of(update, context)
    member = member_check(update, context)
    if (refused := await services.solving.refusal(press.request, texts, member)) is not None:
        await notify(query, refused, context.bot_data.refusals)
        return
    await notify(query)
    shown = await services.solving.solve_page(press.request, texts, asker_of(update),
                                              press.page, member)
    if isinstance(shown, str):  # busy or too slow now: said in the chat
        await answer_with(update, context, shown)
        return
    await edit_pressed(context, query, shown.text, keyboards.page_keyboard(
        shown.numbers, shown.target, shown.index, shown.pages), rich_page(shown))
