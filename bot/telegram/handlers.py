"""Telegram update handlers: read the update, ask the round service or the solving service, send
the text it returns.

Each handler stays a few lines; the rules live in bot.play.rounds and bot.play.games. Round
timers are JobQueue jobs named after their chat. Whether the speaker administers the chat is
asked of Telegram here (bot.telegram.admins), and only when a rule needs it.
"""

from __future__ import annotations

import logging

from telegram import (
    Bot,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    Message,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError
from telegram.ext import Application, ContextTypes, JobQueue

from bot.play.matches import Matches, Step, parse_match
from bot.play.paging import Page
from bot.play.requests import (
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
from bot.play.rounds import AdminCheck, Chat, Game, Player, Reply
from bot.play.solving import Asker, Solving
from bot.store.storage import Round
from bot.telegram import keyboards
from bot.telegram.admins import AdminCache
from bot.text import markup
from bot.text.i18n import Texts, language_of, texts_for

log = logging.getLogger(__name__)
INLINE_CACHE_SECONDS = 3600

Context = ContextTypes.DEFAULT_TYPE


def game_of(context: Context) -> Game:
    return context.application.bot_data["game"]


def matches_of(context: Context) -> Matches:
    return context.application.bot_data["matches"]


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


async def reply(update: Update, text: str, quote: bool = True,
                keyboard: InlineKeyboardMarkup | None = None) -> Message | None:
    message = update.effective_message
    if message is None:
        return None
    return await message.reply_text(text, parse_mode=ParseMode.HTML, do_quote=quote,
                                    disable_web_page_preview=True, reply_markup=keyboard)


async def clear_keyboard(bot: Bot, round_: Round | None) -> None:
    """Take the Hint and Reveal buttons off an ended round's deal. Only cosmetic: a press on a
    keyboard left behind is refused politely, so a failure here is only logged."""
    if round_ is None or round_.message_id is None:
        return
    try:
        await bot.edit_message_reply_markup(round_.chat_id, round_.message_id, reply_markup=None)
    except TelegramError as error:
        log.info("could not remove the buttons of round %d: %s", round_.id, error)


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
    game = game_of(context)
    closed = await game.expire(job.data)
    if closed:
        chat_id, text = closed
        ended = await game.find_round(job.data)
        keyboard = await after_keyboard(context.application, game.round_texts(ended), ended) \
            if ended else None
        await context.bot.send_message(chat_id, text, parse_mode=ParseMode.HTML,
                                       reply_markup=keyboard)
        await game.announced(job.data)
        await clear_keyboard(context.bot, ended)
        await follow_match(context.application, chat_id, job.data)

# --- match timers: the next deal and the "30 s left" notice, JobQueue jobs named per chat ----

def arm_next_deal(queue: JobQueue | None, chat_id: int, seconds: float) -> None:
    """Deal the match's next round in `seconds` (one such job per chat)."""
    assert queue is not None
    for job in queue.get_jobs_by_name(f"match:{chat_id}"):
        job.schedule_removal()
    queue.run_once(match_next, max(0.0, seconds), data=chat_id, name=f"match:{chat_id}",
                   chat_id=chat_id)


def arm_warning(application: Application, round_: Round) -> None:
    """The round's "30 s left" notice (skipped when that moment has passed)."""
    matches: Matches = application.bot_data["matches"]
    queue = application.job_queue
    assert queue is not None
    for job in queue.get_jobs_by_name(f"warn:{round_.chat_id}"):
        job.schedule_removal()
    delay = round_.started_at + matches.warning_delay(round_) - matches.game.clock()
    if delay > 0:
        queue.run_once(match_warning, delay, data=round_.id, name=f"warn:{round_.chat_id}",
                       chat_id=round_.chat_id)


async def match_warning(context: Context) -> None:
    """Tell the chat its round ends soon, if it is still on."""
    job = context.job
    assert job is not None and job.chat_id is not None and isinstance(job.data, int)
    text = matches_of(context).warning(job.chat_id, job.data)
    if text is not None:
        await context.bot.send_message(job.chat_id, text, parse_mode=ParseMode.HTML)


async def match_next(context: Context) -> None:
    """Deal the match's next round (unless the match ended or a round is on meanwhile)."""
    job = context.job
    assert job is not None and isinstance(job.data, int)
    chat_id, matches = job.data, matches_of(context)
    outcome = await matches.deal_next(chat_id)
    if outcome is None:
        return
    if outcome.dealt is None:  # the deal failed (too slow): say so, and try again shortly
        if game_of(context).open_round(chat_id) is None:
            arm_next_deal(context.job_queue, chat_id, matches.pause)
        await context.bot.send_message(chat_id, outcome.text, parse_mode=ParseMode.HTML)
        return
    await send_match_deal(context.application, outcome)


async def send_match_deal(application: Application, outcome: Reply) -> None:
    """A match round dealt by a job: its timers first (a failed send cannot stall it), then the
    message, whose id makes replies to it answers."""
    assert outcome.dealt is not None
    dealt = outcome.dealt
    arm_timer(application.job_queue, dealt, dealt.deadline - dealt.started_at)
    arm_warning(application, dealt)
    game: Game = application.bot_data["game"]
    sent = await application.bot.send_message(
        dealt.chat_id, outcome.text, parse_mode=ParseMode.HTML,
        reply_markup=keyboards.deal_keyboard(game.round_texts(dealt), dealt))
    await application.bot_data["game"].set_message(dealt, sent.message_id)


async def after_keyboard(application: Application, texts: Texts,
                         ended: Round) -> InlineKeyboardMarkup:
    """The buttons under a round's result (fewer while a match runs in the chat)."""
    matches: Matches | None = application.bot_data.get("matches")
    in_match = matches is not None and await matches.storage.match_on(ended.chat_id) is not None
    return keyboards.after_keyboard(texts, ended, in_match)


async def follow_match(application: Application, chat_id: int, round_id: int | None) -> None:
    """A round ended in the chat: if a match is on there, its scoreboard and next deal."""
    matches: Matches = application.bot_data["matches"]
    await carry_out(application, chat_id, await matches.after_round(chat_id, round_id))


async def carry_out(application: Application, chat_id: int, step: Step | None) -> None:
    """Arm the match's next deal (before sending, so a failed send cannot stall the match),
    then send what it says."""
    if step is None:
        return
    if step.next_in is not None:
        arm_next_deal(application.job_queue, chat_id, step.next_in)
    if step.text is not None:
        await application.bot.send_message(chat_id, step.text, parse_mode=ParseMode.HTML)


async def send_round_reply(update: Update, context: Context, outcome: Reply,
                           quote: bool = True) -> None:
    """Send what the round service said; start the timer of a new round (before sending, so
    that a failed send cannot leave a round without an end), drop a closed one's. A deal gets
    its Hint and Reveal buttons, a result Play again and the like; the ended round's deal loses
    its buttons."""
    keyboard, ended = None, None
    if outcome.dealt is not None:
        arm_timer(context.job_queue, outcome.dealt,
                  outcome.dealt.deadline - outcome.dealt.started_at)
        keyboard = keyboards.deal_keyboard(texts_of(update, context), outcome.dealt)
    if outcome.closed:
        drop_timer(context.job_queue, chat_of(update).id)
    if outcome.reaction is not None and await react(update, context, outcome.reaction):
        return
    if outcome.ended is not None and (ended := await game_of(context).find_round(outcome.ended)):
        keyboard = await after_keyboard(context.application, texts_of(update, context), ended)
    sent = await reply(update, outcome.text, quote=quote and outcome.dealt is None,
                       keyboard=keyboard)
    if outcome.dealt is not None and sent is not None:
        await game_of(context).set_message(outcome.dealt, sent.message_id)
    if outcome.ended is not None and sent is not None:
        await game_of(context).announced(outcome.ended)
    await clear_keyboard(context.bot, ended)
    if outcome.closed:
        await follow_match(context.application, chat_of(update).id, outcome.ended)


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
    """/start: a greeting; in a private chat, the games in brief."""
    texts = texts_of(update, context)
    await reply(update, texts("start", name=markup.name(player_of(update).first_name)),
                quote=False)


async def help_command(update: Update, context: Context) -> None:
    """/help: every command, with this bot's round lengths."""
    await reply(update, game_of(context).help(chat_of(update), player_of(update),
                                              context.bot.username), quote=False)


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


async def match(update: Update, context: Context) -> None:
    """/match [N]: N rounds of 24 in a row (default 10); /match stop ends the match."""
    chat, player = chat_of(update), player_of(update)
    request = parse_match(arguments(context))
    if request is None:
        await reply(update, texts_of(update, context)("match_usage"))
    elif request == "stop":
        outcome = await matches_of(context).stop(chat, player, admin_check(update, context))
        await send_round_reply(update, context, outcome, quote=False)
    else:
        outcome = await matches_of(context).start(chat, player, int(request))
        await send_round_reply(update, context, outcome)
        if outcome.dealt is not None:
            arm_warning(context.application, outcome.dealt)


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
    if request is None:
        await reply(update, usage_text(texts, "solve_usage",
                                       problem(read_solve, arguments(context))))
        return
    await send_page(update, await solving_of(context).solve_page(request, texts,
                                                                 asker_of(update)))


async def send_page(update: Update, shown: Page | str) -> None:
    """A first page of solutions, with ◀ ▶ when there are more (or the text that stands in)."""
    if isinstance(shown, str):
        await reply(update, shown)
    else:
        await reply(update, shown.text, keyboard=keyboards.page_keyboard(
            shown.numbers, shown.target, shown.index, shown.pages))


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
    move_match_jobs(context.application, old_id, new_id, moved)


def move_match_jobs(application: Application, old_id: int, new_id: int,
                    moved: Round | None) -> None:
    """A match's pending deal and notice follow its chat to the new id."""
    queue = application.job_queue
    assert queue is not None
    for job in queue.get_jobs_by_name(f"match:{old_id}"):
        job.schedule_removal()
        arm_next_deal(queue, new_id, application.bot_data["matches"].pause)
    for job in queue.get_jobs_by_name(f"warn:{old_id}"):
        job.schedule_removal()
        if moved is not None:
            arm_warning(application, moved)


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
