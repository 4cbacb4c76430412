"""The SQLite backend: every store over one aiosqlite connection (bot.store.sqlite.database),
with numbered migrations applied at start-up and scoring done by the database's triggers."""

from __future__ import annotations

from pathlib import Path

from bot.store.sqlite.database import BUSY_SECONDS, Database
from bot.store.sqlite.matches import SqliteMatches
from bot.store.sqlite.migrations import LATEST
from bot.store.sqlite.people import SqlitePeople
from bot.store.sqlite.rounds import SqliteRounds
from bot.store.sqlite.scores import SqliteScores
from bot.store.sqlite.updates import SqliteUpdates
from bot.store.stores import Stores


async def open_sqlite(path: Path | str, migrate_to: int = LATEST,
                      busy_seconds: float = BUSY_SECONDS) -> Stores:
    """Open (and migrate) the database at `path` (":memory:" for a throwaway one);
    bot.store.unavailable.DatabaseUnavailable when it cannot be opened, migrated or written."""
    return stores_of(await Database.open(path, migrate_to, busy_seconds))


def stores_of(db: Database) -> Stores:
    return Stores(rounds=SqliteRounds(db), scores=SqliteScores(db), people=SqlitePeople(db),
                  matches=SqliteMatches(db), updates=SqliteUpdates(db), close=db.close)


__all__ = ["Database", "open_sqlite", "stores_of"]
