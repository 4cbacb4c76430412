"""The composition root: one bot process put together. It opens the stores (migrations applied),
the solver pool and the leader's lease, builds the game services (bot.play.services) with the
ports the Telegram face implements (its JobQueue as the scheduler, its sending as the publisher),
and mounts the faces side by side — the Telegram application and, when WEBAPP_URL is set, the
Mini App's page — which never import each other: what one needs of the other passes through here
(the page's button under a deal; whether this process leads; who is in a group; the fair lane).

With PostgreSQL several processes may share the database: opening then waits for the lead
(`take_lead`), so a standby has everything open but takes no update and runs no round. The lead
is a lease the leader renews every second or so (bot/store/postgres/leader.py); when the leader
dies or freezes, its lease runs out, a standby's next try takes it, and it goes on through the
resume a restart runs. A leader whose lease ended sends nothing more: every Bot API request passes
the lease's gate first (bot.telegram.metered_request.guard); it logs one line and exits with
status 3. Open rounds stay in the database across a stop.

Past one process (bot/cluster, docs/scaling.md) it puts the roles together: the ingress
(`serve_ingress`: the webhook's checks, the broker, the webhook registered with Telegram), the
worker (`serve_worker`: this bot, leading as above, fed from the broker's partitions instead of
polling or a webhook) and the Mini App (`serve_webapp`: the page, its requests relayed to the
workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import tornado.httpserver
import tornado.web

from bot.cluster.unreachable import BrokerUnreachable  # what a broker out of reach raises
from bot.play.matches.matches import match_pause
from bot.play.ports import Errand, Handover
from bot.play.services import Services, build_services
from bot.runtime import heap, metrics
from bot.runtime.config import Config
from bot.runtime.health import LEADER, STANDBY, beat, heartbeat_path
from bot.runtime.pool import SolverPool
from bot.store import (
    leader_lock,
    lost_lead_exit,
    open_stores,
    partition_owners,
    shared_rounds,
    worker_lock,
)
from bot.store.outage import Outage
from bot.store.protocols import LeaderLock
from bot.store.stores import Stores
from bot.store.unavailable import DatabaseUnavailable  # what a bad database raises at start-up
from bot.telegram import menus, webhook
from bot.telegram.app import ALLOWED_UPDATES, COMMANDS, RateLimiter, build_application
from bot.telegram.context import App
from bot.telegram.fairness import submit_as
from bot.telegram.jobs import JobScheduler, start_housekeeping
from bot.telegram.lifecycle import stop_application
from bot.telegram.metered_request import guard
from bot.telegram.sending import TelegramPublisher
from bot.telegram.startup import reach_telegram
from bot.webapp.server import Face, opener, page_opener, serve, webapp_routes
from bot.webapp.settings import WebappSettings, read_settings
from solver.native import STATUS as NATIVE_STATUS

__all__ = ["Bot", "BrokerUnreachable", "DatabaseUnavailable", "build_bot", "serve_ingress",
           "serve_worker", "stop_application"]
log = logging.getLogger(__name__)
PRIVACY_NOTE = (
    "privacy mode is on (getMe: can_read_all_group_messages is false): in groups the bot sees "
    "only commands and replies to its messages, so players answer with /a or by replying to "
    "the deal. To let them just type answers: in @BotFather send /setprivacy, choose this bot, "
    "pick Disable, then remove the bot from each group and add it again.")
Routes = list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]]]


class Partitions:
    """play's Holding port for a worker: the chats of the partitions it owns while its lease
    holds (`owned`, the set its Ownership keeps), and a move to a supergroup another worker plays
    or a tournament's errand to a chat another worker plays, queued for the worker's feed to
    carry through the stream (`carry_handovers`, `carry_errands`)."""

    def __init__(self, count: int, owned: set[int], leading: Callable[[], bool]) -> None:
        from bot.cluster.partitions import partition_of  # pure: no broker's client
        self.count = count
        self.owned = owned
        self.leading = leading
        self.partition_of = partition_of
        self.handovers: asyncio.Queue[Handover] = asyncio.Queue()  # the moves in flight
        self.errands: asyncio.Queue[Errand] = asyncio.Queue()  # tournaments' errands in flight

    def acts_on(self, partition: int) -> bool:
        return partition in self.owned and self.leading()

    def holds(self, chat_id: int) -> bool:
        return self.acts_on(self.partition_of(chat_id, self.count))

    async def hand_over(self, moved: Handover) -> None:
        self.handovers.put_nowait(moved)

    async def carry(self, errand: Errand) -> None:
        self.errands.put_nowait(errand)


async def carry_handovers(handovers: asyncio.Queue[Handover],
                          announce: Callable[[int, str, bytes], Awaitable[None]]) -> None:
    """Each move handed over, announced in the stream to the supergroup's owner (until
    cancelled); the broker out of reach is tried again, a second apart, until it answers."""
    while True:
        moved = await handovers.get()
        await carry(announce, moved.new_id, "moved", moved)


async def carry_errands(errands: asyncio.Queue[Errand],
                        announce: Callable[[int, str, bytes], Awaitable[None]]) -> None:
    """Each tournament's errand, announced in the stream to its chat's owner, in the order
    (and at the pace) the schedule sent them (until cancelled)."""
    while True:
        errand = await errands.get()
        await carry(announce, errand.chat_id, "tournament", errand)


async def carry(announce: Callable[[int, str, bytes], Awaitable[None]], chat_id: int, kind: str,
                notice: Handover | Errand) -> None:
    """A notice published to the chat's partition; the broker out of reach is tried again, a
    second apart, until it answers (the stream dedupes a notice sent twice)."""
    body = json.dumps(dataclasses.asdict(notice), sort_keys=True).encode()
    while True:
        try:
            await announce(chat_id, kind, body)
            return
        except Exception as error:
            log.warning("a %s notice could not be published (%s: %s); trying again", kind,
                        type(error).__name__, error)
            await asyncio.sleep(1.0)


async def noticed(services: Services, body: bytes) -> None:
    """Another worker's notice for a chat this one plays: a group moved here, or a
    tournament's errand (its deal, its board)."""
    said = json.loads(body)
    if "tournament_id" in said:
        await services.tournaments.errand(Errand(**said))
    else:
        await services.places.take_moved(Handover(**said))


