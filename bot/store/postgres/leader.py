"""The leader's lease on PostgreSQL: one row (`leader_lease`, migration 9) says which epoch
leads and until when, by the database's clock, so the processes' own clocks never matter.

A standby takes the row over once its time has run out (the epoch goes up by one); the leader
renews it every `renew_seconds`. A frozen leader (SIGSTOP, a paused VM) renews nothing, so it
is replaced within `lease_seconds`, whatever its connection's keepalives say. When it wakes it
acts on nothing: every write carries its epoch (the pool's connections are opened with it,
bot.store.postgres.connection) and a trigger refuses a write whose epoch no longer leads; and
before each Bot API request the lease is checked fresh by this process's monotonic clock
(`check`): renewed less than `lease_seconds - renew_seconds` ago, counted from before the
renewal was sent, so the database's end of the lease is later still. Either finding ends the
lead for good: `on_lost` (by default, one log line and exit status 3).

No session advisory lock decides who leads: it would let a standby in when the old leader's
connection drops, before its lease ends, while the old leader may still believe it leads. One
is held for another purpose: the lease's session, opened at start-up (`hold`) and again after
each reconnection, holds HOLD_LOCK shared, so that a restore (bot.runtime.backup), which needs
it alone, is refused while any bot process, leading or standing by, running or frozen, still
has its session; a process that cannot take it (a restore under way) neither leads nor renews.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import time
from collections.abc import Awaitable, Callable

import asyncpg

from bot.store.outage import Outage
from bot.store.postgres.connection import EPOCH_SETTING, HOLD_LOCK
from bot.store.unavailable import DatabaseUnavailable

log = logging.getLogger(__name__)
LEASE_SECONDS = 4.0
LOST_LEAD = 3  # the exit status of a process that lost the lead (bot/__main__.py says so too)
CONNECT_SECONDS = 5.0

# Take the row when its time has run out; else say how long it has left (one round trip).
# FOR UPDATE waits for the old epoch's writes in flight (they hold the row FOR KEY SHARE:
# migration 9), so each of them commits before the take-over or not at all. The row starts
# at '-infinity' (migration 9): the time left is counted from GREATEST(end, now()), never
# from an infinite end, which PostgreSQL 16 and older cannot subtract (infinite intervals
# came with 17).
TAKE = """
    WITH ended AS (
        SELECT id FROM leader_lease WHERE id = 1 AND expires_at <= now() FOR UPDATE),
    taken AS (
        UPDATE leader_lease SET epoch = epoch + 1, holder = $1,
                                expires_at = now() + make_interval(secs => $2)
        WHERE id IN (SELECT id FROM ended) RETURNING epoch)
    SELECT (SELECT epoch FROM taken),
           (SELECT EXTRACT(EPOCH FROM GREATEST(expires_at, now()) - now())::float8
            FROM leader_lease WHERE id = 1)"""
SEED = ("INSERT INTO leader_lease (id, epoch, holder, expires_at) "
        "VALUES (1, 0, '', '-infinity') ON CONFLICT (id) DO NOTHING")
RENEW = ("UPDATE leader_lease SET expires_at = now() + make_interval(secs => $2) "
         "WHERE id = 1 AND epoch = $1 AND expires_at > now()")
RELEASE = "UPDATE leader_lease SET expires_at = now() WHERE id = 1 AND epoch = $1"
HOLD = "SELECT pg_try_advisory_lock_shared($1, $2)"


class LeaseLost(Exception):
    """This process's lease ended: it must send nothing and write nothing more."""


class RestoreUnderWay(DatabaseUnavailable):
    """A restore holds the database alone: no bot process may open it until it has finished."""


def exit_now(why: str) -> None:
    """The default end of a lost lead: one line, then exit at once, before any other task of
    the loop can send or write (the solver's workers see their parent gone and stop)."""
    log.error("lost the lead (%s): exiting with status %d; a standby takes over", why,
              LOST_LEAD)
    for handler in logging.getLogger().handlers:
        handler.flush()
    sys.stderr.flush()
    os._exit(LOST_LEAD)


