"""A round on: an answer (/answer, /a, a reply to the deal, or text that reads as one), /hint,
/reveal, /pass and /match, and the buttons under a deal and a result. Each handler reads its
update, calls one method of play's round service and answers at most the press; what the chat
sees, play shows (bot.telegram.sending).

Every press is answered (answerCallbackQuery) once the service has decided, before anything is
sent: a refused one with a short notice instead of a message — a round that is over (its deal's
buttons then go), a player who may not steer the round (the rules of /hint and /reveal), a round
already on (a second Play again), a puzzle being played somewhere right now, a page of
solutions asked of a message that shows no such pages. A hint is told as the press's notice and
written into the deal; Reveal goes to the round service as /reveal does, Pass as /pass does,
Play again and Same level to `replay` (the game says what it deals again); Show all solutions
in a group sends its presser the first page to them alone (an ephemeral message, where Telegram
takes it; else, as in a private chat, the result's own message turns into the pages), and the
◀ ▶ under them page through the round's solutions in the message that shows them; solutions are
written as mathematics where Telegram takes a rich message.
"""

from __future__ import annotations

from telegram import CallbackQuery, InlineKeyboardMarkup, Message, Update
from telegram.ext import MessageHandler, filters

from bot.play.outcomes import Dealt, Edited, Marked, Outcome, Refused, Said
from bot.telegram import bot_api_10, keyboards
from bot.telegram.bot_api_10 import EPHEMERAL, RICH, Rich
from bot.telegram.context import Context
from bot.telegram.delivery import Attempt, deliver
from bot.telegram.grammar import (
    SolveRequest,
    UsageError,
    read_match,
    read_match_game,
)
from bot.telegram.keyboards import (
    COACH,
    DEAL_ACTIONS,
    HINT,
    PASS,
    REVEAL,
    ROUND_ACTIONS,
    SAME,
    SOLUTIONS,
    RoundPress,
)
from bot.telegram.presses import edit_pressed, notify, pressed, set_keyboard
from bot.telegram.replies import answer_with, rich_page, took_something, usage
from bot.telegram.routes import ADMINS, GROUPS, Command, Feature, Press
from bot.telegram.speakers import (
    admin_check,
    arguments,
    asker_of,
    chat_of,
    member_check,
    player_of,
    press_target,
    services_of,
    target_of,
    texts_of,
    waited_of,
)

IN_GROUPS = frozenset({GROUPS, ADMINS})  # a match, a pass: a group's


async def answer(update: Update, context: Context) -> None:
    """/answer (or /a) <expression>: answer the round (nothing after it is an answer that
    can't be read: the round's game says what an answer is, with an example of its numbers)."""
    await services_of(context).rounds.answer(chat_of(update), player_of(update),
                                             arguments(context), True, target=target_of(update),
                                             waited=waited_of(update))


async def plain_text(update: Update, context: Context) -> None:
    """A reply to the deal message is an answer; other text is one only if it reads as one."""
    message = update.effective_message
    if message is None or not message.text:
        return
    replied = message.reply_to_message
    await services_of(context).rounds.answer(
        chat_of(update), player_of(update), message.text, False,
        replied.message_id if replied is not None else None, target_of(update),
        waited_of(update))


async def hint(update: Update, context: Context) -> None:
    """/hint: the next step of a solution, for fewer points, written into the deal."""
    if await took_something(update, context, "hint"):
        return
    await services_of(context).rounds.hint(chat_of(update), player_of(update),
                                           admin_check(update, context),
                                           target=target_of(update))


async def reveal(update: Update, context: Context) -> None:
    """/reveal (or /giveup): end the round and show the answers."""
    if await took_something(update, context, "reveal"):
        return
    await services_of(context).rounds.reveal(chat_of(update), player_of(update),
                                             admin_check(update, context),
                                             target=target_of(update))


async def pass_round(update: Update, context: Context) -> None:
    """/pass: give up on the round once you answered; it ends when everyone who answered has."""
    if await took_something(update, context, "pass"):
        return
    await services_of(context).rounds.pass_round(chat_of(update), player_of(update),
                                                 admin_check(update, context),
                                                 target=target_of(update))


async def match(update: Update, context: Context) -> None:
    """/match [N] [game]: N rounds in a row (default 10) of a game (default the first's);
    /match stop ends the match."""
    matches, chat, player = services_of(context).matches, chat_of(update), player_of(update)
    try:
        rest, game = read_match_game(arguments(context))
        request = read_match(rest)
    except UsageError as error:
        await usage(update, context, "match_usage", error)
        return
    if request == "stop":
        await matches.stop(chat, player, admin_check(update, context), target_of(update))
    else:  # no number: the chat's own match length (/settings)
        count = int(request) if rest.strip() else None
        await matches.start(chat, player, count, target_of(update), game)


async def button(update: Update, context: Context) -> None:
    """A button under a deal or a result was pressed."""
    found = await pressed(update, context, RoundPress)
    if found is None:
        return
    query, message, press = found
    if press.action == SOLUTIONS and not keyboards.shows(message.reply_markup, press):
        # pages rewrite the pressed message: only one that shows them may turn into a page
        await notify(query, (await texts_of(update, context))("button_unknown"))
    elif press.action in (HINT, REVEAL, PASS):
        await steer(update, context, query, press)
    elif press.action == SOLUTIONS:
        await show_solutions(update, context, query, press)
    elif press.action == COACH:
        await coach(update, context, query, press)
    else:
        await after_round(update, context, query, press)


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


async def coach(update: Update, context: Context, query: CallbackQuery,
                press: RoundPress) -> None:
    """What did I miss? under a result: the coach's line to the presser alone, as the press's
    own answer (an alert they close), or why not as a notice (bot.play.coaching)."""
    outcome = await services_of(context).coaching.line(chat_of(update), player_of(update),
                                                       press.round_id)
    await notify(query, outcome.text, alert=isinstance(outcome, Said))


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


# a person's messages only (and their edits): never a channel's post, a business account's
# chat or a guest's message, which are nobody's answer in the chat they name
TEXT_ANSWERS = MessageHandler(filters.UpdateType.MESSAGES & filters.TEXT & ~filters.COMMAND,
                              plain_text)

FEATURE = Feature(
    "rounds",
    commands=(Command(("answer", "a"), answer),
              Command(("hint",), hint),
              Command(("reveal", "giveup"), reveal),
              Command(("pass",), pass_round, offered=IN_GROUPS),
              Command(("match",), match, offered=IN_GROUPS)),
    updates=(TEXT_ANSWERS,),
    presses=tuple(Press(f"{action}:", button) for action in ROUND_ACTIONS))
