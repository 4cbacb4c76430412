"""The bounded maps on one dict (bot/runtime/lru.py): the bound holds, the right keys go first,
and a look-up moves a key to the end in the LRU alone."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from cachetools import LRUCache

from bot.runtime.lru import EVICTED_AT_ONCE, FIFO, LRU, WeighedFIFO


def test_past_the_bound_the_least_lately_used_go_first():
    kept: LRU[int, str] = LRU(3)
    for key in (1, 2, 3):
        kept[key] = str(key)
    assert kept[1] == "1"  # used: now the latest
    assert kept.get(2) == "2"  # so is this one
    kept[4] = "4"
    assert list(kept) == [1, 2, 4] and 3 not in kept
    assert 1 in kept and list(kept) == [1, 2, 4]  # `in` is no use: the order stays
    kept[1] = "one"  # stored again: the latest, with its new value
    kept[5] = "5"
    assert list(kept.items()) == [(4, "4"), (1, "one"), (5, "5")]
    assert list(kept.values()) == ["4", "one", "5"] and list(kept) == [4, 1, 5]  # none used


def test_the_fifo_keeps_its_order_through_look_ups():
    kept: FIFO[int, str] = FIFO(3)
    for key in (1, 2, 3):
        kept[key] = str(key)
    assert kept[1] == "1" and kept.get(1) == "1"
    kept[4] = "4"
    assert list(kept) == [2, 3, 4]  # 1 was stored first, however often it was read
    kept[2] = "two"  # stored again: the latest
    kept[5] = "5"
    assert list(kept) == [4, 2, 5]


@pytest.mark.parametrize("kind", [FIFO, LRU, lambda bound: WeighedFIFO(bound, lambda _: 1)])
def test_a_miss_and_the_mapping_methods(kind: Callable[[int], FIFO]):
    kept = kind(2)
    assert kept.get("x") is None and kept.get("x", 0) == 0
    with pytest.raises(KeyError):
        kept["x"]
    with pytest.raises(KeyError):
        kept.pop("x")
    kept["x"] = None  # a value of None is a value (a chat that chose no language)
    assert "x" in kept and kept.get("x", 5) is None and kept["x"] is None
    assert kept.pop("x") is None and kept.pop("x", "gone") == "gone"
    kept["a"], kept["b"] = 1, 2
    del kept["a"]
    with pytest.raises(KeyError):
        del kept["a"]
    assert len(kept) == 1 and kept.setdefault("c", 3) == 3 and len(kept) == 2
    kept.clear()
    assert len(kept) == 0 and kept.maxsize == 2 and "kept" in repr(kept)
    with pytest.raises(ValueError):
        kind(0)


def test_a_large_map_loses_its_oldest_together_and_never_passes_its_bound():
    bound = 10 * EVICTED_AT_ONCE
    kept: LRU[int, int] = LRU(bound)
    for key in range(bound):
        kept[key] = key
    kept.get(0)  # the oldest, used: it stays
    kept[bound] = bound  # one past: the ten least lately used go at once
    assert len(kept) == bound - 9
    assert 0 in kept and all(key not in kept for key in range(1, 11)) and 11 in kept
    for key in range(bound + 1, 5 * bound):
        kept[key] = key
        assert len(kept) <= bound
    assert list(kept) == sorted(kept)[-len(kept):]  # the latest, in the order stored


def test_the_same_keys_are_kept_as_cachetools_lru_keeps_them():
    """Below EVICTED_AT_ONCE entries one goes at a time: the same keys as cachetools' LRU, for
    the same look-ups, stores and removals."""
    ours: LRU[int, int] = LRU(EVICTED_AT_ONCE - 1)
    theirs: LRUCache[int, int] = LRUCache(EVICTED_AT_ONCE - 1)
    for step in range(5_000):
        key = step * 7919 % 211
        for cache in (ours, theirs):
            if step % 3 == 0:
                cache.get(key)
            elif step % 17 == 0:
                cache.pop(key, None)
            else:
                cache[key] = step
    assert list(ours.items()) == [(key, theirs[key]) for key in ours]
    assert set(ours) == set(theirs)


def test_a_weighed_fifo_holds_what_its_bound_weighs_and_refuses_what_is_heavier():
    kept: WeighedFIFO[str, str] = WeighedFIFO(10, len)
    kept["a"], kept["b"], kept["c"] = "xxx", "yyy", "zzz"
    assert kept.currsize == 9
    kept["a"] = "x"  # stored again, lighter: the latest
    assert kept.currsize == 7 and list(kept) == ["b", "c", "a"]
    kept["d"] = "dddd"  # 11: the first stored goes
    assert list(kept) == ["c", "a", "d"] and kept.currsize == 8
    kept["e"] = "e" * 10  # the whole bound: everything else goes, never the newest
    assert list(kept) == ["e"] and kept.currsize == 10
    with pytest.raises(ValueError):
        kept["f"] = "f" * 11
    assert list(kept) == ["e"]  # a refused entry changes nothing
    assert kept.pop("e") == "e" * 10 and kept.currsize == 0
    kept["g"] = "gg"
    del kept["g"]
    kept["h"] = "h"
    kept.clear()
    assert kept.currsize == 0 and len(kept) == 0


def test_a_large_weighed_fifo_sheds_a_share_of_its_bound_at_once():
    bound = 10 * EVICTED_AT_ONCE
    kept: WeighedFIFO[int, int] = WeighedFIFO(bound, lambda weight: weight)
    for key in range(bound):
        kept[key] = 1
    kept[bound] = 3  # three past the bound: shed to ten below it, oldest first
    assert kept.currsize == bound - 10 and min(kept) == 13 and bound in kept
    for key in range(bound + 1, 4 * bound):
        kept[key] = key % 7 + 1
        assert kept.currsize <= bound
    assert kept.currsize == sum(key % 7 + 1 for key in kept)
