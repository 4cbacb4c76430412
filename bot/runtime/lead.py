"""Whether this process plays now: a standby until the composition root takes the lead (with
PostgreSQL several processes share a database, and one leads: bot/store/postgres/leader.py),
then the leader until its lease ends. One object, built with the lease's gate before anything
that reads it, and changed by its own methods only: the Telegram face (its timers, the
webhook's door), the Mini App and a worker's holding of its chats ask it.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.runtime import metrics
from bot.runtime.health import LEADER, STANDBY


class Lead:
    """`check` is the lease's gate (it raises once the lease may have run out)."""

    def __init__(self, check: Callable[[], None]) -> None:
        self.check = check
        self.role = STANDBY
        self.lost = False  # the exit status says so: a supervisor restarts a standby
        metrics.set_leader(False)

    def leading(self) -> bool:
        return self.role == LEADER

    def leading_now(self) -> bool:
        """Leading, and the lease still fresh by the clock (an update is acted on only then;
        a process whose lease ended is on its way out)."""
        if not self.leading():
            return False
        try:
            self.check()
        except Exception:
            return False
        return True

    def took(self) -> None:
        """The lease is this process's: it plays from now on."""
        self.role = LEADER
        metrics.set_leader(True)

    def ended(self) -> None:
        """The lease ended: never taken back by this process (it stops)."""
        self.role = STANDBY
        self.lost = True
        metrics.set_leader(False)
