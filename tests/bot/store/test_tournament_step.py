"""Schema step 27 (one tournament not over at a time for a group) on a database written before
it, on SQLite and PostgreSQL: the places of tournaments over are let go, and a group that two
joins at once had put in two tournaments not over stays in the one it is furthest into (a running
one before an open one, then the one it joined first, then the older one) and is out of the
others, played no more; every row is kept, and from then on the database refuses a second."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store.postgres import open_postgres
from bot.store.postgres.connection import Database
from bot.store.sql.connection import Connection, numbered
from bot.store.sqlite import open_sqlite
from bot.store.sqlite.database import Database as SqliteDatabase
from bot.store.stores import Stores
from tests.postgres import new_database

BEFORE = 26  # the last step before the rule
RUNNING, OPEN, DONE, OPEN_TOO = 1, 2, 3, 4  # the tournaments, and their status
STATUS = {RUNNING: "running", OPEN: "open", DONE: "done", OPEN_TOO: "open"}
ANNA, BORIS, CLARA, DORA = -1, -2, -3, -4  # groups
# (tournament, group, joined at): Anna joined the open one first, then the running one; Boris
# two open ones, the first earlier; Clara one over and one open; Dora two open ones at the same
# moment; and each tournament's own group
PLACES = [(OPEN, ANNA, 100.0), (RUNNING, ANNA, 200.0), (OPEN, BORIS, 100.0),
          (OPEN_TOO, BORIS, 150.0), (DONE, CLARA, 50.0), (OPEN_TOO, CLARA, 100.0),
          (OPEN, DORA, 100.0), (OPEN_TOO, DORA, 100.0),
          *((t, -10 - t, 10.0) for t in STATUS)]
# (tournament, group) -> (ongoing, playing) once upgraded
AFTER = {(RUNNING, ANNA): (1, 1), (OPEN, ANNA): (0, 0),
         (OPEN, BORIS): (1, 1), (OPEN_TOO, BORIS): (0, 0),
         (DONE, CLARA): (0, 1), (OPEN_TOO, CLARA): (1, 1),
         (OPEN, DORA): (1, 1), (OPEN_TOO, DORA): (0, 0),
         (RUNNING, -11): (1, 1), (OPEN, -12): (1, 1), (DONE, -13): (0, 1), (OPEN_TOO, -14): (1, 1)}


async def written_before(db: Connection, engine: str) -> None:
    """The rows a bot of step 26 wrote, two joins at once among them."""
    def said(sql: str) -> str:
        return numbered(sql) if engine == "postgres" else sql

    for chat in {group for _, group, _ in PLACES}:
        await db.run(said("INSERT INTO chats (id, type, title) VALUES (?, 'group', 'G')"),
                     (chat,))
    for tournament, status in STATUS.items():
        await db.run(said(
            "INSERT INTO tournaments (id, code, name, game, level, rounds, seconds, starts_at, "
            "chat_id, lang, created_at, status, next_at) "
            "VALUES (?, ?, 'Cup', '24', 'mix', 3, 60, 0, ?, 'en', 0, ?, 0)"),
            (tournament, f"CODE{tournament}A", -10 - tournament, status))
    for tournament, group, at in PLACES:
        await db.run(said("INSERT INTO tournament_groups (tournament_id, chat_id, joined_at) "
                          "VALUES (?, ?, ?)"), (tournament, group, at))


async def upgraded(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> Stores:
    if engine == "sqlite":
        where = str(tmp_path / "before.sqlite3")
        old: Connection = await SqliteDatabase.open(where, migrate_to=BEFORE)
    else:
        where = await new_database(request.getfixturevalue("postgres_server"))
        old = await Database.open(where, migrate_to=BEFORE)
    await written_before(old, engine)
    await old.close()  # type: ignore[attr-defined]
    return await (open_sqlite(where) if engine == "sqlite" else open_postgres(where))


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
async def test_groups_in_two_tournaments_keep_the_one_they_are_furthest_into(
        engine: str, tmp_path: Path, request: pytest.FixtureRequest):
    stores = await upgraded(engine, tmp_path, request)
    try:
        db = stores.tournaments.db  # type: ignore[attr-defined]
        rows = await db.fetch("SELECT tournament_id, chat_id, ongoing, playing "
                              "FROM tournament_groups")
        assert {(t, c): (int(on), int(playing)) for t, c, on, playing in rows} == AFTER
        store = stores.tournaments
        for group, kept in ((ANNA, RUNNING), (BORIS, OPEN), (CLARA, OPEN_TOO), (DORA, OPEN)):
            found = await store.of_chat(group)
            assert found is not None and found.id == kept, group
        assert await store.join(OPEN_TOO, ANNA, 0, None, "en", 300.0, 500) == "elsewhere"
        assert await store.finish(RUNNING, "done", 400.0)
        assert await store.join(OPEN_TOO, ANNA, 0, None, "en", 400.0, 500) == "joined"
    finally:
        await stores.close()
