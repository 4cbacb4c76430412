"""Telegram command and message handlers: read the update, ask a game service, send the text it
returns. Each handler stays a few lines; the rules live in bot.play.

Whether the speaker administers the chat is asked of Telegram (bot.telegram.members), and only
when a rule needs it (bot.play.guards.permissions).
"""

from __future__ import annotations

import logging

from telegram import (
    ChatMember,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ChatType
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError
from telegram.ext import ApplicationHandlerStop, ChatMemberHandler

from bot.play.chats.settings import Panel
from bot.play.guards.once import Outage, is_outage
from bot.play.outcomes import Said
from bot.play.ports import Fate, Moved
from bot.play.solving.paging import Page
from bot.play.words.help import help_text
from bot.telegram import keyboards
from bot.telegram.bot_api_10 import Rich
from bot.telegram.context import Context
from bot.telegram.grammar import (
    DealRequest,
    SolveRequest,
    UsageError,
    read_arguments,
    read_countdown_request,
    read_match,
    read_play_request,
    read_solve,
    read_yahtzee_request,
    usage_problem,
)
from bot.telegram.members import OUT_STATUSES, standing
from bot.telegram.refusals import refusal
from bot.telegram.sending import Sent, fate_of, reply, say
from bot.telegram.speakers import (
    admin_check,
    arguments,
    asker_of,
    chat_of,
    claim_of,
    member_check,
    player_of,
    services_of,
    settled,
    target_of,
    texts_of,
    topic_of,
    waited_of,
)
from bot.text.html_text import EntityError, visible_text
from bot.text.i18n import Texts, language_of, texts_for

log = logging.getLogger(__name__)
OUTAGE = Outage(log, "handling updates and timers")  # errors that only say the database is down
INLINE_CACHE_SECONDS = 3600
# The inline query the daily puzzle's Share button writes: answered with the person's result of
# the day, without a spoiler (bot.play.daily.Daily.shared); personal, kept by nobody.
SHARE_QUERY = "daily"


async def help_command(update: Update, context: Context) -> None:
    """/help: every command, with this bot's round lengths and the rules of fair play;
    /help yahtzee: how Yahtzee scores."""
    await answer_with(update, context, help_text(
        await texts_of(update, context), context.bot.username,
        (await services_of(context).rounds.chat_settings(chat_of(update).id)).seconds,
        arguments(context)), quote=False)


async def play(update: Update, context: Context) -> None:
    """/play [easy|medium|hard] [4|5|6] [= target]: deal a round of 24."""
    request = read_arguments(read_play_request, arguments(context))
    if isinstance(request, UsageError):
        await usage(update, context, "play_usage", request)
        return
    await deal(update, context, request)


async def countdown(update: Update, context: Context) -> None:
    """/countdown [0-4]: a Countdown round; /countdown n1 .. n6 = T: solve one."""
    request = read_arguments(read_countdown_request, arguments(context))
    if isinstance(request, UsageError):
        await usage(update, context, "countdown_usage", request)
    elif isinstance(request, SolveRequest):
        texts = await texts_of(update, context)
        await answer_with(update, context, await services_of(context).solving.closest(
            request, texts, asker_of(update), member_check(update, context)))
    else:
        await deal(update, context, request)


async def yahtzee(update: Update, context: Context) -> None:
    """/yahtzee: a round of the Yahtzee puzzle; /yahtzee and 65 dice: solve that game."""
    request = read_arguments(read_yahtzee_request, arguments(context))
    if isinstance(request, UsageError):
        await usage(update, context, "yahtzee_usage", request)
    elif isinstance(request, DealRequest):
        await deal(update, context, request)
    else:
        texts = await texts_of(update, context)
        await answer_with(update, context, await services_of(context).solving.yahtzee(
            request, texts, asker_of(update), member_check(update, context)))


async def deal(update: Update, context: Context, request: DealRequest) -> None:
    claim = claim_of(update, context)
    outcome = await services_of(context).rounds.play(chat_of(update), player_of(update),
                                                     request.game, request.options,
                                                     target_of(update), claim)
    if claim is not None and not isinstance(outcome, Said):
        settled(update)  # by the round's insert (or the claim is another's): no settle after


async def match(update: Update, context: Context) -> None:
    """/match [N]: N rounds of 24 in a row (default 10); /match stop ends the match."""
    matches, chat, player = services_of(context).matches, chat_of(update), player_of(update)
    request = read_arguments(read_match, arguments(context))
    if isinstance(request, UsageError):
        await usage(update, context, "match_usage", request)
    elif request == "stop":
        await matches.stop(chat, player, admin_check(update, context), target_of(update))
    else:  # no number: the chat's own match length (/settings)
        count = int(request) if arguments(context).strip() else None
        await matches.start(chat, player, count, target_of(update))


async def usage(update: Update, context: Context, key: str, error: UsageError) -> None:
    """What was wrong with a command's arguments, what it takes, and an example that works."""
    await answer_with(update, context, refusal(await texts_of(update, context), key, error,
                                               arguments(context)))


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
    await services_of(context).rounds.hint(chat_of(update), player_of(update),
                                           admin_check(update, context),
                                           target=target_of(update))


async def reveal(update: Update, context: Context) -> None:
    """/reveal (or /giveup): end the round and show the answers."""
    await services_of(context).rounds.reveal(chat_of(update), player_of(update),
                                             admin_check(update, context),
                                             target=target_of(update))


async def pass_round(update: Update, context: Context) -> None:
    """/pass: give up on the round once you answered; it ends when everyone who answered has."""
    await services_of(context).rounds.pass_round(chat_of(update), player_of(update),
                                                 admin_check(update, context),
                                                 target=target_of(update))


async def settings(update: Update, context: Context) -> None:
    """/settings: a group's own settings, one message with buttons (its admins); in a private
    chat, the person's language."""
    shown = await services_of(context).settings.show(chat_of(update), player_of(update),
                                                     admin_check(update, context))
    if isinstance(shown, Panel):
        await answer_with(update, context, shown.text, quote=False,
                          keyboard=keyboards.settings_keyboard(shown))
    else:
        await answer_with(update, context, shown.text)


async def solve(update: Update, context: Context) -> None:
    """/solve a b c d [= target] [--closest]: every distinct solution (or the closest value)."""
    request = read_arguments(read_solve, arguments(context))
    if isinstance(request, UsageError):
        await usage(update, context, "solve_usage", request)
        return
    await send_page(update, context, await services_of(context).solving.solve_page(
        request, await texts_of(update, context), asker_of(update),
        member=member_check(update, context)))


async def send_page(update: Update, context: Context, shown: Page | str) -> None:
    """A first page of solutions, with ◀ ▶ when there are more (or the text that stands in):
    as mathematics where Telegram takes a rich message, else as text."""
    if isinstance(shown, str):
        await answer_with(update, context, shown)
    else:
        await answer_with(update, context, shown.text, keyboard=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages), rich=rich_page(shown))


