"""What the shared stores need of a database (`Connection`), the one error they catch
(`Refused`), and the turning of SQLite's question-mark parameter markers into PostgreSQL's
numbered ones."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, cast

Params = Sequence[Any]
Step = tuple[str, Params]
Table = TypeVar("Table")


class Refused(Exception):
    """A constraint refused an INSERT (the "one open round / match per chat topic" indexes):
    each backend raises it in place of its driver's own class."""


class Connection(Protocol):
    """One database as the shared stores use it; each statement is its own transaction."""

    async def fetch(self, sql: str, params: Params = ()) -> list[tuple]: ...

    async def run(self, sql: str, params: Params = ()) -> int:
        """The statement; the number of rows it changed."""
        ...

    async def insert(self, sql: str, params: Params = ()) -> int:
        """An INSERT into a table with an `id`; the new id, or Refused."""
        ...

    async def run_all(self, steps: Sequence[Step]) -> None:
        """The statements in one transaction."""
        ...

    async def run_guarded(self, guard: Step, steps: Sequence[Step]) -> bool:
        """`guard`, then `steps`, in one transaction, only if the guard changed a row (a round
        closed, a daily result stored); whether it did."""
        ...

    async def insert_guarded(self, guard: Step, sql: str, params: Params = ()) -> int | None:
        """`guard`, then the INSERT, in one transaction, only if the guard changed a row (an
        update's claim settled); the new id, None if the guard changed nothing, or Refused
        (nothing written)."""
        ...


QUESTION_MARK = re.compile(r"\?")


def numbered(sql: str) -> str:
    """Question-mark parameter markers as `$1, $2` and on, in order (no statement holds a question
    mark inside a literal)."""
    count = iter(range(1, sql.count("?") + 1))
    return QUESTION_MARK.sub(lambda _: f"${next(count)}", sql)


def arity(sql: str) -> int:
    """How many parameters a statement takes, in either style."""
    return sql.count("?") or len(set(re.findall(r"\$(\d+)", sql)))


def numbered_table(table: Table) -> Table:
    """A frozen dataclass of statements (or of tuples of them) with every one `numbered`."""
    def render(value: Any) -> Any:
        return tuple(render(v) for v in value) if isinstance(value, tuple) else numbered(value)
    fields = dataclasses.fields(cast(Any, table))
    return cast(Table, dataclasses.replace(
        cast(Any, table), **{field.name: render(getattr(table, field.name)) for field in fields}))

assert numbered("SELECT ? WHERE a = ? AND b IN (?, ?)") == \
    "SELECT $1 WHERE a = $2 AND b IN ($3, $4)"
assert arity("SELECT ? WHERE a = ?") == arity("SELECT $1 WHERE a = $2") == 2
