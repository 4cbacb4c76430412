"""While PostgreSQL is out of reach: one warning line a minute, never a traceback.

Whatever keeps trying (asyncpg's pool restoring its connections, the lease's renewals, a
standby's tries for the lead) reports each failure here; the log says the first one and then at
most one a minute, each a single line with the driver's words, and says when it is back.
"""

from __future__ import annotations

import logging
import time

EVERY_SECONDS = 60.0
POOL_LOGGER = "asyncpg.pool"  # its "Failed to restore the pool connection floor" + traceback


class Outage:
    """Failures of one thing that keeps trying, said at most once every `every` seconds."""

    def __init__(self, log: logging.Logger, what: str, every: float = EVERY_SECONDS) -> None:
        self.log = log
        self.what = what
        self.every = every
        self.since: float | None = None  # time.monotonic() of the first failure in a row
        self.said = float("-inf")
        self.failures = 0
        self.last = float("-inf")

    def failed(self, error: BaseException | str) -> bool:
        """Count a failure; whether a line was logged for it."""
        now = time.monotonic()
        if self.since is None or now - self.last > 2 * self.every:  # a new outage
            self.since, self.failures, self.said = now, 0, float("-inf")
        self.last = now
        self.failures += 1
        if now - self.said < self.every:
            return False
        self.said = now
        words = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        self.log.warning("PostgreSQL out of reach (%s): %s; still trying, %d failures in "
                         "%.0f s (said at most once a minute)", self.what,
                         " ".join(str(words).split()), self.failures, now - self.since)
        return True

    def recovered(self) -> None:
        if self.since is not None:
            self.log.info("PostgreSQL answers again (%s) after %.0f s", self.what,
                          time.monotonic() - self.since)
        self.since, self.failures, self.said = None, 0, float("-inf")


class PoolOutageFilter(logging.Filter):
    """On asyncpg's pool logger: its warnings (each with a traceback, one every retry) become
    the Outage's one line a minute; anything else passes."""

    def __init__(self, every: float = EVERY_SECONDS) -> None:
        super().__init__()
        self.outage = Outage(logging.getLogger(__name__), "the connection pool", every)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING:
            return True
        error = record.exc_info[1] if record.exc_info else None
        self.outage.failed(error if error is not None else record.getMessage())
        return False


def out_of_reach(error: BaseException | None) -> bool:
    """Whether an error says the database is out of reach (the link, not a statement)."""
    if isinstance(error, OSError | TimeoutError):
        return True
    try:
        import asyncpg
    except ImportError:  # the solver-only environment, or SQLite alone
        return False
    return isinstance(error, asyncpg.PostgresConnectionError | asyncpg.InterfaceError
                      | asyncpg.CannotConnectNowError)


def quiet_pool_outages() -> None:
    """Put the filter on asyncpg's pool logger (once per process)."""
    pool_log = logging.getLogger(POOL_LOGGER)
    if not any(isinstance(f, PoolOutageFilter) for f in pool_log.filters):
        pool_log.addFilter(PoolOutageFilter())