def rich_page(shown: Page, head: str | None = None) -> Rich:
    """A page of solutions as a rich message: its first line (after `head`, a result's), each
    solution a mathematical block, and how many more there are."""
    return Rich.of([visible(head or ""), visible(shown.head)], shown.formulas,
                   [visible(shown.tail)])


def visible(html: str) -> str:
    """Our HTML as the plain text a rich message's paragraph holds."""
    try:
        return visible_text(html)
    except EntityError:
        return html


async def answer_with(update: Update, context: Context, text: str, quote: bool = True,
                      keyboard: InlineKeyboardMarkup | None = None,
                      rich: Rich | None = None) -> None:
    """The face's own reply (what no service publishes): to the asker alone where they wrote
    to the bot alone, as mathematics where `rich` and Telegram takes it; what it found of the
    chat goes to play, the one place that acts on it."""
    await settle(context, await reply(update, text, quote, keyboard,
                                      context.bot_data.refusals, rich))


async def settle(context: Context, sent: Sent) -> None:
    if sent.fate is not None:
        await services_of(context).places.settle(sent.fate)


async def lang(update: Update, context: Context) -> None:
    """/lang en|zh: the chat's language."""
    await answer_with(update, context, await services_of(context).people.set_language(
        chat_of(update), player_of(update), arguments(context), admin_check(update, context)))


