"""Bounded maps on one plain dict, for the maps kept per chat, per player and per puzzle (issue 71):
the least lately used first to go (`LRU`), or the first stored (`FIFO`, `WeighedFIFO`: a bound on
what the entries weigh in all). No timing: cachetools' TTL caches do that.

A dict keeps its keys in the order they were stored, so it is its own queue: a key used is moved
to the end (popped and stored again), and the oldest are at the front. cachetools' LRU keeps a
second, ordered dict beside its data for that order, a dict entry and a linked node more per key:
at the bounds the soak fills (bench/bench_soak.py) about half of what a small entry costs.

A dict found by iterating from the front steps over every slot emptied since the dict was last
rebuilt (one per key gone or moved, up to twice the bound), so taking the oldest key one at a
time would cost a scan each. Past the bound the oldest 1/EVICTED_AT_ONCE of it go together, one
scan for them all; a map of fewer than EVICTED_AT_ONCE entries loses one at a time.
"""

from __future__ import annotations

from collections.abc import (
    Callable,
    Hashable,
    ItemsView,
    Iterator,
    KeysView,
    MutableMapping,
    ValuesView,
)
from itertools import islice
from typing import TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")
EVICTED_AT_ONCE = 64  # past the bound, this fraction of it goes at once (one scan of the front)
_MISSING = object()


class FIFO(MutableMapping[K, V]):
    """At most `maxsize` entries; past it the first stored go first. A look-up changes nothing;
    storing a key again makes it the latest."""

    __slots__ = ("_batch", "_data", "maxsize")

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"a bound of at least one entry, not {maxsize}")
        self._data: dict[K, V] = {}
        self.maxsize = maxsize
        self._batch = max(1, maxsize // EVICTED_AT_ONCE)

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: V | D) -> V | D: ...

    def get(self, key: K, default: object = None) -> object:
        return self._data.get(key, default)

    def __setitem__(self, key: K, value: V) -> None:
        data = self._data
        data.pop(key, None)  # stored again: the latest
        data[key] = value
        if len(data) > self.maxsize:
            for oldest in list(islice(data, self._batch)):
                del data[oldest]

    def __delitem__(self, key: K) -> None:
        del self._data[key]

    @overload
    def pop(self, key: K) -> V: ...

    @overload
    def pop(self, key: K, default: V | D) -> V | D: ...

    def pop(self, key: K, default: object = _MISSING) -> object:
        if default is _MISSING:
            return self._data.pop(key)
        return self._data.pop(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        self._data.clear()

    def keys(self) -> KeysView[K]:
        return self._data.keys()

    def values(self) -> ValuesView[V]:
        """The values, oldest first; reading them uses none (Mapping's own would look each
        key up, moving it to the end of an LRU as it walks)."""
        return self._data.values()

    def items(self) -> ItemsView[K, V]:
        """The entries, oldest first; reading them uses none (as `values`)."""
        return self._data.items()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.maxsize}, {len(self._data)} kept)"


class LRU(FIFO[K, V]):
    """At most `maxsize` entries; past it the least lately used go first. A look-up (`[]`,
    `get`) makes its key the latest; `in` does not."""

    __slots__ = ()

    def __getitem__(self, key: K) -> V:
        data = self._data
        value = data.pop(key)
        data[key] = value
        return value

    @overload
    def get(self, key: K) -> V | None: ...

    @overload
    def get(self, key: K, default: V | D) -> V | D: ...

    def get(self, key: K, default: object = None) -> object:
        data = self._data
        value = data.pop(key, _MISSING)
        if value is _MISSING:
            return default
        data[key] = value  # type: ignore[assignment]
        return value


class WeighedFIFO(FIFO[K, V]):
    """At most `maxsize` of weight in all, each entry weighing `weigh(its value)`; past it the
    first stored go first, a 1/EVICTED_AT_ONCE of the bound's weight at once (the newest entry
    never: one heavier than the whole bound is refused instead, as cachetools refuses it)."""

    __slots__ = ("_weigh", "currsize")

    def __init__(self, maxsize: int, weigh: Callable[[V], int]) -> None:
        super().__init__(maxsize)
        self._weigh = weigh
        self.currsize = 0  # the weight held

    def __setitem__(self, key: K, value: V) -> None:
        weight = self._weigh(value)
        if weight > self.maxsize:
            raise ValueError(f"an entry of weight {weight} past the whole bound {self.maxsize}")
        self.pop(key, None)
        self._data[key] = value
        self.currsize += weight
        if self.currsize > self.maxsize:
            self._shed(self.maxsize - self.maxsize // EVICTED_AT_ONCE)

    def _shed(self, down_to: int) -> None:
        """The first stored go until what is held weighs `down_to` or less (one scan)."""
        data, weigh, gone = self._data, self._weigh, []
        for key, value in islice(data.items(), len(data) - 1):  # never the newest
            if self.currsize <= down_to:
                break
            self.currsize -= weigh(value)
            gone.append(key)
        for key in gone:
            del data[key]

    def __delitem__(self, key: K) -> None:
        self.currsize -= self._weigh(self._data.pop(key))

    @overload
    def pop(self, key: K) -> V: ...

    @overload
    def pop(self, key: K, default: V | D) -> V | D: ...

    def pop(self, key: K, default: object = _MISSING) -> object:
        value = self._data.pop(key, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise KeyError(key)
            return default
        self.currsize -= self._weigh(value)  # type: ignore[arg-type]
        return value

    def clear(self) -> None:
        self._data.clear()
        self.currsize = 0
