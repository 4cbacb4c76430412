"""SQLite's plan of every statement the stores run, and of every statement inside the
schema's triggers (issue 40): none reads a whole table that grows with play, unless the
catalogue (tests/bot/plans.py) says why; the boards read in order; every foreign key has an
index, so deleting a person or their private chat checks it by index. Each index of the
schema is dropped in turn: some check must then fail, or the index serves nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from bot.store.sqlite.schema import apply
from tests.bot import plans


def migrated() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    apply(connection)
    return connection


@pytest.fixture(scope="module")
def schema() -> Iterator[sqlite3.Connection]:
    connection = migrated()
    yield connection
    connection.close()


STATEMENTS = plans.sqlite_statements()


def every_fault(connection: sqlite3.Connection) -> dict[str, list[str]]:
    """What each statement, trigger statement and foreign key does wrong (only those that do)."""
    found = {name: plans.sqlite_faults(connection, name, sql)
             for name, sql in STATEMENTS.items()}
    found |= {name: plans.sqlite_faults(connection, name, sql)
              for name, sql in plans.trigger_statements(connection)}
    found["(foreign keys)"] = plans.sqlite_foreign_keys_unindexed(connection)
    return {name: faults for name, faults in found.items() if faults}


@pytest.mark.parametrize("name", sorted(STATEMENTS))
def test_no_statement_reads_a_whole_growing_table(schema, name):
    assert plans.sqlite_faults(schema, name, STATEMENTS[name]) == []


def test_nor_does_any_statement_inside_a_trigger(schema):
    found = list(plans.trigger_statements(schema))
    assert len(found) >= 20  # scoring (migrations 3, 5) and the totals (migration 12)
    assert {name: faults for name, sql in found
            if (faults := plans.sqlite_faults(schema, name, sql))} == {}


def test_every_foreign_key_is_checked_by_an_index(schema):
    assert plans.sqlite_foreign_keys_unindexed(schema) == []


def test_every_statement_of_the_stores_is_in_the_catalogue():
    """A string of SQL in bot/store that no catalogued statement holds fails here: add it to
    the catalogue (tests/bot/plans.py) and it is checked like the others."""
    # keyed apart: a statement PostgreSQL runs in words of its own (pages.themed) keeps both
    assert plans.unknown_literals({**STATEMENTS, **{
        f"postgres:{name}": sql for name, sql in plans.postgres_statements().items()}}) == []
    assert len(STATEMENTS) >= 70
    assert set(plans.WHOLE) | plans.ORDERED <= set(STATEMENTS)


def test_the_catalogue_catches_a_statement_it_does_not_know(tmp_path):
    """A statement written in a store's function, as the scan reads the sources."""
    store = tmp_path / "store"
    (store / "sql").mkdir(parents=True)
    (store / "sql" / "people.py").write_text(
        (plans.STORE / "sql" / "people.py").read_text()
        + '\n\ndef _hidden() -> str:\n    return "SELECT id FROM users WHERE first_name = ?"\n')
    assert plans.unknown_literals(STATEMENTS, store) == ["store/sql/people.py:" + str(
        len((store / "sql" / "people.py").read_text().splitlines()))]


def indexes(connection: sqlite3.Connection) -> list[str]:
    return [row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
        "ORDER BY name")]


# Indexes no check needs; each says why it stays.
UNREAD: dict[str, str] = {
    "player_ratings_settled": "ratings.place counts the settled players rated above the asker "
                              "in it alone; without it the board's index serves, reading each "
                              "row for its responses (a season's worth on a year-old file: "
                              "test_a_settled_players_place_is_counted_in_their_index)",
    "hand_ratings_by_kind": "ratings.hands reads one kind of hand (count of numbers, target) at "
                            "start-up; without it the key's game alone reads every hand of the "
                            "game, which the checks do not call a whole table",
}


@pytest.mark.parametrize("index", indexes(migrated()))
def test_each_index_is_what_keeps_some_statement_off_a_whole_table(index):
    connection = migrated()
    try:
        assert every_fault(connection) == {}
        connection.execute(f"DROP INDEX {index}")
        broken = every_fault(connection)
        if index in UNREAD:
            assert broken == {}, f"{index} is read after all: take it out of UNREAD"
        else:
            assert broken, f"nothing needs {index}"
    finally:
        connection.close()


def test_a_settled_players_place_is_counted_in_their_index():
    """The every-chat rating board's place of a settled asker (schema step 29): the engine sees
    the statement's `responses >= 10` implies the partial index's, and counts in it alone."""
    connection = migrated()
    try:
        sql = STATEMENTS["ratings.place"]
        plan = " ".join(row[3] for row in connection.execute(
            f"EXPLAIN QUERY PLAN {sql}", [None] * sql.count("?")))
    finally:
        connection.close()
    assert "INDEX player_ratings_settled" in plan, plan
