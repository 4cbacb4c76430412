"""PostgreSQL's plan of every statement the stores run (issue 40), as
tests/bot/store/sqlite/test_plans.py checks SQLite's: the generic plan each prepared statement gets
(what asyncpg's cached statements run), with sequential scans priced out (enable_seqscan off), so
that a Seq Scan of a large table, or an index read end to end, shows only where no index can serve
the statement. Every foreign key has an index; dropping any index of the schema breaks some
check."""

from __future__ import annotations

import json

import asyncpg
import pytest

from bench.year_data import Scale, generate, load_later_postgres, load_postgres
from bot.play.pages.group import week_of
from bot.store.sql.connection import arity
from bot.store.sql.scores import WEEK_NAMES
from tests.bot import plans
from tests.postgres import PostgresServer, new_database

STATEMENTS = plans.postgres_statements()
SUMMARISED = 19  # the migration that fills answered_rounds: the bulk load sets no trigger off


async def generic_plan(connection: asyncpg.Connection, sql: str,
                       sample: tuple | None = None) -> dict:
    """EXPLAIN of the statement's generic plan (its parameters NULL: they are not planned on),
    or with `sample` values, the plan made for them (PostgreSQL plans a range of time by the
    values it is given: its generic plan guesses a third of the table for any range)."""
    await connection.execute(f"PREPARE checked AS {sql}")
    try:
        count = arity(sql)
        arguments = f"({', '.join(['NULL'] * count)})" if count else ""
        if sample is None:
            found = await connection.fetchval(f"EXPLAIN (FORMAT JSON) EXECUTE checked"
                                              f"{arguments}")
        else:
            await connection.execute("SET plan_cache_mode = force_custom_plan")
            values = ", ".join(f"'{v}'" if isinstance(v, str) else repr(v) for v in sample)
            found = await connection.fetchval(f"EXPLAIN (FORMAT JSON) EXECUTE checked({values})")
            await connection.execute("SET plan_cache_mode = force_generic_plan")
    finally:
        await connection.execute("DEALLOCATE checked")
    return json.loads(found)[0]


YEAR = generate(Scale().shrunk(0.01))
WEEK_AGO = YEAR.now - 7 * 86400.0
BUSIEST, PLAYER = int(YEAR.group_ids[0]), int(YEAR.members[0][0])
# What the week's boards are asked with: (since, the busiest chat, a game), then the limit or
# the player; every chat's by their parameters' names (bot.store.sql.scores.WEEK_NAMES).
ASKED = {"since": WEEK_AGO, "game": "24", "limit": 10, "user": PLAYER}
SAMPLES = {
    **{f"scores.{kind}[{4 + by_game}]": tuple(ASKED[name] for name in names[by_game])
       for kind, names in WEEK_NAMES.items() for by_game in (0, 1)},
    "scores.board[6]": (WEEK_AGO, BUSIEST, 10), "scores.board[7]": (WEEK_AGO, BUSIEST, "24", 10),
    "scores.placing[6]": (WEEK_AGO, BUSIEST, PLAYER),
    "scores.placing[7]": (WEEK_AGO, BUSIEST, "24", PLAYER),
    # a group's page's 52 weeks (schema step 39 numbers a week from 1970's)
    "pages.group_weeks": (BUSIEST, week_of(YEAR.now) - 51, week_of(YEAR.now) + 1),
}


async def unindexed_foreign_keys(connection: asyncpg.Connection) -> list[str]:
    """Foreign keys whose columns lead no index of their table (partial ones count: the
    check's `column = $1` implies `column IS NOT NULL`)."""
    rows = await connection.fetch(
        "SELECT c.conrelid::regclass::text AS child, c.conkey::int2[] AS columns FROM "
        "pg_constraint c WHERE c.contype = 'f' AND NOT EXISTS (SELECT 1 FROM pg_index i "
        "WHERE i.indrelid = c.conrelid AND "
        "(i.indkey::int2[])[0:array_length(c.conkey, 1) - 1] = c.conkey::int2[])")
    return sorted(f"{row['child']}{list(row['columns'])}" for row in rows)


async def leading_columns(connection: asyncpg.Connection) -> dict[str, str]:
    """Each index of a large table (the primary keys' too) by name: its first column."""
    rows = await connection.fetch(
        "SELECT c.relname AS index, a.attname AS first FROM pg_index i "
        "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid "
        "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] "
        "WHERE t.relname = ANY($1::text[])", sorted(plans.LARGE))
    return {row["index"]: row["first"] for row in rows}


