"""The application: one table of handlers, and start-up/shut-down of storage and the pool."""

from __future__ import annotations

import logging
import time

from telegram import BotCommand, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.play.matches import PAUSE, Matches
from bot.play.rounds import Game
from bot.play.solving import Solving
from bot.runtime.config import Config
from bot.runtime.health import HEARTBEAT_SECONDS, heartbeat_job, heartbeat_path
from bot.runtime.pool import SolverPool
from bot.store.storage import Storage
from bot.telegram import buttons, handlers
from bot.telegram.admins import AdminCache
from bot.text.i18n import DEFAULT_LANGUAGE, LANGUAGES, texts_for

log = logging.getLogger(__name__)

# (commands, handler); each command's menu line is "cmd_<first name>" in bot/text/locales
COMMANDS = [
    (("start",), handlers.start),
    (("help",), handlers.help_command),
    (("play",), handlers.play),
    (("answer", "a"), handlers.answer),
    (("hint",), handlers.hint),
    (("reveal", "giveup"), handlers.reveal),
    (("solve",), handlers.solve),
    (("countdown",), handlers.countdown),
    (("yahtzee",), handlers.yahtzee),
    (("match",), handlers.match),
    (("top",), handlers.top),
    (("stats",), handlers.stats),
    (("lang",), handlers.lang),
]

ALLOWED_UPDATES = [Update.MESSAGE, Update.EDITED_MESSAGE, Update.INLINE_QUERY,
                   Update.CALLBACK_QUERY]
# httpcore's pool scans all its connections for every request (quadratic in the pool size):
# PTB's default of 256 connections costs more CPU than the replies themselves under load. 32
# keep-alive connections carry far more than Telegram's 30 messages a second; a reply waits
# for a free one up to POOL_TIMEOUT rather than failing.
CONNECTIONS = 8
POOL_TIMEOUT = 30.0
CONCURRENT_UPDATES = 32
# Telegram redelivers an unconfirmed update for up to 24 hours; ids are kept a while longer.
HANDLED_UPDATES_KEPT = 2 * 24 * 3600.0
PRIVACY_NOTE = (
    "privacy mode is on (getMe: can_read_all_group_messages is false): in groups the bot sees "
    "only commands and replies to its messages, so players answer with /a or by replying to "
    "the deal. To let them just type answers: in @BotFather send /setprivacy, choose this bot, "
    "pick Disable, then remove the bot from each group and add it again.")


def build_application(config: Config) -> Application:
    """The bot with every handler registered; storage and pool are opened in post_init."""
    builder = (ApplicationBuilder().token(config.token).base_url(config.base_url)
               .base_file_url(config.base_file_url).post_init(on_startup)
               .post_shutdown(on_shutdown).concurrent_updates(CONCURRENT_UPDATES)
               .connection_pool_size(CONNECTIONS).pool_timeout(POOL_TIMEOUT))
    if config.rate_limit:
        builder = builder.rate_limiter(AIORateLimiter(max_retries=5))  # type: ignore[arg-type]
    application = builder.build()
    application.bot_data["config"] = config
    application.bot_data["admins"] = AdminCache()
    application.add_handler(TypeHandler(Update, handle_once), group=-1)
    for names, callback in COMMANDS:
        application.add_handler(CommandHandler(list(names), callback))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.migrate))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, handlers.plain_text))
    application.add_handler(InlineQueryHandler(handlers.inline_query))
    application.add_handler(CallbackQueryHandler(buttons.button))
    application.add_error_handler(handlers.on_error)
    return application


