"""A lock per key, kept only while someone holds or waits for it: one deal at a time per topic,
one Mini App submission at a time per person. The table never holds a key nobody uses."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}  # key -> lock, its users

    @asynccontextmanager
    async def held(self, key: Hashable) -> AsyncIterator[None]:
        """Hold the key's lock (waiting for whoever holds it first)."""
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        """How many keys are held or waited for."""
        return len(self._locks)