async def faults(connection: asyncpg.Connection) -> dict[str, list[str]]:
    leading = await leading_columns(connection)
    found = {name: plans.postgres_faults(
        name, await generic_plan(connection, sql, SAMPLES.get(name)), leading)
        for name, sql in STATEMENTS.items()}
    found["(foreign keys)"] = await unindexed_foreign_keys(connection)
    return {name: wrong for name, wrong in found.items() if wrong}


@pytest.fixture
async def checked(postgres_server: PostgresServer):
    """A connection to a freshly migrated database holding a small year of play (so that the
    planner's statistics have a year's proportions), planning without sequential scans."""
    from bot.store.postgres import open_postgres

    url = await new_database(postgres_server)
    await (await open_postgres(url, migrate_to=SUMMARISED - 1)).close()
    await load_postgres(url, YEAR)
    await (await open_postgres(url)).close()  # the pages' summary filled from the year
    await load_later_postgres(url, YEAR)  # what later steps keep: achievements, tournaments…
    connection = await asyncpg.connect(url)
    await connection.execute("ANALYZE answered_rounds")
    await connection.execute("SET enable_seqscan = off")
    await connection.execute("SET plan_cache_mode = force_generic_plan")
    try:
        yield connection
    finally:
        await connection.close()


async def test_no_statement_reads_a_whole_growing_table(checked):
    assert len(STATEMENTS) >= 75 and set(SAMPLES) == set(plans.WINDOWED)
    assert await faults(checked) == {}


async def test_the_checks_see_a_sequential_scan(checked):
    plan = await generic_plan(checked, "SELECT id FROM answers WHERE text = $1")
    assert plans.postgres_faults("x", plan, {}) == ["reads all of answers"]
    leading = await leading_columns(checked)
    assert leading["rounds_won_in_chat"] == "chat_id"
    plan = await generic_plan(checked, "SELECT id FROM rounds WHERE status = 'won' "
                                       "AND ended_at > $1")
    assert plans.postgres_faults("x", plan, {**leading, "rounds_won_by_time": "nothing"})


# Indexes no check needs on PostgreSQL; each says why it stays.
UNREAD = {
    "player_ratings_settled": "ratings.place counts the settled players above the asker in it "
                              "alone; without it the board's index serves, each row read for "
                              "its responses (test_a_settled_players_place_reads_their_index)",
    "open_rounds_by_keys": "live.REACHING finds the rounds a request reaches by it, where many "
                           "are open; this year has none open, so any index of the open "
                           "rounds serves it as cheaply "
                           "(tests/bot/play/guards/test_live_across_workers.py "
                           "checks the plan with rounds open)",
    "hand_ratings_by_kind": "ratings.hands reads one kind of hand at start-up; without it the "
                            "key's game alone reads every hand of the game (tests/bot/"
                            "test_plans.py, UNREAD)",
}


async def test_each_index_is_what_keeps_some_statement_off_a_whole_table(checked):
    names = [row[0] for row in await checked.fetch(
        "SELECT i.indexname FROM pg_indexes i WHERE i.schemaname = 'public' AND NOT EXISTS "
        "(SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname) ORDER BY 1")]
    assert len(names) >= 19
    needless, unread = [], []
    for index in names:
        transaction = checked.transaction()
        await transaction.start()
        try:
            await checked.execute(f"DROP INDEX {index}")
            broken = await faults(checked)
        finally:
            await transaction.rollback()
        if index in UNREAD and broken:
            unread.append(index)
        elif index not in UNREAD and not broken:
            needless.append(index)
    assert (needless, unread) == ([], [])


def index_names(node: dict) -> set[str]:
    """Every index a plan's nodes read."""
    found = {node["Index Name"]} if "Index Name" in node else set()
    for child in node.get("Plans", []):
        found |= index_names(child)
    return found


async def test_a_settled_players_place_reads_their_index(checked):
    """The every-chat rating board's place of a settled asker counts in schema step 29's
    partial index: the statement's `responses >= 10` implies the index's."""
    plan = await generic_plan(checked, STATEMENTS["ratings.place"])
    assert "player_ratings_settled" in index_names(plan["Plan"]), plan
