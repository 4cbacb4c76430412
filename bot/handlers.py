"""Telegram update handlers: read the update, ask the round service or the solving service, send
the text it returns.

Each handler stays a few lines; the rules live in bot.rounds and bot.games. Round timers are
JobQueue jobs named after their chat. Whether the speaker administers the chat is asked of
Telegram here (bot.admins), and only when a rule needs it.
"""

from __future__ import annotations

import logging

from telegram import InlineQueryResultArticle, InputTextMessageContent, Message, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes, JobQueue

from bot.admins import AdminCache
from bot.i18n import Texts, language_of, texts_for
from bot.requests import (
    SolveRequest,
    parse_countdown,
    parse_dice,
    parse_play,
    parse_solve,
    parse_top,
    problem,
    read_countdown,
    read_play,
    read_solve,
    read_top,
    usage_text,
)
from bot.rounds import AdminCheck, Chat, Game, Player, Reply
from bot.solving import Asker, Solving
from bot.storage import Round

log = logging.getLogger(__name__)
INLINE_CACHE_SECONDS = 3600

Context = ContextTypes.DEFAULT_TYPE


def game_of(context: Context) -> Game:
    return context.application.bot_data["game"]


def solving_of(context: Context) -> Solving:
    return context.application.bot_data["solving"]


def admin_check(update: Update, context: Context) -> AdminCheck:
    """Asks Telegram (through a short cache) whether the speaker administers the chat. An
    anonymous admin writes as the group itself, and is one."""
    chat_id, user_id = chat_of(update).id, player_of(update).id
    message = update.effective_message
    anonymous = bool(message and message.sender_chat and message.sender_chat.id == chat_id)
    admins: AdminCache = context.application.bot_data["admins"]

    async def check() -> bool:
        return anonymous or await admins.is_admin(context.bot, chat_id, user_id)

    return check


def asker_of(update: Update) -> Asker:
    """Whose solver time a request spends: the user's, and the chat's."""
    return player_of(update).id, chat_of(update).id


def player_of(update: Update) -> Player:
    user = update.effective_user
    assert user is not None
    return Player(user.id, user.first_name or "", user.username, user.language_code)


def chat_of(update: Update) -> Chat:
    chat = update.effective_chat
    assert chat is not None
    return Chat(chat.id, chat.type, chat.title)


def texts_of(update: Update, context: Context) -> Texts:
    """The messages in the language of this chat (or of this speaker)."""
    return game_of(context).texts(chat_of(update), player_of(update))


def arguments(context: Context) -> str:
    return " ".join(context.args or [])


async def reply(update: Update, text: str, quote: bool = True) -> Message | None:
    message = update.effective_message
    if message is None:
        return None
    return await message.reply_text(text, parse_mode=ParseMode.HTML, do_quote=quote,
                                    disable_web_page_preview=True)


# --- timers ----------------------------------------------------------------------------------

def job_name(chat_id: int) -> str:
    return f"round:{chat_id}"


def arm_timer(queue: JobQueue | None, round_: Round, seconds: float) -> None:
    """(Re)start the round's timer: one job per chat, found by name."""
    assert queue is not None
    drop_timer(queue, round_.chat_id)
    queue.run_once(round_timeout, max(0.0, seconds), data=round_.id,
                   name=job_name(round_.chat_id), chat_id=round_.chat_id)


def drop_timer(queue: JobQueue | None, chat_id: int) -> None:
    if queue is not None:
        for job in queue.get_jobs_by_name(job_name(chat_id)):
            job.schedule_removal()


async def round_timeout(context: Context) -> None:
    """The round's time is up: reveal and close it (unless it ended meanwhile)."""
    job = context.job
    assert job is not None and isinstance(job.data, int)
    closed = await game_of(context).expire(job.data)
    if closed:
        chat_id, text = closed
        await context.bot.send_message(chat_id, text, parse_mode=ParseMode.HTML)
        await game_of(context).announced(job.data)


async def send_round_reply(update: Update, context: Context, outcome: Reply,
                           quote: bool = True) -> None:
    """Send what the round service said; start the timer of a new round (before sending, so
    that a failed send cannot leave a round without an end), drop a closed one's."""
    if outcome.dealt is not None:
        arm_timer(context.job_queue, outcome.dealt,
                  outcome.dealt.deadline - outcome.dealt.started_at)
    if outcome.closed:
        drop_timer(context.job_queue, chat_of(update).id)
    if outcome.reaction is not None and await react(update, context, outcome.reaction):
        return
    sent = await reply(update, outcome.text, quote=quote and outcome.dealt is None)
    if outcome.dealt is not None and sent is not None:
        await game_of(context).set_message(outcome.dealt, sent.message_id)
    if outcome.ended is not None and sent is not None:
        await game_of(context).announced(outcome.ended)


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


# --- commands --------------------------------------------------------------------------------

async def start(update: Update, context: Context) -> None:
    """/start and /help: what the bot does and how to play."""
    await reply(update, texts_of(update, context)("help", bot=context.bot.username), quote=False)


async def play(update: Update, context: Context) -> None:
    """/play [easy|medium|hard] [4|5|6] [= target]: deal a round of 24."""
    game, chat, player = game_of(context), chat_of(update), player_of(update)
    options = parse_play(arguments(context))
    if options is None:
        await reply(update, usage_text(texts_of(update, context), "play_usage",
                                       problem(read_play, arguments(context))))
        return
    await send_round_reply(update, context, await game.play(chat, player, "24", options))


