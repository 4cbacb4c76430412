"""The root of the chat face: its features joined in one table (each declares its commands,
presses, deep links and other updates in its own module: bot.telegram.features), the
update-once gate around them, the defaults of every message, and the application built over
what the composition root (bot.wiring) made first — the bot, its bot data, the scheduler's job
queue, the fair update processor — so that nothing is set on it afterwards."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from telegram import LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    BaseUpdateProcessor,
    Defaults,
    TypeHandler,
)

from bot.play.guards.once import Claimed, Seen
from bot.runtime import metrics
from bot.runtime.config import Config
from bot.runtime.doors import Doors
from bot.telegram import errors, presses
from bot.telegram.bot_api_10 import ephemeral_id
from bot.telegram.context import App, Context, Types
from bot.telegram.fairness import CpuBusy, FairUpdates
from bot.telegram.features import chats, community, games, rounds, settings, solo, tournaments
from bot.telegram.features import help as helping  # not the builtin's name
from bot.telegram.intake import Intake
from bot.telegram.jobs import JobScheduler
from bot.telegram.lean_request import LeanRequest
from bot.telegram.over_budget import Notices
from bot.telegram.polling import PollingBot
from bot.telegram.rate_limiter import RateLimiter
from bot.telegram.routes import joined
from bot.telegram.speakers import OWED
from bot.text.i18n import language_of, texts_for

log = logging.getLogger(__name__)

# Every feature, in the order its commands are offered in the menus (the first: /help).
TABLE = joined(helping.FEATURE, games.FEATURE, rounds.FEATURE, solo.FEATURE, settings.FEATURE,
               community.FEATURE, tournaments.FEATURE, chats.FEATURE)
COMMANDS = TABLE.commands
# the commands whose claim is owed (docs/reliability.md, "A reply owed"): those that write
# nothing but their reply, and those that deal, whose round's insert settles the claim; a
# process given one that another died owing answers it (bot.play.guards.once)
OWED_COMMANDS = TABLE.owed

# my_chat_member: the bot removed, banned, blocked or added; chat_member: someone's status in a
# group changed, which Telegram sends to a bot that is an admin there (both only if asked).
# chat_member is news, nobody's request: it drops the membership cache's answer
# (chats.MEMBER_CHANGES, neither claimed nor answered) and draws on a budget of the group's
# news, never on its members' (bot.telegram.over_budget.keys_of): a join raid is refused past
# it and spends nothing of what the group's messages may do.
ALLOWED_UPDATES = [Update.MESSAGE, Update.EDITED_MESSAGE, Update.INLINE_QUERY,
                   Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER, Update.CHAT_MEMBER]
# Replies go on LeanRequest's kept-alive connections (httpx's pool costs more CPU per request
# than the update itself; see lean_request.py). A reply waits for a free one up to POOL_TIMEOUT
# rather than failing, first come first served: so the connections are many enough that what
# one crowd is owed at once (fifty people's inline answers, a group's presses answered) never
# queues another chat's reply behind it. With 8, fifty people's 2,000 inline queries put 200
# answers in front of every group's next reply (p99 4.5x the quiet run's); with 32, none
# (docs/benchmarks.md, "Floods"). Idle ones close after lean_request.KEEPALIVE_SECONDS.
CONNECTIONS = 32
POOL_TIMEOUT = 30.0
BUSY_NOTICE = 3.0  # seconds an update may wait on a busy database before its sender hears so
CONCURRENT_UPDATES = 32  # handled at once, served fairly between chats (fairness.py)
# Every message the bot writes is HTML (bot.text.markup) and links in it are never previewed.
DEFAULTS = Defaults(parse_mode=ParseMode.HTML,
                    link_preview_options=LinkPreviewOptions(is_disabled=True))


class Unpersisted(Application[Any, Any, Any, Any, Any, Any]):
    """PTB's Application for a bot without a PTB persistence (its state is in the stores): PTB
    22.8 marks the chat and user of every update and job for its persistence, in two sets that
    only a persistence's flush empties, so without one they kept every chat and player ever
    seen (10,000 ids a pass of bench/bench_memory.py, never let go)."""

    __slots__ = ()

    def _mark_for_persistence_update(self, *, update: object | None = None,
                                     job: Any = None) -> None:
        # `job` is a PTB Job; its type is not named here (timers are bot.telegram.jobs' alone)
        if self.persistence is not None:
            super()._mark_for_persistence_update(update=update, job=job)


def telegram_bot(config: Config, doors: Doors, gate: Callable[[], None] | None = None,
                 limiter: RateLimiter | None = None) -> PollingBot:
    """The bot's ExtBot: its requests on lean connections, each asking `gate` (the lease's)
    before it goes out; each polled update read on its own and drawn on `doors` (one unreadable
    stops nothing); `limiter` between it and Telegram (RATE_LIMIT; by default the process's
    own rates)."""
    if limiter is None and config.rate_limit:
        limiter = RateLimiter(config.send_rate, config.lookup_rate)
    return PollingBot(
        config.token, doors=doors, base_url=config.base_url,
        base_file_url=config.base_file_url, defaults=DEFAULTS,
        request=LeanRequest(connection_pool_size=CONNECTIONS, pool_timeout=POOL_TIMEOUT,
                            gate=gate),
        get_updates_request=LeanRequest(connection_pool_size=1, gate=gate),
        rate_limiter=limiter)


def fair_updates(config: Config, doors: Doors) -> FairUpdates:
    """The fair update processor: each update drawn on its sender's and its chat's budget
    (`doors`, the Mini App's too), MAX_UPDATES_IN_FLIGHT in hand in all."""
    return FairUpdates(CONCURRENT_UPDATES, bound=config.max_updates_in_flight, doors=doors,
                       refused=Notices().refused, busy=CpuBusy())


def build_application(config: Config, bot: PollingBot, types: Types, scheduler: JobScheduler,
                      processor: BaseUpdateProcessor) -> App:
    """The application over what the root built first: `bot`, the bot data (`types`: PTB makes
    it, bot.telegram.context.made_of), the scheduler's job queue and the update `processor`,
    every handler registered. Its update queue is the intake (`intake_of`): at most
    MAX_UPDATES_IN_FLIGHT updates in hand."""
    application: App = (ApplicationBuilder().application_class(Unpersisted)
                        .context_types(types).bot(bot)
                        .job_queue(scheduler.queue)
                        .update_queue(Intake(config.max_updates_in_flight))
                        .concurrent_updates(processor).build())
    application.add_handler(chats.MEMBER_CHANGES, group=-2)  # unclaimed, unanswered
    application.add_handler(TypeHandler(Update, handle_once), group=-1)
    application.add_handlers(list(TABLE.handlers(presses.unknown)))
    application.add_handler(TypeHandler(Update, settle_once), group=1)  # after every reply
    application.add_error_handler(errors.on_error)
    return application


def intake_of(application: Application[Any, Any, Any, Any, Any, Any]) -> Intake:
    """The application's intake (its update queue, as build_application made it)."""
    intake = application.update_queue
    if not isinstance(intake, Intake):
        raise TypeError("an application built by build_application has an intake")
    return intake


async def handle_once(update: Update, context: Context) -> None:
    """Let an update through the first time only, and only while it is fresh. Telegram sends
    an update again when the bot stopped before confirming it, and a /play, an answer or a
    /hint must not act twice; a message written longer ago than a round lasts (the bot was
    down) is history: a /play from hours ago dealt now would surprise its chat."""
    data = context.bot_data
    if update.effective_user is None or \
            (update.effective_message is not None and update.effective_chat is None):
        raise ApplicationHandlerStop  # nobody speaks (a channel's post, a poll), or nowhere
    if is_stale(update, time.time(), data.longest_round):
        skipped = next(data.stale)
        metrics.record_update_dropped(metrics.STALE)
        if skipped == 1 or skipped % 100 == 0:
            log.info("skipped %d stale updates so far (messages older than a round)", skipped)
        raise ApplicationHandlerStop
    owed = owes_reply(update)
    if not await claimed_soon(update, context, owed):
        metrics.record_update_dropped(metrics.HANDLED_BEFORE)
        log.info("update %d was handled before; skipped", update.update_id)
        await tell(update, context, None)  # a press delivered again: its spinner stops
        raise ApplicationHandlerStop
    if owed:
        OWED.set(update.update_id)


async def settle_once(update: Update, context: Context) -> None:
    """The handlers are done with an owed update (its reply went, or its error's): settled."""
    if OWED.get() == update.update_id:
        OWED.set(None)
        await context.bot_data.services.once.settle(update.update_id)


def owes_reply(update: Update) -> bool:
    """Whether the update is one of OWED_COMMANDS (a new message, not an edit)."""
    text = update.message.text if update.message is not None else None
    if not text or not text.startswith("/") or len(text) < 2:
        return False
    name = text[1:].split(maxsplit=1)[0].partition("@")[0] if not text[1].isspace() else ""
    return name.lower() in OWED_COMMANDS


async def claimed_soon(update: Update, context: Context, owed: bool = False) -> bool:
    """Claim the update (True: the first time); a player whose message waits on a busy
    database hears so within BUSY_NOTICE seconds, and, if it could not be claimed (locked
    through every retry, or the database out of reach), to try again: the update is then not
    handled, or a redelivery could act on it twice."""
    claim = asyncio.ensure_future(context.bot_data.services.once.claim(update.update_id,
                                                                       time.time(), owed))
    told = False
    done, _ = await asyncio.wait({claim}, timeout=BUSY_NOTICE)
    if not done:
        told = await tell(update, context, "db_busy_wait")
    claimed = await claim
    if isinstance(claimed, Claimed | Seen):
        return isinstance(claimed, Claimed)
    metrics.record_update_dropped(metrics.BUSY)
    await tell(update, context, "db_busy_again" if told else "db_busy")
    raise ApplicationHandlerStop


async def tell(update: Update, context: Context, key: str | None) -> bool:
    """A short note to whoever sent the update (a reply, or the press's notice; None: a press
    answered without one, nothing else); whether it went. In the sender's language: the
    chat's own may be beyond reach."""
    user = update.effective_user
    said = texts_for(language_of(user.language_code if user else None))(key) if key else None
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(said[:200] if said else None)
            return True
        if said is not None and update.effective_message is not None:
            message = update.effective_message  # an ephemeral command is not there to quote
            await message.reply_text(said, do_quote=ephemeral_id(message) is None)
            return True
    except TelegramError as error:
        log.info("could not say the database is busy: %s", error)
    return False


def is_stale(update: Update, now: float, within: float) -> bool:
    """Whether the update is a message written more than `within` seconds ago."""
    message = update.message or update.edited_message
    when = message.edit_date or message.date if message is not None else None
    return when is not None and now - when.timestamp() > within
