"""A lock per key, kept only while someone holds or waits for it: one deal at a time per topic,
one Mini App submission at a time per person. The table never holds a key nobody uses."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class KeyedLocks:
    """The locks live in a WeakValueDictionary: whoever holds or waits for a key's lock keeps a
    reference to it, so a lock in use is never dropped, and one nobody references any more goes
    with its last user (no count to keep, no sweep). Bound: the tasks holding or waiting."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[Hashable, asyncio.Lock] = \
            weakref.WeakValueDictionary()

    @asynccontextmanager
    async def held(self, key: Hashable) -> AsyncIterator[None]:
        """Hold the key's lock (waiting for whoever holds it first)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        async with lock:  # `lock`, referenced by this frame, lives until its user leaves
            yield

    def __len__(self) -> int:
        """How many keys are held or waited for."""
        return len(self._locks)
