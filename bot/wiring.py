"""The composition root: every role of the bot (bot.roles) is put together here, in an order that
hands each part what it needs when it is built, so that nothing is set on a built object later:

1. `opening`: the lease first (its gate is in the requests the bot is built with), the bot with
   its rate limiter (a worker's drawing on the budget it shares, opened before), the Bot API
   reached (getMe: the bot's name, whether it reads every group message), the stores (migrations
   applied; a worker's with what the workers share) and the solver pool.
2. `built`: play's services (bot.play.services) over them, with the ports the Telegram face
   implements (its JobQueue as the scheduler, its sending as the publisher); then the Telegram
   application with those services in its bot data (bot.telegram.context.made_of); the Mini
   App's face beside it, which never imports the other face: what it needs of the bot passes
   through here (the page's button under a deal, whether this process leads, who is in a group,
   the fair lane).
3. `begin`: the menus set, the lead taken (`leading`), the rounds resumed.

With PostgreSQL several processes may share the database: the lead is a lease the leader renews
every second or so (bot/store/postgres/leader.py), so a standby has everything built but takes no
update and runs no round until its try takes the lease, and goes on through the resume a restart
runs. A leader whose lease ended sends nothing more (every Bot API request passes the lease's
gate first: bot.telegram.metered_request); it logs one line and exits with status 3. Open rounds
stay in the database across a stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import tornado.routing
import tornado.web

from bot.play.games import PART_GAMES, round_lengths
from bot.play.matches.matches import match_pause
from bot.play.ports import Errand, Handover, Holding
from bot.play.services import Services, build_services
from bot.play.solo.storm_book import SECONDS as STORM_SECONDS
from bot.play.solo.storm_book import SETTING as STORM_SETTING
from bot.runtime import heap, loop_lag
from bot.runtime.config import Config
from bot.runtime.doors import Doors
from bot.runtime.health import LEADER, STANDBY, beat, heartbeat_path
from bot.runtime.lead import Lead
from bot.runtime.pool import SolverPool
from bot.store import (
    Shared,
    leader_lock,
    lost_lead_exit,
    open_shared,
    open_stores,
    worker_lock,
)
from bot.store.outage import Outage
from bot.store.protocols import LeaderLock
from bot.store.stores import Stores
from bot.store.unavailable import DatabaseUnavailable  # what a bad database raises at start-up
from bot.telegram.app import COMMANDS, build_application, fair_updates, telegram_bot
from bot.telegram.bot_api_10 import Refusals
from bot.telegram.context import App, made_of
from bot.telegram.fairness import submit_as
from bot.telegram.jobs import JobScheduler, start_housekeeping
from bot.telegram.lifecycle import stop_application
from bot.telegram.members import ChatMembers
from bot.telegram.menus import Menus, publish_menus
from bot.telegram.polling import PollingBot
from bot.telegram.rate_limiter import RateLimiter
from bot.telegram.sending import TelegramPublisher
from bot.telegram.startup import reach_telegram
from bot.telegram.webhook import unless_stopped
from bot.webapp.page_server import PageServer
from bot.webapp.server import Face, serve, webapp_routes
from bot.webapp.settings import WebappSettings
from bot.webapp.tickets import opener, page_opener
from solver.native import STATUS as NATIVE_STATUS

__all__ = ["Bot", "DatabaseUnavailable", "Opened", "begin", "built", "opening", "running"]
log = logging.getLogger(__name__)
PRIVACY_NOTE = (
    "privacy mode is on (getMe: can_read_all_group_messages is false): in groups the bot sees "
    "only commands and replies to its messages, so players answer with /a or by replying to "
    "the deal. To let them just type answers: in @BotFather send /setprivacy, choose this bot, "
    "pick Disable, then remove the bot from each group and add it again.")
# routes to mount beside the server's own: (pattern, handler class, its arguments), or
# tornado's Rule (the Mini App's API endpoints are targets of their own: bot.webapp.api)
Routes = list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]] | tornado.routing.Rule]
T = TypeVar("T")


@dataclass(frozen=True)
class Opened:
    """What a bot process opens before it builds anything over it (closed in reverse at the
    end of `opening`)."""

    lease: LeaderLock
    lead: Lead  # whether this process plays now, by that lease
    doors: Doors  # one budget per person and per chat, for every door of this process
    telegram: PollingBot  # the bot, the Bot API reached
    stores: Stores
    pool: SolverPool
    shared: Shared | None  # a cluster worker's: what the workers share through PostgreSQL


@dataclass(frozen=True)
class Bot:
    """One bot process, built: its Telegram application over play's services, the Mini App's
    face beside it, and what was opened for them."""

    config: Config
    opened: Opened
    services: Services
    application: App
    face: Face
    menus: Menus
    page_port: int | None  # where the Mini App's own server listens (None: none here)

    @property
    def stores(self) -> Stores:
        return self.opened.stores

    @property
    def lead(self) -> Lead:
        return self.opened.lead

    @property
    def pool(self) -> SolverPool:
        return self.opened.pool

    def page_routes(self, webapp: WebappSettings | None) -> Routes:
        """The Mini App's routes, for the webhook's server to mount (none without WEBAPP_URL)."""
        return [*webapp_routes(self.face)] if webapp is not None else []


class Partitions:
    """play's Holding port for a worker: the chats of the partitions its Ownership owns
    (`owns`, asked of it) while its lease holds (`leading`), and a move to a supergroup
    another worker plays or a tournament's errand to a chat another worker plays, queued for
    the worker's feed to carry through the stream (bot.roles: `carry_handovers`,
    `carry_errands`)."""

    def __init__(self, count: int, owns: Callable[[int], bool],
                 leading: Callable[[], bool]) -> None:
        from bot.cluster.partitions import partition_of  # pure: no broker's client
        self.count = count
        self.owns = owns
        self.leading = leading
        self.partition_of = partition_of
        self.handovers: asyncio.Queue[Handover] = asyncio.Queue()  # the moves in flight
        self.errands: asyncio.Queue[Errand] = asyncio.Queue()  # tournaments' errands in flight

    def acts_on(self, partition: int) -> bool:
        return self.owns(partition) and self.leading()

    def holds(self, chat_id: int) -> bool:
        return self.acts_on(self.partition_of(chat_id, self.count))

    async def hand_over(self, moved: Handover) -> None:
        self.handovers.put_nowait(moved)

    async def carry(self, errand: Errand) -> None:
        self.errands.put_nowait(errand)


async def until_stopped(work: Awaitable[T], stop: asyncio.Event) -> T | None:
    """What `work` gives, or None once `stop` is set first (the work cancelled: a start-up cut
    short, what it opened closed by its own `async with`)."""
    task = asyncio.ensure_future(work)
    if not await unless_stopped(task, stop):
        return None
    return task.result()


# --- 1. what is opened first ---------------------------------------------------------------

def check_settings(config: Config) -> None:
    """What play reads of the settings that only play can check — each game's round length
    (`<GAME>_SECONDS`) — checked at start-up with the rest (ConfigError names a bad one)."""
    round_lengths(config)


def lost(pool: SolverPool | None, why: str) -> None:
    """A lost lease ends the process at once, before another task can send or write
    (bot.store.postgres.leader.exit_now); its solver workers are stopped first (`pool`, when
    this process started it), so that nothing of the pool outlives it."""
    if pool is not None:
        pool.stop_now()
    lost_lead_exit(why)


def lease_of(config: Config, worker: bool, on_lost: Callable[[str], None]) -> LeaderLock:
    """The one process's lease on the lead (SQLite's is always its own), or a worker's own."""
    if worker:
        return worker_lock(config.database_url or "", config.partitions,
                           config.worker_lease_seconds, on_lost)
    return leader_lock(config.database_url, config.lead_check, config.lease_seconds, on_lost)


