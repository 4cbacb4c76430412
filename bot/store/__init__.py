"""Storage: the records the stores return, one protocol per store (rounds and answers, scores,
chats and users, matches, update claims), the leader's lease, and the backends that implement
them.

SQLite (bot.store.sqlite) is the embedded default; DATABASE_URL=postgresql://... chooses
PostgreSQL (bot.store.postgres), where several bot processes may share one database and the
leader's lease picks the one that plays. Nothing above this package knows which database it
talks to.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.store.protocols import (
    LeaderLock,
    MatchStore,
    PeopleStore,
    RoundStore,
    ScoreStore,
    UpdateStore,
)
from bot.store.stores import Stores

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.store.postgres.connection import Database
    from bot.store.postgres.live_rounds import SharedRounds
    from bot.store.postgres.partition_owners import PartitionOwners

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


async def open_stores(database_path: Path | str, database_url: str | None = None,
                      lease: LeaderLock | None = None) -> Stores:
    """Every store, migrated to the latest schema: over PostgreSQL at `database_url` when one
    is given (its writes fenced by `lease` once that leads), else over the SQLite database at
    `database_path`. The drivers are imported only where they are used."""
    if database_url:
        if not database_url.startswith(POSTGRES_SCHEMES):
            raise ValueError("DATABASE_URL must start with postgresql://")
        from bot.store.postgres import PostgresLeader, open_postgres

        return await open_postgres(
            database_url, lease=lease if isinstance(lease, PostgresLeader) else None)
    from bot.store.sqlite import open_sqlite

    return await open_sqlite(database_path)


class SoleLeader:
    """The lease of an embedded database: one process per SQLite file, always leading, its
    lease never running out (nothing else could take it)."""

    next_try = 0.0
    epoch: int | None = None

    async def acquire(self) -> bool:
        return True

    async def lost(self) -> None:
        await asyncio.Event().wait()  # never

    def check(self) -> None:
        return None

    async def close(self) -> None:
        return None


def leader_lock(database_url: str | None, check_seconds: float = 2.0,
                lease_seconds: float = 4.0,
                on_lost: Callable[[str], None] | None = None) -> LeaderLock:
    """Who leads among the processes on one database: PostgreSQL's lease (`on_lost`: how a
    lost lead ends; by default one line and exit status 3), or, with SQLite, this process."""
    if database_url:
        from bot.store.postgres.leader import PostgresLeader, exit_now

        return PostgresLeader(database_url, check_seconds, lease_seconds,
                              on_lost or exit_now)
    return SoleLeader()


__all__ = ["LeaderLock", "MatchStore", "PeopleStore", "RoundStore", "ScoreStore", "Shared",
           "SoleLeader", "Stores", "UpdateStore", "leader_lock", "lost_lead_exit", "open_shared",
           "open_stores", "worker_lock"]


def worker_lock(database_url: str, partitions: int, lease_seconds: float = 4.0,
                on_lost: Callable[[str], None] | None = None) -> LeaderLock:
    """A cluster worker's own lease on PostgreSQL (bot.store.postgres.worker_lease): every
    worker holds one and works; the partitions it owns say for which chats (`on_lost` as for
    `leader_lock`)."""
    from bot.store.postgres.leader import exit_now
    from bot.store.postgres.worker_lease import WorkerLease

    return WorkerLease(database_url, partitions, lease_seconds, on_lost or exit_now)


def lost_lead_exit(why: str) -> None:
    """How a lost lease ends a process by default: one line, and exit status 3 at once."""
    from bot.store.postgres.leader import exit_now

    exit_now(why)


@dataclass(frozen=True)
class Shared:
    """A cluster worker's stores, and what the workers share through their PostgreSQL besides:
    every worker's open rounds (play refuses and bounds by them), and the owners of the
    partitions, as the worker whose lease has `epoch` sees them."""

    stores: Stores
    open_rounds: SharedRounds
    database: Database

    def owners(self, partitions: int, epoch: int | None) -> PartitionOwners:
        from bot.store.postgres.partition_owners import PartitionOwners

        return PartitionOwners(self.database.pool, partitions, epoch)


async def open_shared(database_url: str, lease: LeaderLock, part_games: Iterable[str]
                      ) -> Shared:
    """A worker's stores on the PostgreSQL at `database_url` (migrated; its writes fenced by
    its `lease`, a WorkerLease), with what the workers share there (`part_games`: the games
    whose answers may use part of a hand, bot.store.postgres.live_rounds)."""
    if not database_url.startswith(POSTGRES_SCHEMES):
        raise ValueError("a worker's partitions need PostgreSQL")
    from bot.store.postgres import PostgresLeader, stores_of
    from bot.store.postgres.connection import Database
    from bot.store.postgres.live_rounds import SharedRounds

    database = await Database.open(
        database_url, lease=lease if isinstance(lease, PostgresLeader) else None)
    return Shared(stores_of(database), SharedRounds(database, part_games), database)
