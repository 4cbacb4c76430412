"""The cluster's roles (bot/cluster, docs/scaling.md), each run until its stop is set: the
ingress (`serve_ingress`: the webhook's checks, the broker, the webhook registered with
Telegram), the worker (`serve_worker`: a bot the composition root built, bot.wiring, leading as
there, fed from the broker's partitions instead of polling or a webhook) and the Mini App
(`serve_webapp`: the page, its requests relayed to the workers). The broker's client is loaded
inside them alone, so the one process never imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
from collections.abc import Awaitable, Callable

from bot.cluster.unreachable import BrokerUnreachable  # what a broker out of reach raises
from bot.play.ports import Errand, Handover
from bot.play.services import Services
from bot.runtime.config import Config
from bot.runtime.doors import Doors
from bot.store import partition_owners
from bot.telegram import webhook
from bot.telegram.app import ALLOWED_UPDATES, RateLimiter, build_application
from bot.telegram.lifecycle import stop_application
from bot.telegram.startup import reach_telegram
from bot.webapp.server import serve
from bot.webapp.settings import WebappSettings
from bot.wiring import Bot

__all__ = ["BrokerUnreachable", "serve_ingress", "serve_webapp", "serve_worker"]
log = logging.getLogger(__name__)


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
        doors = Doors(config.person_budget, config.chat_budget)  # the askers' (docs/scaling.md)
        server, port = serve(RelayedFace(relayer.ask, config.token, doors=doors), settings.port,
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