async def countdown(update: Update, context: Context) -> None:
    """/countdown [0-4]: a Countdown round; /countdown n1 .. n6 = T: solve one."""
    game, chat, player = game_of(context), chat_of(update), player_of(update)
    texts = game.texts(chat, player)
    request = parse_countdown(arguments(context))
    if request is None:
        await reply(update, usage_text(texts, "countdown_usage",
                                       problem(read_countdown, arguments(context))))
    elif isinstance(request, SolveRequest):
        await reply(update, await solving_of(context).closest(request, texts, asker_of(update)))
    else:
        await send_round_reply(update, context, await game.play(chat, player, "countdown",
                                                                request))


async def yahtzee(update: Update, context: Context) -> None:
    """/yahtzee: a round of the Yahtzee puzzle; /yahtzee and 65 dice: solve that game."""
    game, chat, player = game_of(context), chat_of(update), player_of(update)
    given = arguments(context)
    if not given.strip():
        await send_round_reply(update, context, await game.play(chat, player, "yahtzee"))
        return
    texts = game.texts(chat, player)
    rolls = parse_dice(given)
    await reply(update, await solving_of(context).yahtzee(rolls, texts, asker_of(update))
                if rolls else texts("yahtzee_usage"))


async def answer(update: Update, context: Context) -> None:
    """/answer (or /a) <expression>: answer the round."""
    expression = arguments(context)
    if not expression:
        await reply(update, texts_of(update, context)("answer_usage"))
        return
    await judge(update, context, expression, explicit=True)


async def plain_text(update: Update, context: Context) -> None:
    """A reply to the deal message is an answer; other text is one only if it reads as one."""
    message = update.effective_message
    if message is None or not message.text:
        return
    replied = message.reply_to_message
    explicit = replied is not None and game_of(context).is_deal(chat_of(update).id,
                                                                 replied.message_id)
    await judge(update, context, message.text, explicit=explicit)


async def judge(update: Update, context: Context, text: str, explicit: bool) -> None:
    outcome = await game_of(context).answer(chat_of(update), player_of(update), text, explicit)
    if outcome is not None:
        await send_round_reply(update, context, outcome)


async def hint(update: Update, context: Context) -> None:
    """/hint: the first step of a solution, for fewer points."""
    await reply(update, await game_of(context).hint(chat_of(update), player_of(update),
                                                    admin_check(update, context)))


async def reveal(update: Update, context: Context) -> None:
    """/reveal (or /giveup): end the round and show the answers."""
    outcome = await game_of(context).reveal(chat_of(update), player_of(update),
                                            admin_check(update, context))
    await send_round_reply(update, context, outcome, quote=False)


async def solve(update: Update, context: Context) -> None:
    """/solve a b c d [= target] [--closest]: every distinct solution (or the closest value)."""
    texts = texts_of(update, context)
    request = parse_solve(arguments(context))
    await reply(update, await solving_of(context).solve(request, texts, asker_of(update))
                if request else usage_text(texts, "solve_usage",
                                           problem(read_solve, arguments(context))))


async def top(update: Update, context: Context) -> None:
    """/top [all] [24|countdown|yahtzee]: the leaderboard of this chat or of every chat."""
    game, chat, player = game_of(context), chat_of(update), player_of(update)
    wanted = parse_top(arguments(context))
    if wanted is None:
        await reply(update, usage_text(texts_of(update, context), "top_usage",
                                       problem(read_top, arguments(context))))
        return
    await reply(update, await game.top(chat, player, *wanted), quote=False)


async def stats(update: Update, context: Context) -> None:
    """/stats: your points, wins, rounds, fastest win and streaks in this chat, per game."""
    await reply(update, await game_of(context).stats(chat_of(update), player_of(update)))


async def lang(update: Update, context: Context) -> None:
    """/lang en|zh: the chat's language."""
    await reply(update, await game_of(context).set_language(
        chat_of(update), player_of(update), arguments(context), admin_check(update, context)))


# --- the rest --------------------------------------------------------------------------------

async def migrate(update: Update, context: Context) -> None:
    """A group became a supergroup: move its rounds, scores and timer to the new id."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    old_id, new_id = message.chat.id, message.migrate_to_chat_id
    moved = await game_of(context).migrate_chat(old_id, new_id)
    drop_timer(context.job_queue, old_id)
    if moved is not None:
        arm_timer(context.job_queue, moved, moved.deadline - game_of(context).clock())


async def inline_query(update: Update, context: Context) -> None:
    """'@bot 3 8 3 8' in any chat: the solutions, to share one."""
    query = update.inline_query
    assert query is not None
    texts = texts_for(language_of(query.from_user.language_code))
    answers = await solving_of(context).inline(parse_solve(query.query), texts,
                                               context.bot.username, (query.from_user.id, None))
    results = [InlineQueryResultArticle(a.id, a.title, InputTextMessageContent(
        a.message, parse_mode=ParseMode.HTML), description=a.description or None)
        for a in answers]
    await query.answer(results, cache_time=INLINE_CACHE_SECONDS)


async def on_error(update: object, context: Context) -> None:
    """Log the error; the chat gets a short apology, never a traceback."""
    log.error("error while handling an update", exc_info=context.error)
    if isinstance(update, Update) and update.effective_chat is not None:
        texts = texts_for(language_of(update.effective_user.language_code
                                      if update.effective_user else None))
        try:
            await context.bot.send_message(update.effective_chat.id, texts("error"),
                                           parse_mode=ParseMode.HTML)
        except Exception:  # the chat may be gone; nothing more to do
            log.warning("could not tell the chat about the error")
