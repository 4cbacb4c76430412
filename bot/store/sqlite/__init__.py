"""The SQLite backend: every store over one aiosqlite connection (bot.store.sqlite.database),
with the schema's steps (bot.store.schema) applied at start-up and scoring done by the
database's triggers. The stores are the shared ones (bot.store.sql) with the statements in `?`
style; rounds and update claims add what only SQLite does."""

from __future__ import annotations

from pathlib import Path

from bot.store.schema import LATEST
from bot.store.sql import (
    achievements,
    daily,
    matches,
    menus,
    pages,
    people,
    ratings,
    scores,
    storms,
    streaks,
    tournaments,
)
from bot.store.sqlite.database import BUSY_SECONDS, Database
from bot.store.sqlite.forgetting import SqliteForgetting
from bot.store.sqlite.rounds import SqliteRounds
from bot.store.sqlite.updates import SqliteUpdates
from bot.store.stores import Stores


async def open_sqlite(path: Path | str, migrate_to: int = LATEST,
                      busy_seconds: float = BUSY_SECONDS) -> Stores:
    """Open (and migrate) the database at `path` (":memory:" for a throwaway one);
    bot.store.unavailable.DatabaseUnavailable when it cannot be opened, migrated or written."""
    return stores_of(await Database.open(path, migrate_to, busy_seconds))


def stores_of(db: Database) -> Stores:
    return Stores(rounds=SqliteRounds(db), scores=scores.Scores(db, scores.QMARK),
                  people=people.People(db, people.QMARK, far=db.far),
                  matches=matches.Matches(db, matches.QMARK), updates=SqliteUpdates(db),
                  daily=daily.Daily(db, daily.QMARK),
                  forgetting=SqliteForgetting(db), close=db.close,
                  ratings=ratings.Ratings(db, ratings.QMARK, daily.QMARK),
                  achievements=achievements.Achievements(db, achievements.QMARK),
                  pages=pages.Pages(db.far, pages.QMARK, near=db),  # a year's reads: off the loop
                  tournaments=tournaments.Tournaments(db, tournaments.QMARK),
                  streaks=streaks.Streaks(db, streaks.QMARK),
                  storms=storms.Storms(db, storms.QMARK),
                  menus=menus.MenuDigests(db, menus.QMARK))


__all__ = ["Database", "open_sqlite", "stores_of"]
