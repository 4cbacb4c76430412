"""The PostgreSQL backend (DATABASE_URL=postgresql://...): every store over one asyncpg pool
(bot.store.postgres.connection), the same numbered migrations as SQLite in PostgreSQL's dialect,
scoring by the database's triggers, and the leader's lease that lets several bot processes share
one database, one of them leading, its writes fenced (bot.store.postgres.leader). The stores
are the shared ones (bot.store.sql) with the statements numbered `$1..$n` (asyncpg prepares and
caches each); rounds and a chat's move add the locks that only PostgreSQL's concurrent writers
need."""

from __future__ import annotations

from bot.store.postgres.connection import Database
from bot.store.postgres.leader import PostgresLeader
from bot.store.postgres.migrations import LATEST
from bot.store.postgres.people import PostgresPeople
from bot.store.postgres.rounds import PostgresRounds
from bot.store.sql import matches, scores, updates
from bot.store.stores import Stores


async def open_postgres(url: str, migrate_to: int = LATEST,
                        lease: PostgresLeader | None = None) -> Stores:
    """Open (and migrate) the database at `url` (postgresql://user:password@host:port/name);
    with a `lease`, its writes are fenced by it once it leads."""
    return stores_of(await Database.open(url, migrate_to, lease=lease))


def stores_of(db: Database) -> Stores:
    return Stores(rounds=PostgresRounds(db), scores=scores.Scores(db, scores.NUMBERED),
                  people=PostgresPeople(db), matches=matches.Matches(db, matches.NUMBERED),
                  updates=updates.Updates(db, updates.NUMBERED), close=db.close)


__all__ = ["Database", "PostgresLeader", "open_postgres", "stores_of"]