class Bot:
    """One bot process: its Telegram application (`application`) and what the root opened for
    it — stores, pool, lease, the page's face and server."""

    def __init__(self, config: Config, pool: SolverPool | None = None,
                 webapp: WebappSettings | None = None, worker: bool = False) -> None:
        self.config = config
        self.worker = worker  # a cluster worker: its own lease, the partitions it owns
        self.webapp = webapp
        self.application: App = build_application(config, self.open, self.close)
        self.application.bot_data.config = config
        self.pool = pool  # tests may hand one pool to many bots
        self.own_pool = pool is None  # this bot started its pool, so it shuts it down
        self._stores: Stores | None = None
        self.leader: LeaderLock | None = None
        self.waiting: asyncio.Task[None] | None = None  # waiting for the lead: a stop cancels
        self.lead_watch: asyncio.Task[None] | None = None
        self.page_server: tornado.httpserver.HTTPServer | None = None
        self.page_port: int | None = None  # where page_server listens (WEBAPP_PORT 0: any)
        # a worker plays its partitions' chats only: those its Ownership keeps in `owned`
        # (serve_worker), while its lease holds
        self.owned: set[int] = set()
        self.holding = Partitions(config.partitions, self.owned, self.leading_now) \
            if worker else None
        self.face = Face(lambda: self.services, config.token, self.leading,
                         functools.partial(self._belongs), self._submit)

    @property
    def services(self) -> Services:
        return self.application.bot_data.services

    @property
    def stores(self) -> Stores:
        if self._stores is None:
            raise RuntimeError("the stores open in post_init")
        return self._stores

    def leading(self) -> bool:
        return self.application.bot_data.role == LEADER

    def sole(self) -> bool:
        """Whether this process runs the housekeeping that spans the database: the one
        process, or of many workers the owner of partition 0 (one worker at a time)."""
        return not self.worker or 0 in self.owned

    def leading_now(self) -> bool:
        """Leading, and the lease still fresh by the clock (a worker acts on an update only
        then; one whose lease ended is on its way out)."""
        check = self.application.bot_data.lease_check
        if not self.leading():
            return False
        try:
            if check is not None:
                check()
        except Exception:
            return False
        return True

    async def _belongs(self, chat_id: int, user_id: int) -> bool | None:
        bot_data = self.application.bot_data
        return await bot_data.members.belongs(self.application.bot, chat_id, user_id)

    async def _submit(self, user_id: int, work: Any) -> None:
        await submit_as(self.application, user_id, work)

    def page_routes(self) -> Routes:
        """The Mini App's routes, for the webhook's server to mount (none without WEBAPP_URL)."""
        return webapp_routes(self.face) if self.webapp is not None else []

    # --- start-up ----------------------------------------------------------------------------

    async def open(self, application: App) -> None:
        """post_init: open everything, set the menus, wait for the lead, resume what a stop
        left. A database that cannot be opened raises DatabaseUnavailable, with nothing left
        open."""
        await self.open_services()
        await menus.set_menus(application.bot, [names for names, _ in COMMANDS])
        await self.take_lead()
        if not self.worker:  # a worker takes its chats up with its partitions (serve_worker)
            await self.services.recovery.resume()
        log.info("start-up done: %d objects kept out of later collections", heap.settle())

    async def open_services(self) -> None:
        """Open the stores (migrations applied), start the pool, build the services and mount
        the Mini App's page."""
        application, config = self.application, self.config
        data = application.bot_data
        self.leader = worker_lock(config.database_url or "", config.partitions,
                                  config.worker_lease_seconds, self.lost) if self.worker else \
            leader_lock(config.database_url, config.lead_check, config.lease_seconds,
                        self.lost)
        guard(application.bot, self.leader.check)
        data.lease_check = self.leader.check
        self._stores = await open_stores(config.database_path, config.database_url,
                                         self.leader)
        if self.pool is None:
            self.pool = SolverPool(config.solver_workers)
        await self.pool.warm_up()
        log.info("solver: native core %s", NATIVE_STATUS)
        reads_all = bool(application.bot.can_read_all_group_messages)
        if not reads_all:
            log.warning(PRIVACY_NOTE)
        pages = opener(self.webapp, application.bot.username) if self.webapp else None
        data.services = build_services(
            self._stores, self.pool, JobScheduler(application.job_queue),
            TelegramPublisher(application.bot, pages, data.refusals, config.paid_broadcast),
            seconds=config.seconds,
            deal_seconds=config.deal_seconds, solve_timeout=config.solve_timeout,
            pause=match_pause(config.round_seconds), reads_group_messages=reads_all,
            secret=config.token,
            page_links=page_opener(self.webapp, application.bot.username) if self.webapp
            else None, open_rounds=shared_rounds(self._stores) if self.worker else None,
            shared_names=self.worker, holding=self.holding, deal_rate=config.deal_rate,
            tournament_pause=config.tournament_pause)
        data.role = STANDBY
        metrics.set_leader(False)
        start_housekeeping(application, heartbeat_path(config.database_path), self.sole)
        # else the webhook's server, or a worker's: the Mini App role's, relayed (serve_webapp)
        if self.webapp is not None and not config.webhook_url and not self.worker:
            self.page_server, self.page_port = serve(self.face, self.webapp.port,
                                                     self.webapp.listen)
            log.info("Mini App page on %s:%d/webapp/", self.webapp.listen, self.page_port)

    def lost(self, why: str) -> None:
        """A lost lease ends the process at once, before another task can send or write
        (bot.store.postgres.leader.exit_now); its solver workers are stopped first, so that
        nothing of the pool outlives it (their semaphores, else reported leaked)."""
        if self.pool is not None and self.own_pool:
            self.pool.stop_now()
        lost_lead_exit(why)

    async def take_lead(self) -> None:
        """Return once this process leads. A standby tries every `lead_check` seconds (or at
        the lease's end, when that comes sooner) and writes its heartbeat as a standby after
        each answer of the database; an unreachable database is said once a minute. The leader
        renews its lease from then on (`watch_lead`)."""
        data, config, lock = self.application.bot_data, self.config, self.leader
        assert lock is not None, "open_services sets the leader's lease"
        heartbeat = heartbeat_path(config.database_path)
        self.waiting = asyncio.current_task()  # cancelled by a stop meanwhile
        waited = said = False
        outage = Outage(log, "a standby's try for the lead")
        try:
            while True:
                try:
                    if await lock.acquire():
                        break
                    outage.recovered()
                    beat(heartbeat, STANDBY)
                    if not said:
                        log.info("standby: another process leads; trying every %g s",
                                 config.lead_check)
                        said = True
                except Exception as error:  # the database is out of reach: no beat, try again
                    outage.failed(error)
                waited = True
                await asyncio.sleep(min(config.lead_check, lock.next_try) or config.lead_check)
        finally:
            self.waiting = None
        data.role = LEADER
        metrics.set_leader(True)
        beat(heartbeat, LEADER)
        if waited:
            log.info("took the lead: resuming the rounds and matches, then taking updates")
        self.lead_watch = asyncio.create_task(self.watch_lead())

    async def watch_lead(self) -> None:
        """Renew the lease; stop the bot when the lead is lost (by default the lease itself has
        exited by then: bot.store.postgres.leader.exit_now): a standby may take over at any
        moment, and two leaders would play the same rounds twice."""
        data = self.application.bot_data
        assert self.leader is not None, "open_services sets the leader's lease"
        try:
            await self.leader.lost()
        except Exception:  # the lead cannot be confirmed: stop all the same
            log.exception("the leader's lease failed")
        data.role = STANDBY
        metrics.set_leader(False)
        data.lost_lead = True
        log.error("lost the lead (its lease ended): stopping; a standby takes over")
        stop = data.stop or self.application.stop_running
        stop()

    # --- shut-down ---------------------------------------------------------------------------

    async def close(self, _application: App | None = None) -> None:
        """post_shutdown: close the page's server, the stores and the pool, then give the lead
        up (a standby takes over only after this process's last write); open rounds stay in the
        database and resume next time."""
        for task in (self.waiting, self.lead_watch):
            if task is not None and task is not asyncio.current_task() and not task.done():
                task.cancel()
        self.waiting = self.lead_watch = None
        server, self.page_server = self.page_server, None
        if server is not None:
            server.stop()
            await server.close_all_connections()
        if self.pool is not None and self.own_pool:
            self.pool.shutdown()
        if self._stores is not None:
            await self._stores.close()
        if self.leader is not None:
            await self.leader.close()


