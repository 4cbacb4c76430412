"""A worker's own lease (migration 20's `worker_leases`): where many workers share one database,
each holds a row of its own instead of waiting for the one leader's, and owns the partitions it
takes (bot.store.postgres.partition_owners) for as long as that row runs.

It is the leader's lease with other statements: registering always succeeds (a new row, a new
epoch from the row's sequence), the renewals and the clock's gate before every send are the
same, and so is the end of a lease that ran out or was taken: the process exits (LOST_LEAD), and
the fence refuses its writes from the moment its row's time is up. The worker's connections
carry its epoch in `twentyfour.worker`, and the count of partitions, which the per-partition
fence needs to find a chat's partition; their application name carries the epoch too
(`session_name`).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from bot.store.postgres.leader import LEASE_SECONDS, PostgresLeader, exit_now

WORKER_SETTING = "twentyfour.worker"
PARTITIONS_SETTING = "twentyfour.partitions"

# A new row of this worker's: its epoch, and no time to wait.
REGISTER = ("INSERT INTO worker_leases (holder, expires_at) "
            "VALUES ($1, now() + make_interval(secs => $2)) RETURNING epoch, 0::float8")
RENEW = ("UPDATE worker_leases SET expires_at = now() + make_interval(secs => $2) "
         "WHERE epoch = $1 AND expires_at > now()")
# At a stop, after the worker's last write: its partitions are free at once, and its row goes.
RELEASE = """
    WITH freed AS (UPDATE partition_owners SET owner = NULL WHERE owner = $1)
    DELETE FROM worker_leases WHERE epoch = $1"""


class WorkerLease(PostgresLeader):
    """One worker's lease: `acquire` registers it (always True), the rest as the leader's."""

    take, renew, release = REGISTER, RENEW, RELEASE
    leads = "working"

    def __init__(self, url: str, partitions: int, lease_seconds: float = LEASE_SECONDS,
                 on_lost: Callable[[str], None] = exit_now) -> None:
        super().__init__(url, lease_seconds=lease_seconds, on_lost=on_lost)
        self.partitions = partitions

    def settings(self, epoch: int) -> dict[str, str]:
        return {WORKER_SETTING: str(epoch), PARTITIONS_SETTING: str(self.partitions),
                "application_name": session_name(os.getpid(), epoch)}


def session_name(pid: int, epoch: int) -> str:
    """The application name of a worker's sessions once it holds lease `epoch`: whoever takes
    its partitions over once the lease ran out ends them by it (bot.store.postgres.
    partition_owners), so that a worker frozen inside a transaction holds its locks no longer."""
    return f"twentyfour/{pid} worker {epoch}"
