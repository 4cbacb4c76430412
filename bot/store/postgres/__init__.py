"""The PostgreSQL backend (DATABASE_URL=postgresql://...): every store over one asyncpg pool
(bot.store.postgres.connection), the schema's steps as SQLite's (bot.store.schema), scoring by
the database's triggers, and the leader's lease that lets several bot processes share
one database, one of them leading, its writes fenced (bot.store.postgres.leader). The stores
are the shared ones (bot.store.sql) with the statements numbered `$1..$n` (asyncpg prepares and
caches each); rounds and a chat's move add the locks that only PostgreSQL's concurrent writers
need."""

from __future__ import annotations

from bot.store.postgres.connection import Database
from bot.store.postgres.leader import PostgresLeader
from bot.store.postgres.people import PostgresPeople
from bot.store.postgres.rounds import PostgresRounds
from bot.store.schema import LATEST
from bot.store.sql import (
    achievements,
    daily,
    forgetting,
    matches,
    menus,
    pages,
    ratings,
    scores,
    storms,
    streaks,
    tournaments,
    updates,
)
from bot.store.stores import Stores

# a reset or an erasure takes the scoring locks of the chats whose scores it deletes, after the
# rounds' rows, as a round's close takes them (bot.store.postgres.people)
CHAT_LOCK = "SELECT pg_advisory_xact_lock($1)"
# ... and the chats found before its answers were deleted a part at a time ($2): a round
# closing there may have counted them before that, and would score them beside the erase
USER_LOCKS = ("SELECT pg_advisory_xact_lock(chat) FROM (SELECT chat_id AS chat FROM scores "
              "WHERE user_id = $1 UNION SELECT r.chat_id FROM answers a JOIN rounds r "
              "ON r.id = a.round_id WHERE a.user_id = $1 UNION SELECT unnest($2::BIGINT[])) "
              "AS c ORDER BY chat")
USER_CHATS = ("SELECT DISTINCT r.chat_id FROM answers a JOIN rounds r ON r.id = a.round_id "
              "WHERE a.user_id = $1")


async def open_postgres(url: str, migrate_to: int = LATEST,
                        lease: PostgresLeader | None = None) -> Stores:
    """Open (and migrate) the database at `url` (postgresql://user:password@host:port/name);
    with a `lease`, its writes are fenced by it once it leads."""
    return stores_of(await Database.open(url, migrate_to, lease=lease))


def stores_of(db: Database) -> Stores:
    return Stores(rounds=PostgresRounds(db), scores=scores.Scores(db, scores.NUMBERED),
                  people=PostgresPeople(db), matches=matches.Matches(db, matches.NUMBERED),
                  updates=updates.Updates(db, updates.NUMBERED),
                  daily=daily.Daily(db, daily.NUMBERED),
                  forgetting=forgetting.Forgetting(db, forgetting.NUMBERED, CHAT_LOCK, USER_LOCKS,
                                                     USER_CHATS),
                  close=db.close,
                  ratings=ratings.Ratings(db, ratings.NUMBERED, daily.NUMBERED),
                  achievements=achievements.Achievements(db, achievements.NUMBERED),
                  pages=pages.Pages(db, pages.NUMBERED, arrays=True),
                  tournaments=tournaments.Tournaments(db, tournaments.POSTGRES),
                  streaks=streaks.Streaks(db, streaks.NUMBERED),
                  storms=storms.Storms(db, storms.NUMBERED),
                  menus=menus.MenuDigests(db, menus.NUMBERED))


__all__ = ["Database", "PostgresLeader", "open_postgres", "stores_of"]