def build_bot(config: Config, pool: SolverPool | None = None,
              webapp: WebappSettings | bool | None = True, worker: bool = False) -> Bot:
    """The bot for `config`; the Mini App's page as WEBAPP_* says (`webapp` True: read them
    from the environment; None: no page); `worker`: a cluster worker's (serve_worker)."""
    return Bot(config, pool, read_settings() if webapp is True else webapp or None, worker)


async def serve_worker(bot: Bot, stop: asyncio.Event) -> None:
    """`python -m bot worker` until `stop` is set: the bot started as in webhook mode (the Bot
    API reached, post_init: stores, pool, its own lease registered), then its fair share of the
    partitions taken (bot/cluster/ownership.py) — each partition's chats taken up (their open
    rounds resumed) before its consumer starts, let go after it was drained — and fed from those
    partitions, each update handled to its end before it is acknowledged; with WEBAPP_URL, it
    also answers the Mini App's requests about its partitions' rounds (relayed by the Mini App
    role: serve_webapp) while it owns them. A worker that loses its lease stops (LOST_LEAD),
    and gives its partitions up at a clean stop. With RATE_LIMIT
    on, its sends draw on the budget shared by every worker (bot/cluster/budget.py), opened
    before post_init sends anything."""
    from bot.cluster import (  # the broker's client: the roles' alone
        budget,
        consumers,
        ownership,
        relay,
    )
    from bot.cluster.partitions import partition_of
    from bot.webapp.relayed import answer_request

    application, config = bot.application, bot.config
    application.bot_data.stop = stop.set  # how a worker that lost its lease stops
    if not await webhook.unless_stopped(
            reach_telegram(application, config.startup_seconds, config.base_url), stop):
        return
    shared: list[budget.SendBudget] = []  # opened, to be closed

    async def share(limiter: RateLimiter) -> None:
        shared.append(await budget.open_budget(config))
        limiter.share(shared[0])

    try:
        limiter = application.bot.rate_limiter
        if isinstance(limiter, RateLimiter) and \
                not await webhook.unless_stopped(share(limiter), stop):
            return
        if application.post_init is not None and \
                not await webhook.unless_stopped(application.post_init(application), stop):
            return
        await application.start()
        table = partition_owners(bot.stores, config.partitions, getattr(bot.leader, "epoch", None))
        await table.seed()
        n = config.partitions

        holding = bot.holding
        assert holding is not None, "a worker's bot holds its partitions' chats"

        async def notice(body: bytes) -> None:  # another worker's: a move, an errand
            await noticed(bot.services, body)

        async with contextlib.AsyncExitStack() as held:
            feed = await held.enter_async_context(consumers.consumers_of(
                config, functools.partial(webhook.process_body, application), holding.acts_on,
                notice=notice))
            carrying = asyncio.create_task(carry_handovers(holding.handovers, feed.announce))
            held.callback(carrying.cancel)
            errands = asyncio.create_task(carry_errands(holding.errands, feed.announce))
            held.callback(errands.cancel)
            pages = None if bot.webapp is None else await held.enter_async_context(
                relay.responder_of(config, functools.partial(answer_request, bot.face),
                                   holding.acts_on))

            async def gained(partitions: list[int]) -> None:
                mine = set(partitions)
                await bot.services.recovery.resume(lambda chat: partition_of(chat, n) in mine)
                # side by side: a round trip to the broker each, a take-over waits for all
                await asyncio.gather(*(feed.add(partition) for partition in partitions))
                if pages is not None:
                    await asyncio.gather(*(pages.add(partition) for partition in partitions))

            async def shed(partitions: list[int]) -> None:
                if pages is not None:
                    await pages.remove(partitions)
                await feed.drain(partitions)
                mine = set(partitions)

                def theirs(chat: int) -> bool:
                    return partition_of(chat, n) in mine
                await bot.services.alarms.silence(theirs)  # a result in flight is marked sent
                bot.services.recovery.release(theirs)

            owners = ownership.Ownership(table, n, gained, shed, owned=bot.owned)
            balancing = asyncio.create_task(owners.run(stop))
            try:
                await feed.run(stop)
            finally:
                await balancing
    finally:
        await stop_application(application)  # the lease's end frees the partitions
        for opened in shared:
            await opened.close()


