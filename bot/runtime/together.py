"""Awaiting what does not depend on each other side by side, cheaply.

Store calls asked at once share a trip to SQLite's thread (bot.store.sqlite.database `Trips`)
and go side by side on PostgreSQL's pool, so a reply that waits on them together waits once.
`asyncio.gather` makes a task of each, which is what sharing needs, and a waste when there is
one or none, the usual case on an answer's path (a chat and a player whose rows are stored
already): `together` awaits a single one as it is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from typing import TypeVar

T = TypeVar("T")


async def together(awaitables: Sequence[Awaitable[T]]) -> list[T]:
    """Their results, in their order. The first error is raised once every other ended (none
    is left running behind it)."""
    if len(awaitables) <= 1:
        return [await awaitable for awaitable in awaitables]
    results = await asyncio.gather(*awaitables, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results  # type: ignore[return-value]
