"""Who leads among the bot processes sharing one database."""

from __future__ import annotations

from typing import Protocol


class LeaderLock(Protocol):
    """Which of the bot processes sharing one database leads: only the leader takes updates and
    runs rounds; the others stand by and try again every few seconds. The database frees the
    lead when its holder dies or loses its connection."""

    async def acquire(self) -> bool: ...
    async def lost(self) -> None: ...
    async def close(self) -> None: ...