async def serve_webapp(config: Config, settings: WebappSettings | None,
                       stop: asyncio.Event) -> None:
    """`python -m bot webapp` until `stop` is set: the Mini App's page on WEBAPP_PORT, each of
    its API requests relayed through the broker to the worker owning the round's chat (any
    worker for a page or a card: bot.webapp.relayed). It holds nothing, and needs neither
    Telegram nor the database: start as many as the proxy spreads requests over."""
    from bot.cluster import relay  # the broker's client: the roles' alone
    from bot.webapp.relayed import RELAYED, RelayedFace

    assert settings is not None, "python -m bot webapp needs WEBAPP_URL"
    async with relay.relay_of(config) as relayer:
        server, port = serve(RelayedFace(relayer.ask, config.token), settings.port,
                             settings.listen, RELAYED)
        log.info("Mini App page on %s:%d/webapp/, its requests relayed to the workers",
                 settings.listen, port)
        try:
            await stop.wait()
        finally:
            server.stop()
            await server.close_all_connections()


async def serve_ingress(config: Config, stop: asyncio.Event) -> None:
    """`python -m bot ingress` until `stop` is set: the Bot API reached, the broker's stream
    declared, the webhook server listening (with /metrics), then the webhook registered with
    Telegram (WEBHOOK_URL, WEBHOOK_SECRET: the same from every ingress). Without WEBHOOK_URL
    (no public address) it polls getUpdates instead, one ingress at a time on a lease in the
    broker (bot/cluster/poller.py)."""
    from bot.cluster import ingress  # the broker's client: the roles' alone

    application = build_application(config)  # its bot only: no store, no handler runs here
    if not await webhook.unless_stopped(
            reach_telegram(application, config.startup_seconds, config.base_url), stop):
        return

    async def register(_port: int) -> None:
        await application.bot.set_webhook(url=str(config.webhook_url),
                                          secret_token=config.webhook_secret,
                                          allowed_updates=ALLOWED_UPDATES)
        log.info("webhook registered: Telegram posts to %s", config.webhook_url)

    try:
        if not config.webhook_url:  # no public address: one ingress polls getUpdates
            from bot.cluster import poller
            from bot.telegram.polling import RawUpdates
            await poller.serve(config, RawUpdates(application.bot, ALLOWED_UPDATES), stop,
                               more=[(rf"/{webhook.METRICS_PATH}", webhook.MetricsHandler, {})])
            return
        await ingress.serve(config, webhook.admit, webhook.update_server, webhook.WEBHOOK_PATH,
                            stop, more=[(rf"/{webhook.METRICS_PATH}", webhook.MetricsHandler, {})],
                            ready=register)
    finally:
        await stop_application(application)