class PostgresLeader:
    """`acquire` tries once; `lost` renews until the lease ends; `check` is the gate before
    every send; `close` hands the lease on at once."""

    take, seed, renew, release = TAKE, SEED, RENEW, RELEASE  # the lease row's statements
    leads = "leading"  # what the log says once the lease is taken

    def settings(self, epoch: int) -> dict[str, str]:
        """The session settings by which the fence knows this lease's writes."""
        return {EPOCH_SETTING: str(epoch)}

    def __init__(self, url: str, check_seconds: float = 2.0,
                 lease_seconds: float = LEASE_SECONDS,
                 on_lost: Callable[[str], None] = exit_now) -> None:
        self.url = url
        self.check_seconds = check_seconds  # a standby's tries
        self.lease_seconds = lease_seconds
        self.renew_seconds = lease_seconds / 5
        self.on_lost = on_lost
        self.holder = f"{os.getpid()}@{socket.gethostname()}"
        self.connection: asyncpg.Connection | None = None
        self.epoch: int | None = None
        self.leading = False
        self.ended = False
        self.renewed = 0.0  # time.monotonic() before the last renewal that the database took
        self.next_try = check_seconds  # seconds a standby may sleep before its next try
        self.on_lead: list[Callable[[int], Awaitable[None]]] = []  # told the new epoch
        self._ended = asyncio.Event()
        self._outage = Outage(log, "the leader's lease")

    async def hold(self) -> None:
        """Open the lease's session, which holds the database for this process (HOLD_LOCK);
        RestoreUnderWay when a restore holds it, or the driver's error."""
        await self._connected()

    async def acquire(self) -> bool:
        """Take the lease if its time has run out; True when this process leads. Raises when
        the database cannot be reached (the caller tries again later)."""
        if self.leading or self.ended:
            return self.leading
        sent = time.monotonic()
        epoch, left = await self._ask(self.take, self.holder, self.lease_seconds)
        if epoch is None and left is None:  # no row yet (a fresh or emptied table): seed it
            await self._ask(self.seed)  # and take it now, not a whole try later
            sent = time.monotonic()
            epoch, left = await self._ask(self.take, self.holder, self.lease_seconds)
        if epoch is None:  # wake at its end rather than up to a whole try later
            self.next_try = min(self.check_seconds, max(float(left or 0.0), 0.0) + 0.05)
            return False
        self.epoch, self.renewed, self.leading = int(epoch), sent, True
        for tell in self.on_lead:
            await tell(self.epoch)
        log.info("%s: lease epoch %d (%g s, renewed every %g s)", self.leads, self.epoch,
                 self.lease_seconds, self.renew_seconds)
        return True

    def fresh(self) -> bool:
        """Whether the lease surely still runs: renewed within its time minus one renewal's."""
        return time.monotonic() - self.renewed < self.lease_seconds - self.renew_seconds

    def check(self) -> None:
        """The gate before each Bot API request and webhook answer: passes for a standby and a
        fresh leader; a leader whose lease may have run out loses the lead (LeaseLost)."""
        if self.leading and not self.fresh():
            self.lose(f"lease epoch {self.epoch} not renewed for "
                      f"{time.monotonic() - self.renewed:.1f} s")
        if self.ended:
            raise LeaseLost(f"the lease of epoch {self.epoch} ended")

    def lose(self, why: str) -> None:
        """End the lead for good (once) and tell `on_lost`."""
        if self.ended:
            return
        self.ended, self.leading = True, False
        self._ended.set()
        self.on_lost(why)

    async def lost(self) -> None:
        """Renew the lease every `renew_seconds`; return once it has ended (taken over, run out
        while the database was out of reach, or refused to a write)."""
        while self.leading:
            try:
                async with asyncio.timeout(self.renew_seconds):
                    await self._ended.wait()
                break
            except TimeoutError:
                pass
            if not self.fresh():  # frozen, or the database out of reach too long
                self.lose(f"lease epoch {self.epoch} not renewed for "
                          f"{time.monotonic() - self.renewed:.1f} s")
                break
            sent = time.monotonic()
            # a slow answer (a busy server, this process's own loop running late) is waited
            # for while the lease is surely fresh: dropped and asked again sooner, it would
            # wait for a new connection besides
            patience = max(self.renew_seconds,
                           self.lease_seconds - self.renew_seconds - (sent - self.renewed))
            try:
                renewed = await self._run(self.renew, self.epoch, self.lease_seconds,
                                          timeout=patience)
            except Exception as error:  # out of reach or slow: try again while still fresh
                self._outage.failed(error)
                continue
            self._outage.recovered()
            if not renewed:
                self.lose(f"lease epoch {self.epoch} was taken over")
                break
            self.renewed = sent
        await self._drop()

    async def close(self) -> None:
        """Hand the lease on at once (after this process's last write), and disconnect."""
        if self.leading and self.connection is not None and not self.connection.is_closed():
            try:
                await self.connection.execute(self.release, self.epoch, timeout=CONNECT_SECONDS)
            except Exception as error:  # it runs out by itself
                log.info("could not hand the lease on: %s", error)
        self.leading = False
        self.ended = True
        self._ended.set()
        if self.connection is not None and not self.connection.is_closed():
            try:
                await asyncio.wait_for(self.connection.close(), CONNECT_SECONDS)
            except Exception:  # closing politely failed: cut it
                self.connection.terminate()
        self.connection = None

    async def _ask(self, sql: str, *params: object) -> tuple:
        connection = await self._connected()
        try:
            row = await connection.fetchrow(sql, *params, timeout=self.renew_seconds * 2)
        except BaseException:
            await self._drop()
            raise
        return tuple(row) if row is not None else ()

    async def _run(self, sql: str, *params: object, timeout: float | None = None) -> int:
        connection = await self._connected()
        try:
            status = await connection.execute(sql, *params,
                                              timeout=timeout or self.renew_seconds)
        except BaseException:
            await self._drop()
            raise
        return int(status.rsplit(" ", 1)[-1])

    async def _connected(self) -> asyncpg.Connection:
        if self.connection is None or self.connection.is_closed():
            connection = await asyncpg.connect(
                self.url, timeout=min(CONNECT_SECONDS, self.lease_seconds),
                server_settings={"application_name": f"twentyfour/{os.getpid()} lease",
                                 # a take-over never waits long behind the old leader's writes
                                 # in flight: it tries again next time instead
                                 "lock_timeout": str(int(self.renew_seconds * 1000))})
            try:
                held = await connection.fetchval(HOLD, *HOLD_LOCK,
                                                 timeout=min(CONNECT_SECONDS, self.lease_seconds))
            except BaseException:
                connection.terminate()
                raise
            if not held:
                connection.terminate()
                raise RestoreUnderWay(
                    "cannot use the database: a restore of it is under way (python -m "
                    "bot.runtime.backup restore); the bot goes on once it has finished")
            self.connection = connection
        return self.connection

    async def _drop(self) -> None:
        if self.connection is not None:
            self.connection.terminate()
            self.connection = None
