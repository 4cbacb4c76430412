"""The tables a game works out once and keeps in its folder (its daily's puzzles), so that no
process works them out as it starts: written by the game's own `--write`, after the kept module's
docstring, each table a tuple of values a few to a line. A test of each game fails while its
table and what it is worked out from disagree."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence

WIDTH = 96  # a line's characters at most, its indent included


def write_table(path: str, tables: Mapping[str, tuple[str, Sequence[object]]]) -> None:
    """Write each table (name -> its type as written, its values) into the module at `path`,
    in place of what followed its docstring."""
    with open(path) as kept:
        text = kept.read()
    head = text[:text.index('"""', 3) + 3]
    parts = [head, ""]
    for name, (kind, values) in tables.items():
        parts += [f"{name}: {kind} = (", *_rows([str(value) for value in values]), ")", ""]
    with open(path, "w") as table:
        table.write("\n".join(parts) + "\n" if parts[-1] else "\n".join(parts))


def _rows(values: list[str]) -> list[str]:
    """The values, as many to a line as fit in WIDTH."""
    rows: list[str] = []
    line = ""
    for value in values:
        if line and len(line) + len(value) + 2 > WIDTH:
            rows.append(line)
            line = ""
        line = f"{line} {value}," if line else f"    {value},"
    return [*rows, line] if line else rows


def main(module: str, write: Callable[[str], None], path: str) -> None:
    """A game's `python -m <module> --write`: its tables written again into `path`."""
    if sys.argv[1:] != ["--write"]:
        sys.exit(f"usage: python -m {module} --write")
    write(path)
