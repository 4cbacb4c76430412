"""The schema's steps (bot.store.schema) as SQLite runs them: statement by statement, since
Python's driver runs one at a time (`statements` keeps a trigger's body whole)."""

from __future__ import annotations

import sqlite3

from bot.store.schema import LATEST, script

ENGINE = "sqlite"


def statements(text: str) -> list[str]:
    """A script's statements, one by one (a trigger's body keeps its own semicolons), without
    the comment lines before each; what holds nothing but comments is left out."""
    found, pending = [], ""
    for piece in text.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            lines = pending.strip().splitlines()
            while lines and (not lines[0].strip() or lines[0].lstrip().startswith("--")):
                lines.pop(0)
            if lines and lines != [";"]:
                found.append("\n".join(lines).strip())
            pending = ""
    return found


def steps(number: int) -> list[str]:
    """Step `number`'s statements, in order."""
    return statements(script(number, ENGINE))


def apply(connection: sqlite3.Connection, to: int = LATEST) -> None:
    """The steps after the connection's version up to `to`, each in one transaction (for
    tools and tests that hold a plain sqlite3 connection; the bot's is Database.migrate)."""
    done = int(connection.execute("PRAGMA user_version").fetchone()[0])
    for number in range(done + 1, to + 1):
        connection.execute("BEGIN")
        try:
            for statement in steps(number):
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            connection.rollback()
            raise
        connection.commit()


assert statements("-- a; b\nCREATE TABLE t (a);\n-- the end\n") == ["CREATE TABLE t (a);"]
