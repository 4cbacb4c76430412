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

Past one process (bot/cluster, docs/scaling.md) it builds a worker's bot too (`worker`: its own
lease, the partitions it owns); bot.roles starts each role of the cluster.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

import tornado.httpserver
import tornado.routing
import tornado.web

from bot.play.matches.matches import match_pause
from bot.play.ports import Errand, Handover
from bot.play.services import Services, build_services
from bot.runtime import heap, metrics
from bot.runtime.config import Config
from bot.runtime.doors import Doors
from bot.runtime.health import LEADER, STANDBY, beat, heartbeat_path
from bot.runtime.pool import SolverPool
from bot.store import (
    leader_lock,
    lost_lead_exit,
    open_stores,
    shared_rounds,
    worker_lock,
)
from bot.store.outage import Outage
from bot.store.protocols import LeaderLock
from bot.store.stores import Stores
from bot.store.unavailable import DatabaseUnavailable  # what a bad database raises at start-up
from bot.telegram import menus
from bot.telegram.app import COMMANDS, build_application
from bot.telegram.context import App
from bot.telegram.fairness import submit_as
from bot.telegram.jobs import JobScheduler, start_housekeeping
from bot.telegram.metered_request import guard
from bot.telegram.sending import TelegramPublisher
from bot.webapp.server import Face, opener, page_opener, serve, webapp_routes
from bot.webapp.settings import WebappSettings, read_settings
from solver.native import STATUS as NATIVE_STATUS

__all__ = ["Bot", "DatabaseUnavailable", "build_bot"]
log = logging.getLogger(__name__)
PRIVACY_NOTE = (
    "privacy mode is on (getMe: can_read_all_group_messages is false): in groups the bot sees "
    "only commands and replies to its messages, so players answer with /a or by replying to "
    "the deal. To let them just type answers: in @BotFather send /setprivacy, choose this bot, "
    "pick Disable, then remove the bot from each group and add it again.")
# routes to mount beside the server's own: (pattern, handler class, its arguments), or
# tornado's Rule (the Mini App's API endpoints are targets of their own: bot.webapp.api)
Routes = list[tuple[str, type[tornado.web.RequestHandler], dict[str, Any]] | tornado.routing.Rule]


class Partitions:
    """play's Holding port for a worker: the chats of the partitions it owns while its lease
    holds (`owned`, the set its Ownership keeps), and a move to a supergroup another worker plays
    or a tournament's errand to a chat another worker plays, queued for the worker's feed to
    carry through the stream (bot.roles: `carry_handovers`, `carry_errands`)."""

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


class Bot:
    """One bot process: its Telegram application (`application`) and what the root opened for
    it — stores, pool, lease, the page's face and server."""

    def __init__(self, config: Config, pool: SolverPool | None = None,
                 webapp: WebappSettings | None = None, worker: bool = False) -> None:
        self.config = config
        self.worker = worker  # a cluster worker: its own lease, the partitions it owns
        self.webapp = webapp
        # one budget per person and per chat, for every door of this process: its updates and
        # the Mini App's requests (bot.runtime.doors)
        self.doors = Doors(config.person_budget, config.chat_budget)
        self.application: App = build_application(config, self.open, self.close, self.doors)
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
        # (bot.roles.serve_worker), while its lease holds
        self.owned: set[int] = set()
        self.holding = Partitions(config.partitions, self.owned, self.leading_now) \
            if worker else None
        self.face = Face(lambda: self.services, config.token, self.leading,
                         functools.partial(self._belongs), self._submit, doors=self.doors)

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
        return [*webapp_routes(self.face)] if self.webapp is not None else []

    # --- start-up ----------------------------------------------------------------------------

    async def open(self, application: App) -> None:
        """post_init: open everything, set the menus, wait for the lead, resume what a stop
        left. A database that cannot be opened raises DatabaseUnavailable, with nothing left
        open."""
        await self.open_services()
        await menus.set_menus(application.bot, [names for names, _ in COMMANDS])
        await self.take_lead()
        if not self.worker:  # a worker takes its chats up with its partitions (bot.roles)
            await self.services.recovery.resume()
        log.info("start-up done: %d objects kept out of later collections", heap.settle_once())

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
            tournament_pause=config.tournament_pause,
            tournament_followers=config.tournament_followers)
        data.role = STANDBY
        metrics.set_leader(False)
        start_housekeeping(application, heartbeat_path(config.database_path), self.sole)
        # else the webhook's server, or a worker's: the Mini App role's, relayed (bot.roles)
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
    from the environment; None: no page); `worker`: a cluster worker's (bot.roles)."""
    return Bot(config, pool, read_settings() if webapp is True else webapp or None, worker)
