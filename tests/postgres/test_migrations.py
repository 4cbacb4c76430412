"""The one schema (bot/store/schema): its steps, applied once however many processes start
together; SQLite's and PostgreSQL's schemas alike at every step (tests/postgres/schemas.py:
columns with their types, NOT NULL and defaults, keys, unique columns, foreign keys, checks,
indexes, views, triggers); the schema the migrations before the one list made (recorded in
tests/postgres/shipped) made again by its steps; a database of that schema holding a year of
play upgraded in place, every table's every row kept (and what later steps summed or indexed
read as defined); and old data carried over from every earlier step."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import sqlite3
import time
import tomllib
from collections import Counter
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bench.year_data import Scale, generate, load_postgres, load_sqlite
from bot.store.postgres import open_postgres
from bot.store.postgres.connection import Database
from bot.store.retention import WEEK
from bot.store.schema import DELTAS, ENGINES, LATEST, SHARED, engine_of, numbers
from bot.store.score_store import Board
from bot.store.sql.connection import Connection, numbered
from bot.store.sqlite import open_sqlite
from bot.store.sqlite.database import Database as SqliteDatabase
from bot.store.sqlite.schema import apply, statements
from bot.store.stores import Stores
from tests.bot.scoring import expected_chat_weeks, expected_records
from tests.postgres import PostgresServer, new_database
from tests.postgres.schemas import Shape, postgres_shape, sqlite_shape

CHAT = -500
ROOT = Path(__file__).resolve().parents[2]
SHIPPED = Path(__file__).parent / "shipped"
RECORDED = 21  # the version the recordings hold
# SQLite let a rating scale's key be NULL until step 22 made it NOT NULL, as PostgreSQL's is
KEYED_SCALES = 22


def test_every_file_is_a_step_for_both_engines_or_one():
    """A file the runner would pass over (a misspelt engine, a stray note) is an error here,
    and so is one a wheel would leave out (pyproject's package data)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packaged = project["tool"]["setuptools"]["package-data"]["bot.store.schema"]
    assert numbers() == tuple(range(1, LATEST + 1))
    for entry in DELTAS.iterdir():
        assert entry.name.isdigit(), entry.name
    for number in numbers():
        names = [entry.name for entry in (DELTAS / str(number)).iterdir()]
        assert names, number
        for name in names:
            assert name.endswith(SHARED) or engine_of(name) in ENGINES, (number, name)
            assert any(fnmatch(f"delta/{number}/{name}", pattern) for pattern in packaged), name


async def test_migrations_from_empty_then_nothing_twice(postgres_server: PostgresServer):
    url = await new_database(postgres_server)
    stores = await open_postgres(url)
    assert await stores.rounds.db.version() == LATEST
    await stores.close()
    again = await open_postgres(url)
    rows = await again.rounds.db.fetch("SELECT number FROM schema_migrations ORDER BY number")
    assert rows == [(n,) for n in range(1, LATEST + 1)]
    await again.close()


async def test_processes_starting_together_migrate_once(postgres_server: PostgresServer):
    url = await new_database(postgres_server)
    opened = await asyncio.gather(*(open_postgres(url) for _ in range(4)))
    for stores in opened:
        assert await stores.rounds.db.version() == LATEST
    rows = await opened[0].rounds.db.fetch("SELECT COUNT(*) FROM schema_migrations")
    assert rows == [(LATEST,)]
    await asyncio.gather(*(stores.close() for stores in opened))


def sqlite_at(version: int) -> Shape:
    connection = sqlite3.connect(":memory:")
    try:
        apply(connection, version)
        return sqlite_shape(connection)
    finally:
        connection.close()


async def postgres_at(server: PostgresServer, version: int) -> Shape:
    url = await new_database(server)
    database = await Database.open(url, migrate_to=version)
    await database.close()
    return await postgres_shape(url)


@pytest.mark.parametrize("version", range(1, LATEST + 1))
async def test_the_schemas_are_alike_at_every_version(postgres_server, version):
    """Every table's columns in order with their types (SQLite's names for PostgreSQL's), NOT
    NULL, defaults and numbering; keys, unique columns, foreign keys with their actions, checks;
    every index's columns, order and condition; every view's columns; every trigger's table
    and events: the dialects differ, the schema does not."""
    sqlite = sqlite_at(version)
    if version < KEYED_SCALES and "rating_scales" in sqlite.tables:
        columns = sqlite.tables["rating_scales"].columns
        assert columns[0].name == "game" and not columns[0].not_null
        columns[0] = dataclasses.replace(columns[0], not_null=True)
    assert sqlite == await postgres_at(postgres_server, version)


CHANGES = {  # what a drift would look like, as the text of the latest schema changed
    "a type": ("points INTEGER NOT NULL,\n    message_id", "points REAL NOT NULL,\n    message_id"),
    "NOT NULL": ("hand TEXT NOT NULL", "hand TEXT"),
    "a default": ("type TEXT NOT NULL DEFAULT 'group'", "type TEXT NOT NULL DEFAULT 'chat'"),
    "a check": ("rounds >= 1", "rounds >= 2"),
    "an index's order": ("points DESC, wins DESC, user_id) WHERE",
                         "points, wins DESC, user_id) WHERE"),
    "an index's condition": ("WHERE points > 0", "WHERE points > 1"),
    "a foreign key's action": ("REFERENCES matches(id) ON DELETE CASCADE",
                               "REFERENCES matches(id) ON DELETE SET NULL"),
    "a unique column": ("round_id INTEGER NOT NULL UNIQUE", "round_id INTEGER NOT NULL"),
    "a trigger's event": ("AFTER DELETE ON scores", "BEFORE DELETE ON scores"),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_the_comparison_sees_a_drift(change):
    """The shapes tell apart what the parity test must see."""
    old, new = CHANGES[change]
    connection = sqlite3.connect(":memory:")
    apply(connection, LATEST)
    made = connection.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                              "AND name NOT LIKE 'sqlite_%' ORDER BY rowid").fetchall()
    connection.close()
    assert any(old in sql for (sql,) in made), change
    drifted = sqlite3.connect(":memory:")
    try:
        for (sql,) in made:
            drifted.execute(sql.replace(old, new))
        assert sqlite_shape(drifted) != sqlite_at(LATEST)
    finally:
        drifted.close()


# --- what the migrations before the one list made -------------------------------------------

def recorded_sqlite(path: Path) -> None:
    """A SQLite file of the recorded schema, as those migrations left it at version 21."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("BEGIN")
        for statement in statements((SHIPPED / "schema_21.sql.sqlite").read_text()):
            connection.execute(statement)
        connection.execute("COMMIT")
    finally:
        connection.close()


async def recorded_postgres(server: PostgresServer) -> str:
    """A PostgreSQL database of the recorded schema (and its rows: the lease's, the versions'),
    as those migrations left it at version 21; its URL."""
    url = await new_database(server)
    connection = await asyncpg.connect(url)
    try:
        await connection.execute((SHIPPED / "schema_21.sql.postgres").read_text())
    finally:
        await connection.close()
    return url


def sqlite_logic(connection: sqlite3.Connection) -> dict[str, str]:
    """Each trigger's statement, its white space folded."""
    return {name: " ".join(sql.replace("!=", "<>").split()) for name, sql in connection.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")}


async def postgres_logic(url: str) -> dict[str, Any]:
    """Each function's body and each trigger's definition, white space folded."""
    connection = await asyncpg.connect(url)
    try:
        functions = await connection.fetch(
            "SELECT proname, prosrc, pg_get_function_arguments(oid) AS arguments, "
            "provolatile::text AS volatility, procost FROM pg_proc "
            "WHERE pronamespace = 'public'::regnamespace")
        triggers = await connection.fetch(
            "SELECT tgname || ' ON ' || tgrelid::regclass::text AS name, "
            "pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE NOT tgisinternal")
    finally:
        await connection.close()
    logic: dict[str, Any] = {row["proname"]: (" ".join(row["prosrc"].split()), row["arguments"],
                                              row["volatility"], row["procost"])
                             for row in functions}
    logic |= {row["name"]: row["definition"] for row in triggers}
    return logic


def test_the_steps_make_the_schema_sqlite_files_hold(tmp_path: Path):
    """The recorded file and one made by the steps to 21: the same shape and the same
    triggers, word for word (the views are said once for both engines now: the same columns,
    and the same rows, tests/postgres/test_same_scores.py)."""
    recorded_sqlite(tmp_path / "recorded.sqlite3")
    old = sqlite3.connect(tmp_path / "recorded.sqlite3")
    new = sqlite3.connect(":memory:")
    try:
        apply(new, RECORDED)
        assert old.execute("PRAGMA user_version").fetchone() == (RECORDED,)
        assert sqlite_shape(new) == sqlite_shape(old)
        assert sqlite_logic(new) == sqlite_logic(old)
        declared = ("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index') "
                    "AND sql IS NOT NULL")
        assert {n: " ".join(s.split()) for n, s in new.execute(declared)} == \
            {n: " ".join(s.replace("!=", "<>").split()) for n, s in old.execute(declared)}
    finally:
        old.close()
        new.close()


async def test_the_steps_make_the_schema_postgres_databases_hold(postgres_server):
    """The recorded database and one made by the steps to 21: the same shape, the same
    functions and triggers word for word, and the same versions recorded."""
    old = await recorded_postgres(postgres_server)
    url = await new_database(postgres_server)
    database = await Database.open(url, migrate_to=RECORDED)
    try:
        assert await database.version() == RECORDED
    finally:
        await database.close()
    assert await postgres_shape(url) == await postgres_shape(old)
    assert await postgres_logic(url) == await postgres_logic(old)
    connection = await asyncpg.connect(old)
    try:
        assert [row[0] for row in await connection.fetch(
            "SELECT number FROM schema_migrations ORDER BY number")] == \
            list(range(1, RECORDED + 1))
    finally:
        await connection.close()


# --- a year of play upgraded in place -------------------------------------------------------

# a year of play, smaller than the bench's (bench/bench_year.py) but a year: every day of it, every
# table that grows with play
YEAR = dataclasses.replace(Scale().shrunk(0.003), heavy=2, heavy_answers=1000)


def every_row_sqlite(path: Path) -> dict[str, Counter[tuple]]:
    """Every table's rows (each as many times as it stands)."""
    connection = sqlite3.connect(path)
    try:
        names = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        tables = {}
        for name in names:
            cursor = connection.execute(f"SELECT * FROM {name}")
            columns = [column[0] for column in cursor.description]
            tables[name] = Counter(tuple(zip(columns, row, strict=True)) for row in cursor)
        return tables
    finally:
        connection.close()


async def every_row_postgres(url: str) -> dict[str, Counter[tuple]]:
    """Every table's rows but the versions' (each as many times as it stands)."""
    connection = await asyncpg.connect(url)
    try:
        names = [row[0] for row in await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
            "AND tablename <> 'schema_migrations'")]
        return {name: Counter(tuple(row.items()) for row in await connection.fetch(
            f"SELECT * FROM {name}")) for name in names}
    finally:
        await connection.close()


def filled(rows: dict[str, Counter[tuple]]) -> None:
    """The year is in: the tables that grow with play have rows."""
    for table in ("users", "chats", "rounds", "answers", "scores", "player_totals",
                  "board_steps", "answered_rounds", "daily_results", "player_ratings",
                  "rating_days", "rating_scales", "matches", "match_rounds"):
        assert rows[table], table


# a column a later step added and filled for every row it found: the daily's game (every
# result before step 30 was of 24's daily)
FILLED = {("daily_results", "game"): "24"}


def kept_all(after: dict[str, Counter[tuple]], before: dict[str, Counter[tuple]]) -> None:
    """Every row of every table kept, each value of every column it had (a row is its
    (column, value) pairs); a column a later step added holds its default (NULL: nothing
    is owed, say, for an update claimed before step 24), or what the step filled in
    (FILLED); a table a later step made is there, empty."""
    def kept(name: str, rows: Counter[tuple], then: Counter[tuple]) -> Counter[tuple]:
        columns = {column for row in then for column, _ in row}
        if not columns:
            return rows
        projected: Counter[tuple] = Counter()
        for row, count in rows.items():
            assert all(value is None or value == FILLED.get((name, column))
                       for column, value in row if column not in columns), row
            projected[tuple(pair for pair in row if pair[0] in columns)] += count
        return projected

    assert {name: kept(name, rows, before[name]) for name, rows in after.items()
            if name in before} == before
    assert {name: rows for name, rows in after.items()
            if name not in before and name not in SUMMED and rows} == {}
    week_summed(after, before)
    chats_rated(after, before)
    chat_weeks_summed(after, before)


# the tables a later step made and filled from what it found (step 31's week's totals, step
# 32's chats' ratings, step 39's groups' weeks)
SUMMED = frozenset({"week_start", "week_totals", "week_steps", "chat_ratings", "chat_weeks"})


def chat_weeks_summed(after: dict[str, Counter[tuple]], before: dict[str, Counter[tuple]]
                      ) -> None:
    """Step 39's rows are the year's won rounds counted by group and calendar week, counted
    here by the calendar (tests/bot/scoring.py)."""
    won = [(dict(row)["chat_id"], dict(row)["ended_at"]) for row, count in before["rounds"].items()
           if dict(row)["status"] == "won" for _ in range(count)]
    wanted = expected_chat_weeks(won)
    assert len({chat for chat, _ in wanted}) > 1 and len(wanted) > 52, "a year of groups' weeks"
    assert after["chat_weeks"] == Counter(
        (("chat_id", chat), ("week", week), ("wins", wins))
        for (chat, week), wins in wanted.items())


def chats_rated(after: dict[str, Counter[tuple]], before: dict[str, Counter[tuple]]) -> None:
    """Step 32's rows are each chat's players (their rows of scores) in each game with their
    latest season's rating there (and step 33's uncertainty of it), worked out here apart from
    its SQL."""
    latest: dict[tuple[int, str], dict] = {}
    for row in before["player_ratings"]:
        rated = dict(row)
        key = (rated["user_id"], rated["game"])
        if key not in latest or rated["season"] > latest[key]["season"]:
            latest[key] = rated
    wanted: Counter[tuple] = Counter()
    for row in before["scores"]:
        played = dict(row)
        rated = latest.get((played["user_id"], played["game"]))
        if rated is not None:
            wanted[(("chat_id", played["chat_id"]), ("game", played["game"]),
                    ("user_id", played["user_id"]), ("season", rated["season"]),
                    ("rating", rated["rating"]), ("responses", rated["responses"]),
                    ("uncertainty", rated["uncertainty"]))] += 1
    assert wanted, "the year has rated players"
    assert after["chat_ratings"] == wanted


def week_summed(after: dict[str, Counter[tuple]], before: dict[str, Counter[tuple]]) -> None:
    """Step 31's week's totals are the year's week, summed here apart from its SQL: each
    winner's points and wins from the rounds won since the week's start (seven days before the
    upgrade), per game and over all games (''), a winner whose /forget is under way left out;
    and the players at each (points, wins)."""
    [start] = after["week_start"]
    since = dict(start)["since"]
    assert abs(since - (time.time() - WEEK)) < 3600
    forgetting = {dict(row)["user_id"] for row in before["forgets"]}
    sums: dict[tuple[str, int], list[int]] = {}
    for row, count in before["rounds"].items():
        won = dict(row)
        if (won["status"] != "won" or won["winner_id"] is None or won["ended_at"] < since
                or won["winner_id"] in forgetting):
            continue
        for kind in ("", won["game"]):
            summed = sums.setdefault((kind, won["winner_id"]), [0, 0])
            summed[0] += won["awarded"] * count
            summed[1] += count
    assert sums, "the year has a week"
    assert after["week_totals"] == Counter(
        (("game", kind), ("user_id", user), ("points", points), ("wins", wins))
        for (kind, user), (points, wins) in sums.items())
    steps = Counter((kind, points, wins) for (kind, _), (points, wins) in sums.items()
                    if points > 0)
    assert after["week_steps"] == Counter(
        (("game", kind), ("points", points), ("wins", wins), ("players", players))
        for (kind, points, wins), players in steps.items())


async def records_read(stores: Stores, before: dict[str, Counter[tuple]]) -> None:
    """Step 33's indexes, made on the year, answer the busiest groups' records as their scores
    define them (tests/bot/scoring.py), worked out here apart from its SQL."""
    scores = {}
    for row in before["scores"]:
        played = dict(row)
        scores[(played["chat_id"], played["user_id"], played["game"])] = (
            played["points"], played["wins"], played["rounds_played"], played["fastest_win"],
            played["current_streak"], played["best_streak"])
    hidden = {dict(row)["user_id"] for row in before["forgets"]}
    busiest = Counter(chat for chat, _, _ in scores).most_common(5)
    assert busiest, "the year has groups"
    for chat, _ in busiest:
        assert [(r.game, r.kind, r.user_id, r.value)
                for r in await stores.pages.group_records(chat)] == \
            expected_records(scores, chat, hidden), chat


@pytest.mark.slow
async def test_a_year_old_sqlite_database_upgrades_in_place(tmp_path: Path):
    path = tmp_path / "year.sqlite3"
    recorded_sqlite(path)
    load_sqlite(path, generate(YEAR))
    before = every_row_sqlite(path)
    filled(before)
    stores = await open_sqlite(path)
    try:
        assert await stores.rounds.db.version() == LATEST
        await records_read(stores, before)
    finally:
        await stores.close()
    kept_all(every_row_sqlite(path), before)
    with sqlite3.connect(path) as upgraded:
        shape = sqlite_shape(upgraded)
    upgraded.close()
    assert shape == sqlite_at(LATEST)


@pytest.mark.slow
async def test_a_year_old_postgres_database_upgrades_in_place(postgres_server):
    """On each server the suite runs (PostgreSQL 18, then 15 in `make test`'s second pass)."""
    url = await recorded_postgres(postgres_server)
    await load_postgres(url, generate(YEAR))
    before = await every_row_postgres(url)
    filled(before)
    stores = await open_postgres(url)
    try:
        assert await stores.rounds.db.version() == LATEST
        versions = await stores.rounds.db.fetch(
            "SELECT number FROM schema_migrations ORDER BY number")
        await records_read(stores, before)
    finally:
        await stores.close()
    assert [row[0] for row in versions] == list(range(1, LATEST + 1))
    kept_all(await every_row_postgres(url), before)
    assert await postgres_shape(url) == await postgres_at(postgres_server, LATEST)


# --- old data from every earlier step -------------------------------------------------------

async def old_rounds(db: Connection, version: int, engine: str) -> None:
    """Two rounds won by Ann with Ben answering, and an open one, written as a bot of that
    version did."""
    def said(sql: str) -> str:
        return numbered(sql) if engine == "postgres" else sql

    await db.run(said("INSERT INTO chats (id, type, title) VALUES (?, 'group', 'G')"), (CHAT,))
    await db.run("INSERT INTO users (id, first_name) VALUES (1, 'Ann'), (2, 'Ben')")
    timed = ", win_seconds = 4.0" if version >= 3 else ""
    for _ in range(2):
        round_id = await db.insert(said(
            "INSERT INTO rounds (chat_id, hand, target, level, points, started_at, deadline) "
            "VALUES (?, '[1, 2, 3, 4]', 24, 'easy', 10, 100.0, 160.0)"), (CHAT,))
        await db.run(said("INSERT INTO answers (round_id, user_id, text, correct, at) "
                          "VALUES (?, 2, '1+2', 0, 101.0)"), (round_id,))
        await db.run(said(
            "UPDATE rounds SET status = 'won', winner_id = 1, awarded = points, ended_at = 104"
            f"{timed} WHERE id = ?"), (round_id,))
    if version == 2:  # version 2 kept scores itself, as its code did when a round closed
        await db.run(said(
            "INSERT INTO scores (chat_id, user_id, points, wins, rounds_played, fastest_win) "
            "VALUES (?, 1, 20, 2, 2, 4.0), (?, 2, 0, 0, 2, NULL)"), (CHAT, CHAT))
    await db.insert(said(
        "INSERT INTO rounds (chat_id, hand, target, level, points, started_at, deadline) "
        "VALUES (?, '[3, 3, 8, 8]', 24, 'hard', 30, 200.0, 260.0)"), (CHAT,))


@pytest.mark.parametrize("version", range(1, LATEST))
@pytest.mark.parametrize("engine", ENGINES)
async def test_migration_from_each_earlier_version(engine: str, version: int, tmp_path: Path,
                                                   request: pytest.FixtureRequest):
    """A database a bot of each earlier version wrote, opened by this one: its scores, its
    open round, and a close that scores as before."""
    if engine == "sqlite":
        where: str = str(tmp_path / "old.sqlite3")
        old: Connection = await SqliteDatabase.open(where, migrate_to=version)
    else:
        where = await new_database(request.getfixturevalue("postgres_server"))
        old = await Database.open(where, migrate_to=version)
    await old_rounds(old, version, engine)
    await old.close()  # type: ignore[attr-defined]
    upgraded = await (open_sqlite(where) if engine == "sqlite" else open_postgres(where))
    try:
        assert await upgraded.rounds.db.version() == LATEST  # type: ignore[attr-defined]
        [ann] = await upgraded.scores.stats(CHAT, 1)
        [ben] = await upgraded.scores.stats(CHAT, 2)
        assert (ann.game, ann.points, ann.wins, ann.rounds_played) == ("24", 20, 2, 2)
        assert ann.fastest_win == 4.0
        assert (ben.points, ben.rounds_played) == (0, 2)
        [still_open] = await upgraded.rounds.open_rounds()
        assert (still_open.game, still_open.hand, still_open.lang) == ("24", (3, 3, 8, 8), "en")
        assert await upgraded.rounds.close_round(still_open.id, "won", 205.0, 2, "8/(3-8/3)",
                                                 30, 5.0)
        [ben] = await upgraded.scores.stats(CHAT, 2)
        assert (ben.points, ben.wins, ben.rounds_played, ben.fastest_win) == (30, 1, 3, 5.0)
        if version < 5:  # step 5 counts the rounds that ended before it as announced
            assert [r.round.id for r in await upgraded.rounds.unannounced()] == [still_open.id]
    finally:
        await upgraded.close()


WEEK_KEPT = 31  # the step that makes the week's totals and fills them from this week's wins


async def analysed(url: str, tables: tuple[str, ...]) -> dict[str, int]:
    """How many times each table was analysed by a statement (autovacuum's are apart)."""
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch("SELECT relname, analyze_count FROM pg_stat_user_tables "
                                      "WHERE relname = ANY($1::text[])", list(tables))
    finally:
        await connection.close()
    return {row["relname"]: row["analyze_count"] for row in rows}


async def test_a_step_leaves_the_tables_it_wrote_analysed(postgres_server):
    """The week's totals, made and filled from this week's wins by step 31, have the planner's
    statistics once the upgrade ends: before, none until autovacuum came by, and every chat's
    week read them all and sorted them meanwhile (docs/benchmarks.md). A table no step wrote
    is left to autovacuum."""
    url = await new_database(postgres_server)
    old = await Database.open(url, migrate_to=WEEK_KEPT - 1)
    await old.run("INSERT INTO chats (id, type, title) VALUES ($1, 'group', 'G')", (CHAT,))
    now = time.time()
    for user_id in range(1, 41):
        await old.run("INSERT INTO users (id, first_name) VALUES ($1, 'P')", (user_id,))
        round_id = await old.insert(
            "INSERT INTO rounds (chat_id, hand, target, level, points, started_at, deadline) "
            "VALUES ($1, '[1, 2, 3, 4]', 24, 'easy', 10, $2, $3)",
            (CHAT, now - 3600 - user_id, now - 3500))
        await old.run("UPDATE rounds SET status = 'won', winner_id = $1, awarded = points, "
                      "ended_at = $2, win_seconds = 4.0 WHERE id = $3",
                      (user_id, now - 3590 - user_id, round_id))
    await old.close()
    before = await analysed(url, ("week_totals", "answers"))
    assert "week_totals" not in before  # made by the step
    upgraded = await open_postgres(url)
    try:
        board = await upgraded.scores.board(Board(since=now - WEEK))
    finally:
        await upgraded.close()
    assert len(board) == 10
    after = await analysed(url, ("week_totals", "week_steps", "answers"))
    assert after["week_totals"] >= 1 and after["week_steps"] >= 1
    assert after["answers"] == before["answers"]


def test_no_step_file_says_a_statement_twice():
    """Within a step, a statement is said once: in the shared file, or in each engine's where
    they differ (a statement both engine files hold word for word belongs in the shared one)."""
    for number in numbers():
        said: dict[str, set[str]] = {}
        for engine in ENGINES:
            for statement in statements(re.sub(r"\$\$.*?\$\$", "", _engine_text(
                    number, engine), flags=re.S)):
                said.setdefault(" ".join(statement.split()), set()).add(engine)
        assert [s for s, engines in said.items() if len(engines) > 1] == [], number


def _engine_text(number: int, engine: str) -> str:
    return "\n".join((DELTAS / str(number) / entry.name).read_text()
                     for entry in (DELTAS / str(number)).iterdir()
                     if engine_of(entry.name) == engine)