async def stores_of(config: Config, lease: LeaderLock, worker: bool
                    ) -> tuple[Stores, Shared | None]:
    """The stores (a database that cannot be opened raises DatabaseUnavailable, with nothing
    of it left open); a worker's with what the workers share."""
    if worker:
        shared = await open_shared(config.database_url or "", lease, PART_GAMES)
        return shared.stores, shared
    return await open_stores(config.database_path, config.database_url, lease), None


@contextlib.asynccontextmanager
async def opening(config: Config, pool: SolverPool | None = None,
                  limiter: RateLimiter | None = None, worker: bool = False
                  ) -> AsyncIterator[Opened]:
    """The lease, the bot (`limiter` between it and Telegram: RATE_LIMIT's own by default)
    with the Bot API reached (for STARTUP_SECONDS: bot.telegram.startup), the stores and the
    pool (`pool`: one the caller keeps; else this process's own, stopped at the end); closed
    in reverse at the end, the lease last: a standby takes over after this one's last write."""
    own = pool is None
    solver = SolverPool(config.solver_workers) if pool is None else pool
    lease = lease_of(config, worker, functools.partial(lost, solver if own else None))
    doors = config.doors()
    telegram = telegram_bot(config, doors, lease.check, limiter)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(lease.close)
        stack.push_async_callback(telegram.shutdown)
        await reach_telegram(telegram, config.startup_seconds, config.base_url)
        stores, shared = await stores_of(config, lease, worker)
        stack.push_async_callback(stores.close)
        if own:
            stack.callback(solver.shutdown)
        await solver.warm_up()
        log.info("solver: native core %s", NATIVE_STATUS)
        yield Opened(lease, Lead(lease.check), doors, telegram, stores, solver, shared)


