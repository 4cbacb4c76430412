"""The application: one table of handlers, and start-up/shut-down of storage and the pool."""

from __future__ import annotations

import logging

from telegram import BotCommand, Update
from telegram.constants import ParseMode
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot import handlers
from bot.config import Config
from bot.game import Game
from bot.pool import SolverPool
from bot.storage import Storage

log = logging.getLogger(__name__)

COMMANDS = [  # (commands, handler, description for the Telegram menu)
    (("start", "help"), handlers.start, "How to play"),
    (("play",), handlers.play, "Deal four numbers: make 24"),
    (("answer", "a"), handlers.answer, "Answer the round: /a (8-4)*(3+3)"),
    (("hint",), handlers.hint, "First step of a solution (fewer points)"),
    (("reveal", "giveup"), handlers.reveal, "End the round and show the solutions"),
    (("solve",), handlers.solve, "All solutions: /solve 3 8 3 8"),
    (("top",), handlers.top, "Leaderboard (/top all for every chat)"),
    (("stats",), handlers.stats, "Your points, wins and streaks"),
]


def build_application(config: Config) -> Application:
    """The bot with every handler registered; storage and pool are opened in post_init."""
    builder = (ApplicationBuilder().token(config.token).base_url(config.base_url)
               .base_file_url(config.base_file_url).post_init(on_startup)
               .post_shutdown(on_shutdown).concurrent_updates(True))
    if config.rate_limit:
        builder = builder.rate_limiter(AIORateLimiter(max_retries=5))  # type: ignore[arg-type]
    application = builder.build()
    application.bot_data["config"] = config
    for names, callback, _ in COMMANDS:
        application.add_handler(CommandHandler(list(names), callback))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, handlers.migrate))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, handlers.plain_text))
    application.add_error_handler(handlers.on_error)
    return application


async def on_startup(application: Application) -> None:
    """Open storage (migrations applied), start the pool, set the menu, resume rounds."""
    config: Config = application.bot_data["config"]
    storage = await Storage.open(config.database_path)
    pool = application.bot_data.get("pool")  # tests may share one pool between applications
    if pool is None:
        pool = SolverPool(config.solver_workers)
        application.bot_data["own_pool"] = True
    await pool.warm_up()
    game = Game(storage, pool, config.round_seconds, config.solve_timeout)
    application.bot_data.update(storage=storage, pool=pool, game=game)
    await application.bot.set_my_commands(
        [BotCommand(names[0], description) for names, _, description in COMMANDS])
    await resume_rounds(application)


async def resume_rounds(application: Application) -> None:
    """Re-arm the timers of rounds still running; reveal the ones that ran out while down."""
    game: Game = application.bot_data["game"]
    running, expired = await game.resume()
    context = ContextTypes.DEFAULT_TYPE(application)
    for round_ in running:
        handlers.arm_timer(context, round_, round_.deadline - game.clock())
    for chat_id, message in expired:
        await application.bot.send_message(chat_id, message, parse_mode=ParseMode.HTML)
    if running or expired:
        log.info("resumed %d rounds, closed %d that ran out", len(running), len(expired))


async def on_shutdown(application: Application) -> None:
    """Close storage and the pool; open rounds stay in the database and resume next time."""
    pool: SolverPool | None = application.bot_data.get("pool")
    storage: Storage | None = application.bot_data.get("storage")
    if pool is not None and application.bot_data.get("own_pool"):
        pool.shutdown()
    if storage is not None:
        await storage.close()


ALLOWED_UPDATES = [Update.MESSAGE, Update.EDITED_MESSAGE]
