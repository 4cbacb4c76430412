"""The PostgreSQL backend (DATABASE_URL=postgresql://...): every store over one asyncpg pool
(bot.store.postgres.connection), the same numbered migrations as SQLite in PostgreSQL's dialect,
scoring by the database's triggers, and the leader lock that lets several bot processes share
one database, one of them leading (bot.store.postgres.leader)."""

from __future__ import annotations

from bot.store.postgres.connection import Database
from bot.store.postgres.leader import PostgresLeader
from bot.store.postgres.matches import PostgresMatches
from bot.store.postgres.migrations import LATEST
from bot.store.postgres.people import PostgresPeople
from bot.store.postgres.rounds import PostgresRounds
from bot.store.postgres.scores import PostgresScores
from bot.store.postgres.updates import PostgresUpdates
from bot.store.stores import Stores


async def open_postgres(url: str, migrate_to: int = LATEST) -> Stores:
    """Open (and migrate) the database at `url` (postgresql://user:password@host:port/name)."""
    return stores_of(await Database.open(url, migrate_to))


def stores_of(db: Database) -> Stores:
    return Stores(rounds=PostgresRounds(db), scores=PostgresScores(db),
                  people=PostgresPeople(db), matches=PostgresMatches(db),
                  updates=PostgresUpdates(db), close=db.close)


__all__ = ["Database", "PostgresLeader", "open_postgres", "stores_of"]
