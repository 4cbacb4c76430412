"""Who leads among the bot processes sharing one database."""

from __future__ import annotations

from typing import Protocol


class LeaderLock(Protocol):
    """Which of the bot processes sharing one database leads: only the leader takes updates and
    runs rounds; the others stand by and try again every few seconds (`next_try`). The lead is
    a lease with a time limit: the leader renews it while `lost` runs, and `check` (before
    every Bot API request and webhook answer) ends the lead once the lease may have run out;
    a lost lead is never taken back by the same process."""

    next_try: float  # seconds a standby may wait before its next `acquire`
    epoch: int | None  # the lease's number once taken (None before, and on an embedded database)

    async def acquire(self) -> bool: ...
    async def lost(self) -> None: ...
    def check(self) -> None: ...
    async def close(self) -> None: ...
