"""The application: one table of every handler, the defaults of every message and the update-once
gate. What it opens at start-up and closes at the end is the composition root's (bot.wiring),
handed in as `opening` and `closing`."""

from __future__ import annotations

import asyncio
import logging
import time
import warnings
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from typing import Any, Protocol

from telegram import LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.error import RetryAfter, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    BaseRateLimiter,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    Defaults,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.play.guards.once import Claimed, Seen
from bot.runtime import metrics
from bot.runtime.config import LOOKUP_RATE, Config
from bot.runtime.doors import Doors
from bot.runtime.send_budget import ChatShares, LocalBudget, is_lookup
from bot.telegram import buttons, community, handlers, tournaments
from bot.telegram.bot_api_10 import ephemeral_id
from bot.telegram.context import CONTEXT_TYPES, App, Context
from bot.telegram.fairness import FairUpdates
from bot.telegram.intake import Intake
from bot.telegram.lean_request import LeanRequest
from bot.telegram.over_budget import Notices
from bot.telegram.polling import PollingBot
from bot.telegram.speakers import OWED
from bot.text.i18n import language_of, texts_for

log = logging.getLogger(__name__)

# Commands whose handling writes nothing but their reply: their claim is owed until the reply
# went, and a process given one that another died owing answers it (bot.play.guards.once)
# the commands whose claim is owed (docs/reliability.md, "A reply owed"): those that write
# nothing but their reply, and those that deal, whose round's insert settles the claim
OWED_COMMANDS = frozenset({"help", "solve", "stats", "top", "privacy",
                           "play", "countdown", "yahtzee"})

# (commands, handler); each command's menu line is "cmd_<first name>" in bot/text/locales
COMMANDS = [
    (("help",), handlers.help_command),
    (("play",), handlers.play),
    (("answer", "a"), handlers.answer),
    (("hint",), handlers.hint),
    (("reveal", "giveup"), handlers.reveal),
    (("pass",), handlers.pass_round),
    (("solve",), handlers.solve),
    (("countdown",), handlers.countdown),
    (("yahtzee",), handlers.yahtzee),
    (("match",), handlers.match),
    (("lang",), handlers.lang),
    (("settings",), handlers.settings),
    *community.COMMANDS,
    *tournaments.COMMANDS,
]

# my_chat_member: the bot removed, banned, blocked or added; chat_member: someone's status in a
# group changed, which Telegram sends to a bot that is an admin there (both only if asked).
# chat_member is news, nobody's request: it drops the membership cache's answer
# (handlers.MEMBER_CHANGES, neither claimed nor answered) and draws on a budget of the group's
# news, never on its members' (bot.telegram.over_budget.keys_of): a join raid is refused past
# it and spends nothing of what the group's messages may do.
ALLOWED_UPDATES = [Update.MESSAGE, Update.EDITED_MESSAGE, Update.INLINE_QUERY,
                   Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER, Update.CHAT_MEMBER]
# Replies go on LeanRequest's kept-alive connections (httpx's pool costs more CPU per request
# than the update itself; see lean_request.py). 8 connections carry far more than Telegram's 30
# messages a second; a reply waits for a free one up to POOL_TIMEOUT rather than failing.
CONNECTIONS = 8
POOL_TIMEOUT = 30.0
BUSY_NOTICE = 3.0  # seconds an update may wait on a busy database before its sender hears so
CONCURRENT_UPDATES = 32  # handled at once, served fairly between chats (fairness.py)
# Every message the bot writes is HTML (bot.text.markup) and links in it are never previewed.
DEFAULTS = Defaults(parse_mode=ParseMode.HTML,
                    link_preview_options=LinkPreviewOptions(is_disabled=True))


Hook = Callable[[App], Coroutine[Any, Any, None]]


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


def build_application(config: Config, opening: Hook | None = None,
                      closing: Hook | None = None, doors: Doors | None = None) -> App:
    """The bot with every handler registered; `opening` (post_init) opens what the handlers
    need and fills the bot data, `closing` (post_shutdown) closes it. Its update queue is the
    intake (`intake_of`): at most MAX_UPDATES_IN_FLIGHT updates in hand; each update draws on
    its sender's and its chat's budget first (`doors`, shared with the Mini App's face; its own
    when none is given)."""
    doors = doors or Doors(config.person_budget, config.chat_budget)
    bot = PollingBot(  # reads each polled update on its own: one unreadable stops nothing
        config.token, doors=doors, base_url=config.base_url,
        base_file_url=config.base_file_url, defaults=DEFAULTS,
        request=LeanRequest(connection_pool_size=CONNECTIONS, pool_timeout=POOL_TIMEOUT),
        get_updates_request=LeanRequest(connection_pool_size=1),
        rate_limiter=RateLimiter(config.send_rate, config.lookup_rate)
        if config.rate_limit else None)
    bound = config.max_updates_in_flight
    fair = FairUpdates(CONCURRENT_UPDATES, bound=bound, doors=doors, refused=Notices().refused)
    builder = (ApplicationBuilder().application_class(Unpersisted)
               .context_types(CONTEXT_TYPES).bot(bot)
               .update_queue(Intake(bound))
               .concurrent_updates(fair))
    if opening is not None:
        builder = builder.post_init(opening)
    if closing is not None:
        builder = builder.post_shutdown(closing)
    application: App = builder.build()
    application.bot_data.config = config
    application.add_handler(handlers.MEMBER_CHANGES, group=-2)  # unclaimed, unanswered
    application.add_handler(TypeHandler(Update, handle_once), group=-1)
    application.add_handlers(tournaments.LINKS)  # /start t_CODE: ahead of /start itself
    for names, callback in COMMANDS:
        application.add_handler(CommandHandler(list(names), callback))
    # a person's messages only (and their edits): never a channel's post, a business account's
    # chat or a guest's message, which are nobody's answer in the chat they name
    application.add_handler(MessageHandler(filters.UpdateType.MESSAGE
                                           & filters.StatusUpdate.MIGRATE, handlers.migrate))
    application.add_handler(ChatMemberHandler(handlers.member_status,
                                              ChatMemberHandler.MY_CHAT_MEMBER))
    application.add_handler(MessageHandler(filters.UpdateType.MESSAGES & filters.TEXT
                                           & ~filters.COMMAND, handlers.plain_text))
    application.add_handler(InlineQueryHandler(handlers.inline_query))
    for pattern, pressed in community.PRESSES:
        application.add_handler(CallbackQueryHandler(pressed, pattern=pattern))
    application.add_handler(CallbackQueryHandler(buttons.button))
    application.add_handler(TypeHandler(Update, settle_once), group=1)  # after every reply
    application.add_error_handler(handlers.on_error)
    return application


