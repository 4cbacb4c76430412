"""Start-up and shut-down: the stores, the solver pool and the game services are opened in
post_init and closed in post_shutdown; after a restart, the results the bot owes are sent and
matches go on. Open rounds stay in the database across a stop.

With PostgreSQL several processes may share the database: post_init then waits for the lead
(`take_lead`), so a standby has everything open but takes no update and runs no round. The lead
is a lease the leader renews every second or so (bot/store/postgres/leader.py); when the leader
dies or freezes, its lease runs out, a standby's next try takes it, and it goes on through the
resume a restart runs. A leader whose lease ended (not renewed in time, taken over, or a write
refused for its old epoch) sends nothing more: every Bot API request passes the lease's gate
first (bot.telegram.metered_request.guard); it logs one line and exits with status 3.
"""

from __future__ import annotations

import asyncio
import logging

from bot.play.matches.matches import match_pause
from bot.play.services import build_services
from bot.runtime import metrics
from bot.runtime.health import LEADER, STANDBY, beat, heartbeat_path
from bot.runtime.pool import SolverPool
from bot.store import leader_lock, open_stores
from bot.store.outage import Outage
from bot.store.unavailable import DatabaseUnavailable  # what a bad database raises at start-up
from bot.telegram.context import App
from bot.telegram.jobs import JobScheduler, start_housekeeping
from bot.telegram.metered_request import guard
from bot.telegram.sending import publish, say
from bot.webapp.server import close_face, open_face
from solver.native import STATUS as NATIVE_STATUS

__all__ = ["DatabaseUnavailable", "close_services", "open_services", "resume",
           "stop_application", "take_lead", "watch_lead"]
log = logging.getLogger(__name__)
PRIVACY_NOTE = (
    "privacy mode is on (getMe: can_read_all_group_messages is false): in groups the bot sees "
    "only commands and replies to its messages, so players answer with /a or by replying to "
    "the deal. To let them just type answers: in @BotFather send /setprivacy, choose this bot, "
    "pick Disable, then remove the bot from each group and add it again.")


async def open_services(application: App) -> None:
    """Open the stores (migrations applied), start the pool, build the services; then wait for
    the lead (at once with SQLite, or alone on PostgreSQL). A database that cannot be opened
    raises bot.store.unavailable.DatabaseUnavailable, with nothing left open."""
    data = application.bot_data
    config = data.settings
    data.leader = leader_lock(config.database_url, config.lead_check, config.lease_seconds)
    guard(application.bot, data.leader.check)
    stores = await open_stores(config.database_path, config.database_url, data.leader)
    data.stores = stores  # closed by post_shutdown if what follows fails
    pool = data.pool  # tests may share one pool between applications
    if pool is None:
        pool = data.pool = SolverPool(config.solver_workers)
        data.own_pool = True
    await pool.warm_up()
    log.info("solver: native core %s", NATIVE_STATUS)
    reads_all = bool(application.bot.can_read_all_group_messages)
    if not reads_all:
        log.warning(PRIVACY_NOTE)
    data.services = build_services(
        stores, pool, JobScheduler(application.job_queue), seconds=config.seconds,
        deal_seconds=config.deal_seconds, solve_timeout=config.solve_timeout,
        pause=match_pause(config.round_seconds), reads_group_messages=reads_all)
    data.role = STANDBY
    metrics.set_leader(False)
    start_housekeeping(application, stores, heartbeat_path(config.database_path))
    await open_face(application)  # the Mini App, when WEBAPP_URL is set
    await take_lead(application)


async def take_lead(application: App) -> None:
    """Return once this process leads. A standby tries every `lead_check` seconds (or at the
    lease's end, when that comes sooner) and writes its heartbeat as a standby after each
    answer of the database; an unreachable database is said once a minute. The leader renews
    its lease from then on (`watch_lead`)."""
    data = application.bot_data
    config, lock = data.settings, data.leader
    assert lock is not None, "open_services sets the leader's lease"
    heartbeat = heartbeat_path(config.database_path)
    data.waiting = asyncio.current_task()  # cancelled by a stop meanwhile
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
        data.waiting = None
    data.role = LEADER
    metrics.set_leader(True)
    beat(heartbeat, LEADER)
    if waited:
        log.info("took the lead: resuming the rounds and matches, then taking updates")
    data.lead_watch = asyncio.create_task(watch_lead(application))


async def watch_lead(application: App) -> None:
    """Renew the lease; stop the bot when the lead is lost (by default the lease itself has
    exited by then: bot.store.postgres.leader.exit_now): a standby may take over at any
    moment, and two leaders would play the same rounds twice."""
    data = application.bot_data
    assert data.leader is not None, "open_services sets the leader's lease"
    try:
        await data.leader.lost()
    except Exception:  # the lead cannot be confirmed: stop all the same
        log.exception("the leader's lease failed")
    data.role = STANDBY
    metrics.set_leader(False)
    data.lost_lead = True
    log.error("lost the lead (its lease ended): stopping; a standby takes over")
    stop = data.stop or application.stop_running
    stop()


async def resume(application: App) -> None:
    """After a restart: running rounds get their ends again, and the bot sends the results it
    owes (rounds that ran out while it was down, that had a right answer already, or whose
    result it had no time to send; a result counts as sent once Telegram took it, or refused
    it for good); then the matches go on."""
    services = application.bot_data.services
    results = await services.recovery.resume()
    for result in results:
        chat_id, topic = result.round.place
        try:  # guarded: a chat gone or migrated is dealt with inside
            await publish(application, chat_id, topic, result)
        except Exception:  # the network: the next start tries again
            log.warning("could not send a round's result to chat %s now", chat_id)
    said = await services.matches.resume()
    for (chat_id, topic), text in said:
        await say(application, chat_id, topic, text)  # guarded like every timer's message
    if results or said:
        log.info("resumed: sent %d results, %d matches went on", len(results), len(said))


async def close_services(application: App) -> None:
    """Close the stores and the pool, then give the lead up (a standby takes over only after
    this process's last write); open rounds stay in the database and resume next time."""
    data = application.bot_data
    for task in (data.waiting, data.lead_watch):
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()
    data.waiting = data.lead_watch = None
    await close_face(application)
    pool, stores, lock = data.pool, data.opened_stores, data.leader
    if pool is not None and data.own_pool:
        pool.shutdown()
    if stores is not None:
        await stores.close()
    if lock is not None:
        await lock.close()


async def stop_application(application: App) -> None:
    """What run_polling and run_webhook do at the end, for the loops that run the application
    themselves (the demo, the webhook server); post_shutdown closes the stores and the pool."""
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    if application.running:
        await application.stop()
        if application.post_stop is not None:
            await application.post_stop(application)
    await application.shutdown()
    if application.post_shutdown is not None:
        await application.post_shutdown(application)
