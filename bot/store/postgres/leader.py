"""The leader lock on PostgreSQL: a session-level advisory lock held on a connection of its own.

Whoever holds it leads; the server frees it the moment that connection ends (the process was
killed, or the connection cut), and a standby's next try takes it. A leader checks every
`check_seconds` that its connection still answers; one that gets no answer within ANSWER_SECONDS
gives the lead up, and it does so before the server can hand the lock on: the server's keepalive
settings below let it wait `RELEASE_AFTER` seconds for a silent peer, longer than a check and its
wait (`check_seconds` is at most 5, bot/runtime/config.py).
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg

from bot.store.postgres.connection import CONNECT_SECONDS, LEADER_LOCK

log = logging.getLogger(__name__)
# The server drops a connection that stopped answering after idle + interval * count seconds
# (keepalives, when it has nothing to send), or once what it sent went unacknowledged that long.
RELEASE_AFTER = 5 + 2 * 3
ANSWER_SECONDS = 5.0  # a busy leader's slow answer is not a lost lead; 5 + 5 < RELEASE_AFTER
KEEPALIVE = {"tcp_keepalives_idle": "5", "tcp_keepalives_interval": "2",
             "tcp_keepalives_count": "3", "tcp_user_timeout": str(RELEASE_AFTER * 1000)}
HOLDS = ("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
         "AND pid = pg_backend_pid() AND classid = $1 AND objid = $2 AND objsubid = 2)")


class PostgresLeader:
    """`acquire` tries once; `lost` returns when the lead is gone; `close` gives it up."""

    def __init__(self, url: str, check_seconds: float = 2.0) -> None:
        self.url = url
        self.check_seconds = check_seconds
        self.connection: asyncpg.Connection | None = None
        self.leading = False
        self._dropped = asyncio.Event()

    async def acquire(self) -> bool:
        """Take the lead if no one holds it; True when this process leads. Raises when the
        database cannot be reached (the caller tries again later)."""
        if self.leading:
            return True
        if self.connection is None or self.connection.is_closed():
            self.connection = await asyncpg.connect(
                self.url, timeout=CONNECT_SECONDS,
                server_settings={"application_name": "twentyfour leader lock", **KEEPALIVE})
            self._dropped.clear()
            self.connection.add_termination_listener(lambda _connection: self._dropped.set())
        try:
            self.leading = bool(await self.connection.fetchval(
                "SELECT pg_try_advisory_lock($1, $2)", *LEADER_LOCK,
                timeout=self.check_seconds + CONNECT_SECONDS))
        except BaseException:
            await self._drop()
            raise
        return self.leading

    async def lost(self) -> None:
        """Return once this process no longer leads: its connection ended, or a check found
        the lock gone or got no answer within ANSWER_SECONDS."""
        while self.leading:
            try:
                async with asyncio.timeout(self.check_seconds):
                    await self._dropped.wait()
                break  # the connection ended
            except TimeoutError:
                pass
            if not await self._still_held():
                break
        self.leading = False
        await self._drop()

    async def _still_held(self) -> bool:
        assert self.connection is not None
        try:
            return bool(await self.connection.fetchval(HOLDS, *LEADER_LOCK,
                                                       timeout=ANSWER_SECONDS))
        except Exception as error:  # any failure to confirm it (asyncpg has several kinds)
            log.warning("the leader lock's connection did not answer: %r", error)
            return False

    async def close(self) -> None:
        """Give the lead up (closing the connection frees the lock)."""
        self.leading = False
        if self.connection is not None and not self.connection.is_closed():
            try:
                await asyncio.wait_for(self.connection.close(), CONNECT_SECONDS)
            except Exception:  # closing politely failed: cut it
                self.connection.terminate()
        self.connection = None

    async def _drop(self) -> None:
        if self.connection is not None:
            self.connection.terminate()
            self.connection = None