async def migrate(update: Update, context: Context) -> None:
    """A group became a supergroup: its rounds, scores, match and timers move to the new id.
    Telegram says so in the group and in the supergroup, in either order: either moves it."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id and message.chat.type == ChatType.GROUP:
        await services_of(context).places.migrate(message.chat.id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id and message.chat.type == ChatType.SUPERGROUP:
        await services_of(context).places.migrate(message.migrate_from_chat_id, message.chat.id)


def may_write(member: ChatMember) -> bool:
    """Whether the bot may post in the chat with this status (a muted member may not, nor
    one that left while restricted)."""
    if standing(member) in OUT_STATUSES:
        return False
    return member.status != ChatMember.RESTRICTED or \
        bool(getattr(member, "can_send_messages", False))


async def member_status(update: Update, context: Context) -> None:
    """The bot's own status in a chat changed (my_chat_member): what it knows of the chat's
    members follows (bot.telegram.members); removed, banned, blocked or muted, the chat's
    rounds and matches end quietly; added to a group, a short greeting."""
    changed = update.my_chat_member
    if changed is None:
        return
    chat = changed.chat
    context.bot_data.members.bot_changed(chat.id, changed.new_chat_member)
    if not may_write(changed.new_chat_member):
        await services_of(context).places.abandon(chat.id, None,
                                                  str(changed.new_chat_member.status))
        return
    if chat.type in (ChatType.GROUP, ChatType.SUPERGROUP) and \
            changed.old_chat_member.status in OUT_STATUSES:  # added (not unmuted, not promoted)
        services = services_of(context)
        await settle(context, await say(context.bot, chat.id, 0, await services.people.greeting(
            chat_of(update), player_of(update), services.rounds.reads_group_messages)))


async def member_changed(update: Update, context: Context) -> None:
    """Someone's status in a group changed (chat_member: Telegram sends it to an admin bot
    that asked for it): what the bot remembered of them is replaced, so one who left is
    refused from now on. Nothing else: no reply, and no claim (the update-once gate is after
    this), since replacing it twice is the same as once."""
    changed = update.chat_member
    if changed is not None:
        context.bot_data.members.changed(changed.chat.id, changed.new_chat_member)
    raise ApplicationHandlerStop


# before the update-once gate (group -1 in bot.telegram.app)
MEMBER_CHANGES = ChatMemberHandler(member_changed, ChatMemberHandler.CHAT_MEMBER)


async def inline_query(update: Update, context: Context) -> None:
    """'@bot 3 8 3 8' in any chat: the solutions, to share one."""
    query = update.inline_query
    assert query is not None
    texts = texts_for(language_of(query.from_user.language_code))
    if query.query.strip().lower() == SHARE_QUERY:
        await share_daily(update, context)
        return
    found = await services_of(context).solving.inline(
        inline_request(query.query, texts), texts, context.bot.username,
        (query.from_user.id, None), member_check(update, context))
    results = [InlineQueryResultArticle(a.id, a.title, InputTextMessageContent(a.message),
                                        description=a.description or None)
               for a in found.answers]
    # Telegram serves a kept answer to everyone without asking the bot: only for a request no
    # round the bot can deal is reached by, or it would hand out a live round's solutions; the
    # rest is kept for nobody, not even the asker (whose chats' rounds change)
    try:
        await query.answer(results, cache_time=INLINE_CACHE_SECONDS if found.cacheable else 0,
                           is_personal=not found.cacheable)
    except BadRequest as error:  # answered too late (Telegram waits about 10 s): nobody waits
        log.info("could not answer an inline query: %s", error)


async def share_daily(update: Update, context: Context) -> None:
    """'@bot daily' (the daily puzzle's Share button): the person's result of the day as one
    line to post, no answer in it; nothing when they have not solved it today."""
    query = update.inline_query
    assert query is not None
    texts = texts_for(language_of(query.from_user.language_code))
    line = await services_of(context).community.daily.shared(player_of(update))
    results = [] if line is None else [InlineQueryResultArticle(
        SHARE_QUERY, texts("daily_share_button"), InputTextMessageContent(line),
        description=line)]
    try:
        await query.answer(results, cache_time=0, is_personal=True)
    except BadRequest as error:
        log.info("could not answer an inline query: %s", error)


def inline_request(query: str, texts: Texts) -> SolveRequest | str | None:
    """What an inline query asks: a request, what is wrong with it (in words), or None when
    there is nothing to read (the usage is shown)."""
    request = read_arguments(read_solve, query)
    if not isinstance(request, UsageError):
        return request
    return usage_problem(texts, request) if query.strip() and request.code else None


def in_transport(error: BaseException | None) -> bool:
    """A Bot API request that timed out or failed on the way (PTB's NetworkError, TimedOut
    among them), not one Telegram refused (BadRequest is a NetworkError in PTB too)."""
    return isinstance(error, NetworkError) and not isinstance(error, BadRequest)


async def on_error(update: object, context: Context) -> None:
    """Log the error; the chat gets a short apology, never a traceback. What Telegram says of
    the chat itself (gone, migrated), from a send no helper guarded, is handled as the helpers
    handle it: a warning, and no apology to a chat that cannot be written to."""
    error = context.error
    chat = update.effective_chat if isinstance(update, Update) else None
    topic = topic_of(update.effective_message) if isinstance(update, Update) else 0
    fate: Fate | None = None
    if chat is not None and isinstance(error, ChatMigrated):
        fate = Moved(chat.id, error.new_chat_id)
    elif chat is not None and isinstance(error, Forbidden | BadRequest):
        fate = fate_of(error, chat.id, topic)
    if fate is not None:
        log.warning("Telegram refused a message to chat %s: %s", chat and chat.id, error)
        await services_of(context).places.settle(fate)
        return
    if in_transport(error):  # a slow or cut network is not the bot's failure: no apology
        log.warning("a Bot API request failed in transport: %s", error)
        return
    if error is None or not is_outage(error, OUTAGE):  # the database down: a line a minute
        log.error("error while handling an update", exc_info=error)
    if isinstance(update, Update) and update.callback_query is not None:
        try:  # the press's spinner stops (answered already: Telegram refuses, nothing lost)
            await update.callback_query.answer()
        except Exception:  # the network, or answered before
            log.info("could not answer a press whose handling failed")
    if isinstance(update, Update) and chat is not None:
        texts = texts_for(language_of(update.effective_user.language_code
                                      if update.effective_user else None))
        try:
            await say(context.bot, chat.id, topic, texts("error"))
        except Exception:  # the network; nothing more to do
            log.warning("could not tell the chat about the error")
