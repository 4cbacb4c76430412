"""A trip's writes committed together (bot.store.sqlite.database's Trips): one transaction for
every call a trip carries, each call's outcome still its own.

Why: a commit writes every page its transaction touched to the log, and most of a single
write's cost was its commit (an answer's row 0.47 ms on the database's thread where a read by a
key took 0.14; docs/benchmarks.md, "The database's thread, statement by statement"). A trip
carries four calls on average under load, often an answer, its claim and its player's name, which
touch the same pages. In one transaction those pages go to the log once: the load bench's burst
8-17 % faster, its CPU an update 8-15 % less (`make bench-guard`, docs/benchmarks.md).

What each caller is told does not change: its outcome is handed back only once the trip's
transaction committed (as before, when every outcome waited for the trip's end), and a call that
fails fails alone. A call's own transaction (run_all, run_guarded, insert_guarded) is a savepoint
inside the trip's (bot.store.sqlite.database.transaction), undone alone when it fails; a single
statement refused by a constraint undoes itself alone, as SQLite's statements do. Where the whole
transaction ends with a failure (an error that rolls it back: a full disk, `OR ROLLBACK`, a
deferred foreign key refused at COMMIT), every call is run again on its own, in order, each in
its own transaction as before, so no caller hears of a write that was not kept. A trip of reads,
or of one write, runs as before; so does one with a statement that cannot run inside a
transaction (a PRAGMA: the log's checkpoint).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

Work = Callable[[sqlite3.Connection], Any]  # a statement as the database's thread runs it
Outcome = tuple[bool, Any]  # (True, its result) or (False, its error)

READS, WRITES, ALONE = "reads", "writes", "alone"  # what a call does (`kind`)


def kind_of(sql: str, writes: bool) -> str:
    """What a statement's call does: ALONE for a PRAGMA (a checkpoint cannot run inside a
    transaction, and a setting is not changed inside one), else READS or WRITES."""
    if sql.lstrip()[:6].upper() == "PRAGMA":
        return ALONE
    return WRITES if writes else READS


def tagged(work: Work, kind: str) -> Work:
    """The call, marked with what it does (read by `together`)."""
    work.kind = kind  # type: ignore[attr-defined]
    return work


def each(connection: sqlite3.Connection, works: Sequence[Work]) -> list[Outcome]:
    """Every call on its own, in order, each its own transaction (or none)."""
    outcomes: list[Outcome] = []
    for work in works:
        try:
            outcomes.append((True, work(connection)))
        except Exception as error:  # handed to the call's caller
            outcomes.append((False, error))
    return outcomes


def together(connection: sqlite3.Connection, works: Sequence[Work]) -> list[Outcome]:
    """On the database's thread: a trip's calls, in one transaction when two or more write (see
    the module's docstring); each call's outcome."""
    kinds = [getattr(work, "kind", ALONE) for work in works]
    if kinds.count(WRITES) < 2 or ALONE in kinds or connection.in_transaction:
        return each(connection, works)
    try:
        connection.execute("BEGIN IMMEDIATE")
    except sqlite3.Error:  # the write lock held past the busy timeout: each meets it alone
        return each(connection, works)
    outcomes: list[Outcome] = []
    for index, work in enumerate(works):
        try:
            outcomes.append((True, work(connection)))
        except Exception as error:
            if not connection.in_transaction:  # it ended the trip's transaction
                return [*each(connection, works[:index]), (False, error),
                        *each(connection, works[index + 1:])]
            outcomes.append((False, error))
    try:
        connection.execute("COMMIT")
    except sqlite3.Error:  # nothing of the trip was kept: each again on its own
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        return each(connection, works)
    return outcomes