# --- 2. what is built over it --------------------------------------------------------------

def play_of(config: Config, opened: Opened, scheduler: JobScheduler, refusals: Refusals,
            webapp: WebappSettings | None, holding: Holding | None) -> Services:
    """Play's services over what was opened, with the Telegram face's ports: its scheduler,
    and its publisher on the bot (with the Mini App's button under a deal, where it serves)."""
    telegram, shared = opened.telegram, opened.shared
    reads_all = bool(telegram.can_read_all_group_messages)
    if not reads_all:
        log.warning(PRIVACY_NOTE)
    pages = opener(webapp, telegram.username) if webapp else None
    return build_services(
        opened.stores, opened.pool, scheduler,
        TelegramPublisher(telegram, pages, refusals, config.paid_broadcast),
        seconds=round_lengths(config), deal_seconds=config.deal_seconds,
        solve_timeout=config.solve_timeout, pause=match_pause(config.round_seconds),
        reads_group_messages=reads_all, secret=config.token,
        page_links=page_opener(webapp, telegram.username) if webapp else None,
        open_rounds=shared.open_rounds if shared else None, shared_names=shared is not None,
        holding=holding, deal_rate=config.deal_rate, tournament_pause=config.tournament_pause,
        tournament_followers=config.tournament_followers,
        storm_seconds=config.round_length(STORM_SETTING, STORM_SECONDS))


def everywhere() -> bool:
    """The one process runs every housekeeping job."""
    return True


@contextlib.asynccontextmanager
async def built(config: Config, opened: Opened, webapp: WebappSettings | None = None, *,
                holding: Holding | None = None, sole: Callable[[], bool] = everywhere,
                page: bool = True) -> AsyncIterator[Bot]:
    """Play's services, then the application with them (initialized, not started: the
    housekeeping's jobs run from its start; `sole`: whether this process runs the housekeeping
    that spans the database), and the Mini App's face; with `webapp` and `page`, the page on a
    server of its own (else the webhook's server mounts it, or a worker answers it relayed).
    Stopped and shut down at the end."""
    scheduler, members, refusals = JobScheduler(), ChatMembers(), Refusals()
    services = play_of(config, opened, scheduler, refusals, webapp, holding)
    menus, fair = Menus(COMMANDS), fair_updates(config, opened.doors)
    application = build_application(
        config, opened.telegram, made_of(config, services, opened.lead, members, refusals, menus),
        scheduler, fair)
    face = Face(services, config.token, opened.lead.leading,
                functools.partial(members.belongs, opened.telegram),
                functools.partial(submit_as, fair), doors=opened.doors)
    async with contextlib.AsyncExitStack() as stack:
        await application.initialize()
        # at the end, in reverse: the application stops (no round closes after it), then the
        # hands' themes waiting are written while the pool still runs
        stack.push_async_callback(services.hand_themes.close)
        stack.push_async_callback(stop_application, application)
        start_housekeeping(application, heartbeat_path(config.database_path), sole)
        port = None
        if webapp is not None and page:
            server, port = await serve(face, webapp.port, webapp.listen)
            stack.push_async_callback(closed, server)
            log.info("Mini App page on %s:%d/webapp/", webapp.listen, port)
        yield Bot(config, opened, services, application, face, menus, port)