def intake_of(application: Application[Any, Any, Any, Any, Any, Any]) -> Intake:
    """The application's intake (its update queue, as build_application made it)."""
    intake = application.update_queue
    if not isinstance(intake, Intake):
        raise TypeError("an application built by build_application has an intake")
    return intake


class Budget(Protocol):
    """The bot's overall send budget: the process's own (bot.runtime.send_budget), or one
    shared with other processes (a cluster's workers: bot/cluster/budget.py)."""

    def take(self) -> Awaitable[object]: ...

    def pause(self, seconds: float) -> Awaitable[None]: ...


class RateLimiter(BaseRateLimiter[int]):
    """Telegram's limits on sending, kept as sliding windows (bot.runtime.send_budget): every
    Bot API call that names a chat and changes something — a message, an edit, a reaction, a
    chat action — waits for its chat's own share (20 a minute in a group, about one a second in
    a private chat), then for the overall rate (SEND_RATE a second: the process's own budget,
    or from `share`, one kept with other workers). A look-up (getChatMember, any read that
    names a chat: `is_lookup`) is no message: it waits for the look-ups' own rate alone
    (LOOKUP_RATE a second, this process's), so members opening the Mini App never hold their
    group's deal back. A 429 pauses the budget of what it refused — the messages' for every
    message (and, shared, for every worker), the look-ups' for every look-up — and the call is
    tried again after its wait, up to RETRIES times. A chat's calls go in the order asked."""

    RETRIES = 5

    def __init__(self, send_rate: int, lookup_rate: int = LOOKUP_RATE) -> None:
        self.budget: Budget = LocalBudget(send_rate)
        self.chats = ChatShares()
        self.lookups: Budget = LocalBudget(lookup_rate)

    def share(self, budget: Budget) -> None:
        """Draw the overall rate from `budget` from now on (before the bot sends anything)."""
        self.budget = budget

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def process_request(self, callback: Callable[..., Coroutine[Any, Any, Any]],
                              args: Any, kwargs: dict[str, Any], endpoint: str,
                              data: dict[str, Any], rate_limit_args: int | None) -> Any:
        chat = data.get("chat_id")
        lookup = is_lookup(endpoint)
        retries = self.RETRIES if rate_limit_args is None else rate_limit_args
        for attempt in range(retries + 1):
            if chat is not None:  # what Telegram's limits count
                await self.turn(chat, lookup)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as error:
                seconds = retry_seconds(error)
                if attempt == retries:
                    log.error("%s: Telegram still said too many requests after %d tries",
                              endpoint, retries + 1)
                    raise
                log.info("%s: Telegram said too many requests; trying again in %.1f s",
                         endpoint, seconds)
                # every call of its kind (a message, a look-up) to a chat waits it out
                await (self.lookups if lookup else self.budget).pause(seconds)
                if chat is None:
                    await asyncio.sleep(seconds)
        raise AssertionError("unreachable: the last try returns or raises")

    async def turn(self, chat: int | str, lookup: bool) -> None:
        """Wait until a call to `chat` may go: a look-up in the look-ups' rate alone, anything
        else in the chat's share, then in the overall rate."""
        if lookup:
            await self.lookups.take()
            return
        await self.chats.take(chat)
        await self.budget.take()


def retry_seconds(error: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB 22 warns that the whole-seconds form will go
        warnings.simplefilter("ignore")
        retry = error.retry_after
    return retry.total_seconds() if isinstance(retry, timedelta) else float(retry)


async def handle_once(update: Update, context: Context) -> None:
    """Let an update through the first time only, and only while it is fresh. Telegram sends
    an update again when the bot stopped before confirming it, and a /play, an answer or a
    /hint must not act twice; a message written longer ago than a round lasts (the bot was
    down) is history: a /play from hours ago dealt now would surprise its chat."""
    data = context.bot_data
    if update.effective_user is None or \
            (update.effective_message is not None and update.effective_chat is None):
        raise ApplicationHandlerStop  # nobody speaks (a channel's post, a poll), or nowhere
    if is_stale(update, time.time(), max(data.settings.seconds.values())):
        data.stale_skipped += 1
        metrics.record_update_dropped(metrics.STALE)
        if data.stale_skipped == 1 or data.stale_skipped % 100 == 0:
            log.info("skipped %d stale updates so far (messages older than a round)",
                     data.stale_skipped)
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
