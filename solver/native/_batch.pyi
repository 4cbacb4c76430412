"""Types of the lean loop of `python -m solver batch` (batch.c): the JSON line of a plain hand,
or None when the Python path must answer the line."""

from collections.abc import Callable

def row(line: str, target: str, solve: Callable[..., list[str]], /,
        *args: object) -> str | None: ...
