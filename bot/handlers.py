"""Telegram update handlers: read the update, ask the game, send the text it returns.

Each handler stays a few lines; the rules live in bot.game. Round timers are JobQueue jobs named
after their chat.
"""

from __future__ import annotations

import html
import logging

from telegram import Message, Update
from telegram.constants import ParseMode
from telegram.ext import ContextTypes

from bot.game import Game, Player
from bot.storage import Round
from bot.texts import text

log = logging.getLogger(__name__)


def game_of(context: ContextTypes.DEFAULT_TYPE) -> Game:
    return context.application.bot_data["game"]


def player_of(update: Update) -> Player:
    user = update.effective_user
    assert user is not None
    return Player(user.id, user.first_name or "", user.username)


def chat_of(update: Update) -> tuple[int, str, str | None]:
    chat = update.effective_chat
    assert chat is not None
    return chat.id, chat.type, chat.title


async def reply(update: Update, message: str, quote: bool = True) -> Message | None:
    target = update.effective_message
    if target is None:
        return None
    return await target.reply_text(message, parse_mode=ParseMode.HTML,
                                   do_quote=quote, disable_web_page_preview=True)


def job_name(chat_id: int) -> str:
    return f"round:{chat_id}"


def arm_timer(context: ContextTypes.DEFAULT_TYPE, round_: Round, seconds: float) -> None:
    """(Re)start the round's timer: one job per chat, found by name."""
    queue = context.job_queue
    assert queue is not None
    for job in queue.get_jobs_by_name(job_name(round_.chat_id)):
        job.schedule_removal()
    queue.run_once(round_timeout, max(0.0, seconds), data=round_.id,
                   name=job_name(round_.chat_id), chat_id=round_.chat_id)


async def round_timeout(context: ContextTypes.DEFAULT_TYPE) -> None:
    """The round's time is up: reveal and close it (unless someone won meanwhile)."""
    job = context.job
    assert job is not None and isinstance(job.data, int)
    closed = await game_of(context).expire(job.data)
    if closed:
        chat_id, message = closed
        await context.bot.send_message(chat_id, message, parse_mode=ParseMode.HTML)


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start and /help: what the bot does and how to play."""
    await reply(update, text("help"), quote=False)


async def play(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/play: deal four numbers, or repeat the round already on."""
    chat_id, chat_type, title = chat_of(update)
    started = await game_of(context).play(chat_id, chat_type, title, player_of(update))
    sent = await reply(update, started.text, quote=False)
    if started.round is not None and sent is not None:
        await game_of(context).set_message(started.round.id, sent.message_id)
        arm_timer(context, started.round, started.round.deadline - started.round.started_at)


async def answer(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/answer (or /a) <expression>: answer the round."""
    expression = " ".join(context.args or [])
    if not expression:
        await reply(update, text("answer_usage"))
        return
    await _judge(update, context, expression, explicit=True)


async def plain_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A reply to the deal message is an answer; other text is one only if it reads as one."""
    message = update.effective_message
    if message is None or not message.text:
        return
    chat_id = chat_of(update)[0]
    replied = message.reply_to_message
    explicit = False
    if replied is not None and replied.from_user is not None and replied.from_user.is_bot:
        current = await game_of(context).open_round(chat_id)
        explicit = current is not None and current.message_id == replied.message_id
    await _judge(update, context, message.text, explicit=explicit)


async def _judge(update: Update, context: ContextTypes.DEFAULT_TYPE, expression: str,
                 explicit: bool) -> None:
    chat_id, chat_type, title = chat_of(update)
    verdict = await game_of(context).answer(chat_id, chat_type, title, player_of(update),
                                            expression, explicit)
    if verdict is not None:
        await reply(update, verdict)
        if verdict.startswith("✅") and context.job_queue is not None:
            for job in context.job_queue.get_jobs_by_name(job_name(chat_id)):
                job.schedule_removal()


async def hint(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/hint: the first step of a solution, for fewer points."""
    await reply(update, await game_of(context).hint(chat_of(update)[0]))


async def reveal(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/reveal (or /giveup): end the round and show the solutions."""
    chat_id = chat_of(update)[0]
    await reply(update, await game_of(context).reveal(chat_id), quote=False)
    if context.job_queue is not None:
        for job in context.job_queue.get_jobs_by_name(job_name(chat_id)):
            job.schedule_removal()


async def solve(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/solve a b c d [= target]: every distinct solution."""
    await reply(update, await game_of(context).solve(" ".join(context.args or [])))


async def top(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/top (this chat) or /top all: the leaderboard."""
    everywhere = [word.lower() for word in context.args or []][:1] == ["all"]
    await reply(update, await game_of(context).top(chat_of(update)[0], everywhere), quote=False)


async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/stats: your points, wins, rounds, fastest win and streaks in this chat."""
    await reply(update, await game_of(context).stats(chat_of(update)[0], player_of(update)))


async def migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: move its rounds, scores and timer to the new id."""
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    old_id, new_id = message.chat.id, message.migrate_to_chat_id
    game = game_of(context)
    await game.migrate_chat(old_id, new_id)
    moved = await game.open_round(new_id)
    if moved is not None and context.job_queue is not None:
        for job in context.job_queue.get_jobs_by_name(job_name(old_id)):
            job.schedule_removal()
        arm_timer(context, moved, moved.deadline - game.clock())


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log the error; the chat gets a short apology, never a traceback."""
    log.error("error while handling an update", exc_info=context.error)
    if isinstance(update, Update) and update.effective_chat is not None:
        try:
            await context.bot.send_message(update.effective_chat.id, html.escape(text("error")),
                                           parse_mode=ParseMode.HTML)
        except Exception:  # the chat may be gone; nothing more to do
            log.warning("could not tell the chat about the error")
