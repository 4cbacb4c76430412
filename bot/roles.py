"""Every role of the bot, each one function run until its stop is set, which puts its process
together (bot.wiring: what it opens first, then the services, then the application over them)
and runs it: the one process (`serve_one`: long polling, or a webhook server), and the cluster's
(bot/cluster, docs/scaling.md) — the ingress (`serve_ingress`: the webhook's checks, the broker,
the webhook registered with Telegram), the worker (`serve_worker`: a bot fed from the broker's
partitions instead of polling or a webhook) and the Mini App (`serve_webapp`: the page, its
requests relayed to the workers). The broker's client is loaded inside the cluster's roles
alone, so the one process never imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING

from bot.cluster.unreachable import BrokerUnreachable  # what a broker out of reach raises
from bot.play.ports import Errand, Handover
from bot.play.services import Services
from bot.runtime.config import Config
from bot.runtime.doors import Limits
from bot.telegram import polling, webhook
from bot.telegram.app import ALLOWED_UPDATES, intake_of, telegram_bot
from bot.telegram.menus import publish_menus
from bot.telegram.rate_limiter import RateLimiter
from bot.telegram.startup import reach_telegram
from bot.webapp.page_process import Spec, page_apart
from bot.webapp.relayed import RELAYED, RelayedFace, answer_request
from bot.webapp.server import serve
from bot.webapp.settings import WebappSettings
from bot.wiring import Bot, Partitions, begin, built, leading, opening, until_stopped

if TYPE_CHECKING:
    from bot.cluster.consumers import Consumers
    from bot.cluster.ownership import Ownership
    from bot.cluster.relay import Responder

__all__ = ["BrokerUnreachable", "serve_ingress", "serve_one", "serve_webapp", "serve_worker"]
log = logging.getLogger(__name__)
Announce = Callable[[int, str, bytes], Awaitable[None]]


async def serve_one(config: Config, webapp: WebappSettings | None, stop: asyncio.Event) -> bool:
    """`python -m bot` until `stop` is set: the one process, long polling (the Mini App's page,
    with WEBAPP_URL, served by a process of its own: bot.webapp.page_process), or with
    WEBHOOK_URL a webhook server (its secret: WEBHOOK_SECRET, or the run's own) that mounts the
    page; whether it lost the lead (a supervisor restarts it as a standby)."""
    async with contextlib.AsyncExitStack() as stack:
        opened = await until_stopped(stack.enter_async_context(opening(config)), stop)
        if opened is None:
            return False
        bot = await stack.enter_async_context(built(config, opened, webapp, page=False))
        if webapp is not None and not config.webhook_url:  # else the webhook's server has it
            port = await stack.enter_async_context(page_apart(
                functools.partial(answer_request, bot.face), page_spec(config, webapp)))
            log.info("Mini App page on %s:%d/webapp/ (a process of its own)", webapp.listen,
                     port)
        start = functools.partial(begin, bot, stack, stop)
        if config.webhook_url:
            assert config.webhook_secret, "python -m bot makes a secret when none is set"
            await webhook.serve(bot.application, config, config.webhook_secret, stop, start,
                                bot.page_routes(webapp), opened.lease.check)
        else:
            poller = polling.Poller(opened.telegram, intake_of(bot.application), ALLOWED_UPDATES)
            await polling.serve(bot.application, poller, stop, start)
        return opened.lead.lost


def page_spec(config: Config, webapp: WebappSettings) -> Spec:
    """What the page's own process is told: the token its signatures are checked with, the
    budgets it refuses past, where it listens."""
    def budget(limits: Limits) -> tuple[float, float, int]:
        return (limits.rate, limits.burst, limits.at_once)
    return Spec(config.token, budget(config.person_budget), budget(config.chat_budget),
                webapp.port, webapp.listen, socket="", log_level=config.log_level)


async def serve_worker(config: Config, webapp: WebappSettings | None,
                       stop: asyncio.Event) -> bool:
    """`python -m bot worker` until `stop` is set: its process put together (`worker_of`), fed
    from the broker (`fed`), then its fair share of the partitions taken (bot/cluster/
    ownership.py) and their updates handled, each to its end before it is acknowledged; with
    WEBAPP_URL it also answers the Mini App's requests about its partitions' rounds (relayed by
    the Mini App role) while it owns them. Whether it lost its lease (it stops then); a clean
    stop gives its partitions up (its lease's release)."""
    async with contextlib.AsyncExitStack() as stack:
        worker = await until_stopped(worker_of(stack, config, webapp, stop), stop)
        if worker is None:
            return False
        changes = await fed(stack, config, worker, pages=webapp is not None)
        await balanced(worker.owning, stop, changes)
        return worker.bot.lead.lost


@dataclasses.dataclass(frozen=True)
class Worker:
    """A worker's bot, its holding of its partitions' chats, and the Ownership that keeps
    which partitions those are (built before the holding, which asks it)."""

    bot: Bot
    holding: Partitions
    owning: Ownership


async def worker_of(stack: contextlib.AsyncExitStack, config: Config,
                    webapp: WebappSettings | None, stop: asyncio.Event) -> Worker:
    """A worker's process put together on `stack`: its share of the send budget opened first
    (RATE_LIMIT: the budget every worker draws on, bot/cluster/budget.py), then what the one
    process opens (bot.wiring.opening, its own lease), the lease registered (a worker never
    waits for it), its partitions' Ownership and holding, the bot built over them, its menus
    set and its application started (its chats come with its partitions, not resumed here)."""
    from bot.cluster import budget, ownership  # the broker's client: the roles' alone

    limiter = None
    if config.rate_limit:
        sending = await budget.open_budget(config)
        stack.push_async_callback(sending.close)
        limiter = RateLimiter(config.send_rate, config.lookup_rate, shared=sending)
    opened = await stack.enter_async_context(opening(config, limiter=limiter, worker=True))
    await stack.enter_async_context(leading(opened, config, stop.set))
    assert opened.shared is not None, "a worker opens what the workers share"
    owners = opened.shared.owners(config.partitions, opened.lease.epoch)
    await owners.seed()
    owning = ownership.Ownership(owners, config.partitions)
    holding = Partitions(config.partitions, owning.owns, opened.lead.leading_now)
    bot = await stack.enter_async_context(built(
        config, opened, webapp, holding=holding, sole=functools.partial(owning.owns, 0),
        page=False))
    await publish_menus(bot.menus, bot.application.bot, bot.stores.menus, time.time())
    await bot.application.start()
    return Worker(bot, holding, owning)


async def fed(stack: contextlib.AsyncExitStack, config: Config, worker: Worker,
              pages: bool) -> Changes:
    """The worker's feed from the broker, open on `stack`: a consumer for each partition it
    will own, each update handled through its application and another worker's notices taken
    (`noticed`); with `pages`, the Mini App's requests about its partitions answered by its
    face; the moves and errands its holding queues carried to their chats' owners. What a
    change of its partitions does to them (`Changes`)."""
    from bot.cluster import consumers, relay  # the broker's client: the roles' alone

    bot, holding = worker.bot, worker.holding
    feed = await stack.enter_async_context(consumers.consumers_of(
        config, functools.partial(webhook.process_body, bot.application), holding.acts_on,
        notice=functools.partial(noticed, bot.services)))
    responder = await stack.enter_async_context(relay.responder_of(
        config, functools.partial(answer_request, bot.face), holding.acts_on)) if pages else None
    stack.enter_context(carrying(holding, feed.announce))
    return Changes(bot.services, feed, responder, config.partitions)


class Changes:
    """What a worker does as its partitions change hands (bot/cluster/ownership.py): a
    partition taken has its chats taken up (their open rounds resumed) before its consumer
    starts, and its Mini App's requests are answered here from then; one given up has its
    requests and its consumer drained before its chats are let go (their rounds leave memory,
    their alarms cancelled)."""

    def __init__(self, services: Services, feed: Consumers, pages: Responder | None,
                 partitions: int) -> None:
        from bot.cluster.partitions import partition_of  # pure: no broker's client
        self.services = services
        self.feed = feed
        self.pages = pages
        self.partitions = partitions
        self.partition_of = partition_of

    def within(self, partitions: list[int]) -> Callable[[int], bool]:
        """Whether a chat is in one of `partitions`."""
        mine = set(partitions)
        return lambda chat: self.partition_of(chat, self.partitions) in mine

    async def gained(self, partitions: list[int]) -> None:
        await self.services.recovery.resume(self.within(partitions))
        # side by side: a round trip to the broker each, a take-over waits for all
        await asyncio.gather(*(self.feed.add(partition) for partition in partitions))
        if self.pages is not None:
            await asyncio.gather(*(self.pages.add(partition) for partition in partitions))

    async def shed(self, partitions: list[int]) -> None:
        if self.pages is not None:
            await self.pages.remove(partitions)
        await self.feed.drain(partitions)
        theirs = self.within(partitions)
        await self.services.alarms.silence(theirs)  # a result in flight is marked sent
        self.services.recovery.release(theirs)


async def balanced(owning: Ownership, stop: asyncio.Event, changes: Changes) -> None:
    """The worker fed from its partitions until `stop`, its share kept meanwhile."""
    balancing = asyncio.create_task(owning.run(stop, changes.gained, changes.shed))
    try:
        await changes.feed.run(stop)
    finally:
        await balancing


@contextlib.contextmanager
def carrying(holding: Partitions, announce: Announce) -> Iterator[None]:
    """While inside, the moves and the tournaments' errands the holding queued are carried to
    their chats' owners through the stream."""
    tasks = [asyncio.create_task(carry_handovers(holding.handovers, announce)),
             asyncio.create_task(carry_errands(holding.errands, announce))]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()


async def carry_handovers(handovers: asyncio.Queue[Handover], announce: Announce) -> None:
    """Each move handed over, announced in the stream to the supergroup's owner (until
    cancelled); the broker out of reach is tried again, a second apart, until it answers."""
    while True:
        moved = await handovers.get()
        await carry(announce, moved.new_id, "moved", moved)


async def carry_errands(errands: asyncio.Queue[Errand], announce: Announce) -> None:
    """Each tournament's errand, announced in the stream to its chat's owner, in the order
    (and at the pace) the schedule sent them (until cancelled)."""
    while True:
        errand = await errands.get()
        await carry(announce, errand.chat_id, "tournament", errand)


async def carry(announce: Announce, chat_id: int, kind: str, notice: Handover | Errand) -> None:
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


async def serve_webapp(config: Config, settings: WebappSettings | None,
                       stop: asyncio.Event) -> None:
    """`python -m bot webapp` until `stop` is set: the Mini App's page on WEBAPP_PORT, each of
    its API requests relayed through the broker to the worker owning the round's chat (any
    worker for a page or a card: bot.webapp.relayed). It holds nothing, and needs neither
    Telegram nor the database: start as many as the proxy spreads requests over."""
    from bot.cluster import relay  # the broker's client: the roles' alone

    assert settings is not None, "python -m bot webapp needs WEBAPP_URL"
    async with relay.relay_of(config) as relayer:
        doors = config.doors()  # the askers' (docs/scaling.md)
        server, port = await serve(RelayedFace(relayer.ask, config.token, doors=doors),
                                   settings.port, settings.listen, RELAYED)
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
    broker (bot/cluster/poller.py). Its bot alone: no store, no handler runs here."""
    from bot.cluster import ingress  # the broker's client: the roles' alone

    telegram = telegram_bot(config, config.doors())
    try:
        if not await webhook.unless_stopped(
                reach_telegram(telegram, config.startup_seconds, config.base_url), stop):
            return
        more: ingress.Routes = [(rf"/{webhook.METRICS_PATH}", webhook.MetricsHandler, {})]
        if not config.webhook_url:  # no public address: one ingress polls getUpdates
            from bot.cluster import poller
            await poller.serve(config, polling.RawUpdates(telegram, ALLOWED_UPDATES), stop,
                               more=more)
            return
        await ingress.serve(config, webhook.admit, webhook.update_server, webhook.WEBHOOK_PATH,
                            stop, more=more,
                            ready=functools.partial(registered, telegram, config))
    finally:
        await telegram.shutdown()


async def registered(telegram: polling.PollingBot, config: Config, _port: int) -> None:
    """The webhook registered with Telegram, once the ingress listens."""
    await telegram.set_webhook(url=str(config.webhook_url), secret_token=config.webhook_secret,
                               allowed_updates=ALLOWED_UPDATES)
    log.info("webhook registered: Telegram posts to %s", config.webhook_url)