async def closed(server: PageServer) -> None:
    """A server stopped, its connections closed."""
    server.stop()
    await server.close_all_connections()


# --- 3. the lead, and the start ------------------------------------------------------------

async def take_lead(lease: LeaderLock, lead: Lead, config: Config) -> None:
    """Return once this process leads. A standby tries every `lead_check` seconds (or at the
    lease's end, when that comes sooner) and writes its heartbeat as a standby after each
    answer of the database; an unreachable database is said once a minute."""
    heartbeat = heartbeat_path(config.database_path)
    waited = said = False
    outage = Outage(log, "a standby's try for the lead")
    while True:
        try:
            if await lease.acquire():
                break
            outage.recovered()
            beat(heartbeat, STANDBY)
            if not said:
                log.info("standby: another process leads; trying every %g s", config.lead_check)
                said = True
        except Exception as error:  # the database is out of reach: no beat, try again
            outage.failed(error)
        waited = True
        await asyncio.sleep(min(config.lead_check, lease.next_try) or config.lead_check)
    lead.took()
    beat(heartbeat, LEADER)
    if waited:
        log.info("took the lead: resuming the rounds and matches, then taking updates")


async def watch_lead(lease: LeaderLock, lead: Lead, stop: Callable[[], None]) -> None:
    """Renew the lease; stop the process (`stop`) when the lead is lost (by default the lease
    itself has exited by then: bot.store.postgres.leader.exit_now): a standby may take over at
    any moment, and two leaders would play the same rounds twice."""
    try:
        await lease.lost()
    except Exception:  # the lead cannot be confirmed: stop all the same
        log.exception("the leader's lease failed")
    lead.ended()
    log.error("lost the lead (its lease ended): stopping; a standby takes over")
    stop()


@contextlib.asynccontextmanager
async def leading(opened: Opened, config: Config, stop: Callable[[], None]
                  ) -> AsyncIterator[None]:
    """The lead taken (a standby waits here), and renewed while inside (`watch_lead`)."""
    await take_lead(opened.lease, opened.lead, config)
    watch = asyncio.create_task(watch_lead(opened.lease, opened.lead, stop))
    try:
        yield
    finally:
        watch.cancel()


async def started(bot: Bot, stack: contextlib.AsyncExitStack, stop: asyncio.Event,
                  resume: bool = True) -> None:
    """The lead taken and held while `stack` is open, the menus set if they changed (by the
    leader alone: a standby waiting for the lead sends nothing), and, with `resume`, what a
    stop left resumed (a worker's chats come with its partitions: bot.roles)."""
    await stack.enter_async_context(leading(bot.opened, bot.config, stop.set))
    await publish_menus(bot.menus, bot.application.bot, bot.stores.menus, time.time())
    await stack.enter_async_context(loop_lag.watching())
    if resume:
        await bot.services.recovery.resume()
    log.info("start-up done: %d objects kept out of later collections", heap.settle_once())


async def begin(bot: Bot, stack: contextlib.AsyncExitStack, stop: asyncio.Event) -> bool:
    """`started`, unless `stop` is set first (a standby stopped while it waits): False then."""
    return await unless_stopped(started(bot, stack, stop), stop)


@contextlib.asynccontextmanager
async def running(config: Config, pool: SolverPool | None = None,
                  webapp: WebappSettings | None = None) -> AsyncIterator[Bot]:
    """One bot process in this event loop, started as `python -m bot` starts it but fed by
    whoever holds it (the tests, the demo, the benchmarks): opened, built (the Mini App's page
    on a server of its own with `webapp`), begun, the application started; everything stopped
    and closed in order at the end."""
    stop = asyncio.Event()  # set by a lost lead; whoever holds the bot stops it
    async with contextlib.AsyncExitStack() as stack:
        opened = await stack.enter_async_context(opening(config, pool))
        bot = await stack.enter_async_context(built(config, opened, webapp))
        await started(bot, stack, stop)
        await bot.application.start()
        yield bot