async def handle_once(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Let an update through the first time only. Telegram sends an update again when the bot
    stopped before confirming it, and a /play, an answer or a /hint must not act twice."""
    storage: Storage = context.application.bot_data["storage"]
    if not await storage.claim_update(update.update_id, time.time()):
        log.info("update %d was handled before; skipped", update.update_id)
        raise ApplicationHandlerStop


async def forget_handled_updates(context: ContextTypes.DEFAULT_TYPE) -> None:
    storage: Storage = context.application.bot_data["storage"]
    await storage.forget_updates(time.time() - HANDLED_UPDATES_KEPT)


def menu(language: str) -> list[BotCommand]:
    """The command menu Telegram shows, in one language."""
    texts = texts_for(language)
    return [BotCommand(names[0], texts(f"cmd_{names[0]}")) for names, _ in COMMANDS]


async def on_startup(application: Application) -> None:
    """Open storage (migrations applied), start the pool, set the menus, resume rounds."""
    config: Config = application.bot_data["config"]
    storage = await Storage.open(config.database_path)
    pool = application.bot_data.get("pool")  # tests may share one pool between applications
    if pool is None:
        pool = SolverPool(config.solver_workers)
        application.bot_data["own_pool"] = True
    await pool.warm_up()
    reads_all = bool(application.bot.can_read_all_group_messages)
    if not reads_all:
        log.warning(PRIVACY_NOTE)
    game = Game(storage, pool, config.seconds, deal_seconds=config.deal_seconds,
                reads_group_messages=reads_all)
    application.bot_data.update(storage=storage, pool=pool, game=game,
                                solving=Solving(pool, config.solve_timeout, game.budget),
                                matches=Matches(game, pause=min(PAUSE, config.round_seconds / 4)))
    for language in LANGUAGES:
        await application.bot.set_my_commands(
            menu(language), language_code=None if language == DEFAULT_LANGUAGE else language)
    await resume_rounds(application)
    await resume_matches(application)
    assert application.job_queue is not None
    application.job_queue.run_repeating(heartbeat_job(heartbeat_path(config.database_path)),
                                        interval=HEARTBEAT_SECONDS, first=0, name="heartbeat")
    application.job_queue.run_repeating(forget_handled_updates, interval=3600, first=0,
                                        name="forget-updates")


async def resume_rounds(application: Application) -> None:
    """Re-arm the timers of rounds still running; send the results the bot owes: rounds that
    ran out while it was down, that had a right answer already, or whose result it had no
    time to send. A result counts as sent once Telegram took it, or refused it for good."""
    game: Game = application.bot_data["game"]
    running, results = await game.resume()
    for round_ in running:
        handlers.arm_timer(application.job_queue, round_, round_.deadline - game.clock())
    for result in results:
        ended = await game.find_round(result.round_id)
        try:
            await application.bot.send_message(
                result.chat_id, result.text, parse_mode=ParseMode.HTML,
                reply_markup=await handlers.after_keyboard(application, game.round_texts(ended),
                                                           ended) if ended else None)
        except (BadRequest, Forbidden):  # the chat is gone or removed the bot
            log.warning("could not send a round's result to chat %s", result.chat_id)
        except Exception:  # the network: the next start tries again
            log.warning("could not send a round's result to chat %s now", result.chat_id)
            continue
        await game.announced(result.round_id)
        await handlers.clear_keyboard(application.bot, ended)
    if running or results:
        log.info("resumed %d rounds, sent %d results", len(running), len(results))


async def stop_application(application: Application) -> None:
    """What run_polling and run_webhook do at the end, for the loops that run the application
    themselves (the demo, the webhook server); post_shutdown closes storage and the pool."""
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    if application.running:
        await application.stop()
        if application.post_stop is not None:
            await application.post_stop(application)
    await application.shutdown()
    if application.post_shutdown is not None:
        await application.post_shutdown(application)

async def resume_matches(application: Application) -> None:
    """After the rounds: re-arm the notices of match rounds still running, and go on with the
    matches that were between rounds (the scores so far, then the next deal) or are over."""
    matches: Matches = application.bot_data["matches"]
    running, steps = await matches.resume()
    for round_ in running:
        handlers.arm_warning(application, round_)
    for chat_id, step in steps:
        try:
            await handlers.carry_out(application, chat_id, step)
        except (BadRequest, Forbidden):  # the chat is gone or removed the bot
            log.warning("could not resume the match in chat %s", chat_id)
    if running or steps:
        log.info("resumed %d matches", len(running) + len(steps))


async def on_shutdown(application: Application) -> None:
    """Close storage and the pool; open rounds stay in the database and resume next time."""
    pool: SolverPool | None = application.bot_data.get("pool")
    storage: Storage | None = application.bot_data.get("storage")
    if pool is not None and application.bot_data.get("own_pool"):
        pool.shutdown()
    if storage is not None:
        await storage.close()
