"""Bounded maps whose entries live a while, on one plain dict (issue 71): the budgets' buckets,
the members' standings, the refusals remembered, a topic's last win. cachetools' TTLCache keeps
a linked node, an ordered dict's node and a size entry beside each key, and wraps every look-up
in its timer's context: about 3 µs a `get` or a store, and the doors alone look several up for
every update. Here a look-up is a dict's and a comparison.

Every entry lives the same `ttl` from when it was last stored, and a store moves its key to the
end, so the dict's order is the order the entries expire in: the expired are at the front. They
go when looked up, and in one scan from the front at most every `ttl / SWEEPS` (a scan steps
over the slots emptied since the dict was last rebuilt, so one a store would cost a scan each:
bot.runtime.lru says why). Past `maxsize` the first stored go, the oldest 1/EVICTED_AT_ONCE of
the bound together: they are the next to expire, so a look-up does not make an entry the latest
(the clock gives every entry its end; nothing read often outlives its time).

A clock that goes back (a test's) leaves entries behind the front unswept: they still read as
gone once their time is past, and the bound still holds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, ItemsView, Iterator, MutableMapping, ValuesView
from typing import TypeVar, overload

from bot.runtime.lru import EVICTED_AT_ONCE

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")
SWEEPS = 4  # scans of the front within an entry's life, at most
_MISSING = object()


class Timed(MutableMapping[K, V]):
    """At most `maxsize` entries, each gone `ttl` seconds (of `timer`) after it was last
    stored; past the bound the first stored go first."""

    __slots__ = ("_batch", "_data", "_swept", "maxsize", "timer", "ttl")

    def __init__(self, maxsize: int, ttl: float,
                 timer: Callable[[], float] = time.monotonic) -> None:
        if maxsize < 1:
            raise ValueError(f"a bound of at least one entry, not {maxsize}")
        self._data: dict[K, tuple[V, float]] = {}  # key -> its value, when it goes
        self.maxsize = maxsize
        self.ttl = ttl
        self.timer = timer
        self._batch = max(1, maxsize // EVICTED_AT_ONCE)
        self._swept = -float("inf")  # when the front was last scanned

    def __getitem__(self, key: K) -> V:
        value, ends = self._data[key]
        if self.timer() >= ends:
            del self._data[key]
            raise KeyError(key)
        return value

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: V | D) -> V | D: ...

    def get(self, key: K, default: object = None) -> object:
        found = self._data.get(key)
        if found is None:
            return default
        if self.timer() >= found[1]:
            del self._data[key]
            return default
        return found[0]

    def __contains__(self, key: object) -> bool:
        found = self._data.get(key)  # type: ignore[arg-type]
        return found is not None and self.timer() < found[1]

    def __setitem__(self, key: K, value: V) -> None:
        now, data = self.timer(), self._data
        data.pop(key, None)  # stored again: the latest, its time from now
        data[key] = (value, now + self.ttl)
        if len(data) > self.maxsize or now - self._swept >= self.ttl / SWEEPS:
            self._sweep(now)

    def _sweep(self, now: float) -> None:
        """One scan of the front: the expired go, and past the bound the oldest batch too
        (never the newest for the bound: it was just stored)."""
        data = self._data
        self._swept = now
        over = len(data) - self.maxsize
        least = min(over + self._batch - 1, len(data) - 1) if over > 0 else 0  # expired or not
        gone: list[K] = []
        for key, (_, ends) in data.items():
            if len(gone) >= least and ends > now:
                break
            gone.append(key)
        for key in gone:
            del data[key]

    def __delitem__(self, key: K) -> None:
        del self._data[key]

    @overload
    def pop(self, key: K) -> V: ...

    @overload
    def pop(self, key: K, default: V | D) -> V | D: ...

    def pop(self, key: K, default: object = _MISSING) -> object:
        found = self._data.pop(key, None)
        if found is None or self.timer() >= found[1]:
            if default is _MISSING:
                raise KeyError(key)
            return default
        return found[0]

    def __iter__(self) -> Iterator[K]:
        """The live keys, the first to go first (a snapshot: the map may change meanwhile)."""
        return iter([key for key, _ in self._live()])

    def __len__(self) -> int:
        """The entries kept, once the expired at the front are gone (a monotonic clock leaves
        none expired behind them)."""
        self._sweep(self.timer())
        return len(self._data)

    def values(self) -> ValuesView[V]:
        """The live values, the first to go first, each entry's end read against one moment
        (Mapping's own would look each key up again, and one whose end came between its
        key's turn and its look-up would raise)."""
        return _Values(self)

    def items(self) -> ItemsView[K, V]:
        """The live entries, as `values`."""
        return _Items(self)

    def _live(self) -> list[tuple[K, V]]:
        now = self.timer()
        return [(key, value) for key, (value, ends) in self._data.items() if now < ends]

    def clear(self) -> None:
        self._data.clear()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.maxsize}, {self.ttl} s, {len(self._data)} kept)"


class _Values(ValuesView[V]):
    _mapping: Timed[Hashable, V]

    def __iter__(self) -> Iterator[V]:
        return iter([value for _, value in self._mapping._live()])


class _Items(ItemsView[K, V]):
    _mapping: Timed[K, V]

    def __iter__(self) -> Iterator[tuple[K, V]]:
        return iter(self._mapping._live())
