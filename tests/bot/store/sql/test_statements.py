"""The stores' statement tables (bot/store/sql): each written once in `?` style, numbered for
PostgreSQL without any other change, and every one accepted by SQLite over the migrated schema
(tests/postgres/test_statements.py prepares the numbered ones on a real PostgreSQL)."""

from __future__ import annotations

import dataclasses
import re
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from bot.store.sql import matches, people, rounds, scores, updates
from bot.store.sql.connection import numbered
from bot.store.sqlite.rounds import GUESS
from bot.store.sqlite.schema import apply

TABLES = (rounds, people, scores, matches, updates)


def named_statements(table: Any) -> Iterator[tuple[str, str]]:
    """(field name, statement) for every statement of a table, the tuples' ones numbered."""
    for field in dataclasses.fields(table):
        value = getattr(table, field.name)
        for index, sql in enumerate(value if isinstance(value, tuple) else (value,)):
            yield f"{field.name}[{index}]", sql


def test_numbered_counts_the_placeholders_in_order():
    assert numbered("UPDATE t SET a = ?, b = ? WHERE id IN (?, ?)") == \
        "UPDATE t SET a = $1, b = $2 WHERE id IN ($3, $4)"
    assert numbered("SELECT 1") == "SELECT 1"


@pytest.mark.parametrize("module", TABLES, ids=lambda module: module.__name__.split(".")[-1])
def test_postgres_runs_the_same_statements_but_for_placeholders(module):
    written = dict(named_statements(module.QMARK))
    rendered = dict(named_statements(module.NUMBERED))
    assert written.keys() == rendered.keys() and written
    for name, sql in written.items():
        assert "$" not in sql, name
        numbers = [int(n) for n in re.findall(r"\$(\d+)", rendered[name])]
        assert numbers == list(range(1, sql.count("?") + 1)), name
        assert re.sub(r"\$\d+", "?", rendered[name]) == sql, name


def test_sqlite_accepts_every_statement_over_the_migrated_schema():
    connection = sqlite3.connect(":memory:")
    apply(connection)
    checked = 0
    for module in TABLES:
        for _name, sql in named_statements(module.QMARK):
            connection.execute("EXPLAIN " + sql, [None] * sql.count("?"))  # prepared, not run
            checked += 1
    connection.execute("EXPLAIN " + GUESS, [None] * GUESS.count("?"))
    assert checked >= 35
    connection.close()
