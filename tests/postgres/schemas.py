"""A database's schema described alike for SQLite and PostgreSQL, so that the two can be compared:
each table's columns with their types (in SQLite's names, bot.store.schema.sqlite_words), NOT NULL,
defaults and numbering; its keys, unique columns, foreign keys and checks; each index with its
columns, order and condition; each view's columns; each trigger's table and events. What only
PostgreSQL has by design (the lease's and partitions' fences, the workers' index) is named in
POSTGRES_ONLY and left out."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field

import asyncpg

from bot.store.schema import sqlite_words

# PostgreSQL's own: the fences on every write (steps 9 and 20), with their functions, and the index
# of the open rounds by the keys a worker's request reaches them by (step 21)
POSTGRES_ONLY = {"triggers": {"leader_fence", "partition_fence"},
                 "indexes": {"open_rounds_by_keys"}}
# information_schema's names for PostgreSQL's types, as the schema's files write them
POSTGRES_NAMES = {"bigint": "BIGINT", "integer": "INTEGER", "smallint": "SMALLINT",
                  "text": "TEXT", "double precision": "DOUBLE PRECISION",
                  "timestamp with time zone": "TIMESTAMPTZ"}
ACTIONS = {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL",
           "d": "SET DEFAULT"}


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # in SQLite's names
    not_null: bool
    default: str | None  # the expression, without PostgreSQL's casts
    numbered: bool  # the database numbers it (an identity; SQLite's AUTOINCREMENT)


@dataclass
class Table:
    columns: list[Column] = field(default_factory=list)
    key: tuple[str, ...] = ()
    covering_key: bool = False  # the key's index holds the row (INCLUDE; WITHOUT ROWID)
    unique: set[tuple[str, ...]] = field(default_factory=set)
    foreign: set[tuple] = field(default_factory=set)  # (columns, table, columns, update, delete)
    checks: set[str] = field(default_factory=set)


@dataclass
class Shape:
    tables: dict[str, Table] = field(default_factory=dict)
    indexes: dict[str, tuple] = field(default_factory=dict)  # (table, unique, keys, condition)
    views: dict[str, list[str]] = field(default_factory=dict)
    triggers: dict[str, set[tuple[str, str, str]]] = field(default_factory=dict)


def expression(text: str | None) -> str | None:
    """An expression as both engines may print it: no casts, `= ANY (ARRAY[..])` as IN, no
    parentheses, spaces or case."""
    if text is None:
        return None
    text = re.sub(r"::[a-z]+(?: [a-z]+)*(?:\[\])?", "", text)
    text = re.sub(r"= ANY \(ARRAY\[(.*?)\]\)", r"IN (\1)", text)
    return re.sub(r"[()\s]", "", text).lower().replace("!=", "<>")


def bracketed(text: str, start: int) -> str:
    """What stands between the parenthesis at `start` and the one that closes it."""
    depth = 0
    for at in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[at], 0)
        if depth == 0:
            return text[start + 1:at]
    raise ValueError(f"unbalanced: {text[start:]}")


# --- SQLite --------------------------------------------------------------------------------

def sqlite_shape(connection: sqlite3.Connection) -> Shape:
    shape = Shape()
    objects = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                                 "WHERE name NOT LIKE 'sqlite_%'").fetchall()
    for kind, name, _table, sql in objects:
        if kind == "table":
            shape.tables[name] = sqlite_table(connection, name, sql)
        elif kind == "view":
            shape.views[name] = [row[1] for row in connection.execute(
                f"PRAGMA table_info({name})")]
        elif kind == "trigger":
            found = re.match(r"CREATE TRIGGER \w+ (BEFORE|AFTER) (INSERT|UPDATE|DELETE)"
                             r"(?: OF [\w, ]+)? ON (\w+)", " ".join(sql.split()))
            assert found, sql
            timing, event, table = found.groups()
            shape.triggers.setdefault(name, set()).add((table, timing, event))
    for name in shape.tables:
        for _seq, index, unique, origin, _partial in connection.execute(
                f"PRAGMA index_list({name})"):
            keys = tuple((row[2], bool(row[3])) for row in connection.execute(
                f"PRAGMA index_xinfo({index})") if row[5])
            if origin == "u":
                shape.tables[name].unique.add(tuple(column for column, _ in keys))
            elif origin == "c":
                sql = connection.execute("SELECT sql FROM sqlite_master WHERE name = ?",
                                         (index,)).fetchone()[0]
                condition = sql.split(" WHERE ", 1)[1] if " WHERE " in sql else None
                shape.indexes[index] = (name, bool(unique), keys, expression(condition))
    return shape


def sqlite_table(connection: sqlite3.Connection, name: str, sql: str) -> Table:
    """A table as PRAGMA table_xinfo and its CREATE statement say. A key column is never NULL
    where it is the rowid (INTEGER PRIMARY KEY) or the table has none (WITHOUT ROWID); in a
    rowid table SQLite lets any other key column be NULL unless it says NOT NULL."""
    table = Table()
    flat = " ".join(sql.split())
    table.covering_key = flat.endswith("WITHOUT ROWID")
    rows = connection.execute(f"PRAGMA table_xinfo({name})").fetchall()
    key = sorted((in_key, column) for _cid, column, _kind, _nn, _dflt, in_key, _h in rows
                 if in_key)
    table.key = tuple(column for _, column in key)
    for _cid, column, kind, not_null, default, in_key, _hidden in rows:
        rowid = table.key == (column,) and kind == "INTEGER" and not table.covering_key
        numbered = re.search(rf"\b{column} INTEGER PRIMARY KEY AUTOINCREMENT\b", flat)
        table.columns.append(Column(
            column, kind, bool(not_null) or rowid or (table.covering_key and in_key > 0),
            expression(default), bool(numbered)))
    for row in connection.execute(f"PRAGMA foreign_key_list({name})"):
        _id, _seq, parent, source, target, on_update, on_delete, _match = row
        table.foreign.add(((source,), parent, (target,), on_update, on_delete))
    for found in re.finditer(r"\bCHECK \(", flat):
        table.checks.add(expression(bracketed(flat, found.end() - 1)) or "")
    return table


# --- PostgreSQL ----------------------------------------------------------------------------

async def postgres_shape(url: str) -> Shape:
    connection = await asyncpg.connect(url)
    try:
        return await _postgres_shape(connection)
    finally:
        await connection.close()


async def _postgres_shape(connection: asyncpg.Connection) -> Shape:
    shape = Shape()
    relations = await connection.fetch(
        "SELECT c.relname, c.relkind::text AS kind FROM pg_class c "
        "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'v') "
        "AND c.relname <> 'schema_migrations'")
    for relation in relations:
        columns = await connection.fetch(
            "SELECT column_name, data_type, is_nullable, column_default, is_identity "
            "FROM information_schema.columns WHERE table_schema = 'public' "
            "AND table_name = $1 ORDER BY ordinal_position", relation["relname"])
        if relation["kind"] == "v":
            shape.views[relation["relname"]] = [row["column_name"] for row in columns]
            continue
        table = shape.tables[relation["relname"]] = Table()
        for row in columns:
            default = row["column_default"]
            if default is not None and default.startswith("nextval("):
                default = None  # a serial: SQLite's rowid numbers it
            table.columns.append(Column(
                row["column_name"], sqlite_words(POSTGRES_NAMES[row["data_type"]]),
                row["is_nullable"] == "NO", expression(default), row["is_identity"] == "YES"))
    await _postgres_constraints(connection, shape)
    await _postgres_indexes(connection, shape)
    for row in await connection.fetch(
            "SELECT trigger_name, event_object_table, action_timing, event_manipulation "
            "FROM information_schema.triggers WHERE trigger_schema = 'public'"):
        if row["trigger_name"] not in POSTGRES_ONLY["triggers"]:
            shape.triggers.setdefault(row["trigger_name"], set()).add(
                (row["event_object_table"], row["action_timing"], row["event_manipulation"]))
    return shape


def _names(table: Table, numbers: list[int]) -> tuple[str, ...]:
    return tuple(table.columns[number - 1].name for number in numbers)


async def _postgres_constraints(connection: asyncpg.Connection, shape: Shape) -> None:
    rows = await connection.fetch(
        "SELECT c.conrelid::regclass::text AS owner, c.contype::text AS kind, c.conkey, "
        "c.confrelid::regclass::text AS parent, c.confkey, c.confupdtype::text AS on_update, "
        "c.confdeltype::text AS on_delete, pg_get_constraintdef(c.oid) AS definition "
        "FROM pg_constraint c WHERE c.connamespace = 'public'::regnamespace")
    for row in rows:
        if row["owner"] not in shape.tables or row["kind"] == "t":
            continue  # a constraint trigger (deferred to the COMMIT): a trigger, compared so
        table = shape.tables[row["owner"]]
        columns = _names(table, row["conkey"])
        if row["kind"] == "p":
            table.key = columns
        elif row["kind"] == "u":
            table.unique.add(columns)
        elif row["kind"] == "f":
            table.foreign.add((columns, row["parent"],
                               _names(shape.tables[row["parent"]], row["confkey"]),
                               ACTIONS[row["on_update"]], ACTIONS[row["on_delete"]]))
        elif row["kind"] == "c":
            table.checks.add(expression(row["definition"].removeprefix("CHECK ")) or "")


async def _postgres_indexes(connection: asyncpg.Connection, shape: Shape) -> None:
    rows = await connection.fetch(
        "SELECT i.indexrelid::regclass::text AS name, i.indrelid::regclass::text AS owner, "
        "i.indisunique AS is_unique, i.indisprimary AS is_key, i.indnkeyatts AS keys, "
        "i.indnatts AS columns, i.indoption::int2[] AS options, "
        "pg_get_expr(i.indpred, i.indrelid) AS condition, "
        "EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid) AS backs, "
        "ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true) "
        "      FROM generate_series(1, i.indnkeyatts) k) AS key_columns "
        "FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid "
        "WHERE t.relnamespace = 'public'::regnamespace")
    for row in rows:
        if row["owner"] not in shape.tables or row["name"] in POSTGRES_ONLY["indexes"]:
            continue
        if row["is_key"]:
            shape.tables[row["owner"]].covering_key = row["columns"] > row["keys"]
        if row["backs"]:
            continue  # a key or a unique constraint, described with its table
        keys = tuple((column, bool(option & 1))
                     for column, option in zip(row["key_columns"], row["options"], strict=True))
        shape.indexes[row["name"]] = (row["owner"], row["is_unique"], keys,
                                      expression(row["condition"]))
