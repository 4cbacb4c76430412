"""The timed maps on one dict (bot/runtime/timed.py): an entry lives its time from its last
store and not a moment more, the bound holds, the first stored go first, and the front's scan
leaves nothing expired behind a monotonic clock."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.runtime.lru import EVICTED_AT_ONCE
from bot.runtime.timed import Timed


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_entry_lives_its_time_from_its_last_store():
    clock = Clock()
    kept: Timed[str, int] = Timed(10, 5.0, clock)
    kept["a"] = 1
    clock.now += 4.9
    assert kept["a"] == 1 and kept.get("a") == 1 and "a" in kept
    kept["a"] = 2  # stored again: five seconds from now
    clock.now += 4.9
    assert kept.get("a") == 2
    clock.now += 0.1  # its end: gone, to every way of asking
    assert kept.get("a") is None and kept.get("a", 7) == 7 and "a" not in kept
    with pytest.raises(KeyError):
        kept["a"]
    assert kept.pop("a", None) is None and len(kept) == 0


def test_a_look_up_gives_no_more_time():
    clock = Clock()
    kept: Timed[str, int] = Timed(10, 5.0, clock)
    kept["a"] = 1
    for _ in range(4):
        clock.now += 1.0
        assert kept["a"] == 1
    clock.now += 1.0
    assert "a" not in kept


def test_the_expired_go_at_the_next_scan_and_the_live_stay():
    clock = Clock()
    kept: Timed[int, int] = Timed(1000, 4.0, clock)
    for key in range(300):
        kept[key] = key
        clock.now += 0.01  # three seconds in all: every one still alive
    assert len(kept) == 300
    clock.now += 1.5  # the first half's time is over
    kept[-1] = -1  # a store scans the front
    assert len(kept._data) == len(kept) < 300  # gone from the dict, not merely hidden
    assert all(clock.now < ends for _, ends in kept._data.values())
    assert set(kept) == {key for key in range(300) if 100.0 + key * 0.01 + 4.0 > clock.now} | {-1}


def test_the_scan_runs_a_few_times_an_entry_s_life_not_at_every_store():
    clock = Clock()
    kept: Timed[int, int] = Timed(1000, 4.0, clock)
    kept[0] = 0
    clock.now += 4.0  # 0 is expired
    kept[1] = 1  # scanned: 0 goes
    assert list(kept._data) == [1]
    clock.now += 0.5  # within a quarter of its life since the scan
    kept[2] = 2
    clock.now += 3.6  # 1 expired; no scan since: still in the dict, never read
    assert 1 not in kept and kept.get(1) is None
    assert list(kept) == [2]


def test_past_the_bound_the_first_stored_go_a_batch_at_once():
    clock = Clock()
    bound = 4 * EVICTED_AT_ONCE
    kept: Timed[int, int] = Timed(bound, 60.0, clock)
    for key in range(bound):
        kept[key] = key
    kept[0] = 0  # stored again: now the latest, not the first to go
    kept[bound] = bound
    assert len(kept) == bound + 1 - 4  # a batch: 1/EVICTED_AT_ONCE of the bound
    assert 0 in kept and bound in kept
    assert [key for key in range(1, 5) if key in kept] == []
    for key in range(bound, 10 * bound):
        kept[key] = key
        assert len(kept._data) <= bound


def test_a_clock_that_goes_back_keeps_the_bound_and_reads_each_entry_s_end():
    clock = Clock()
    kept: Timed[int, int] = Timed(8, 5.0, clock)
    kept[1] = 1
    clock.now -= 3.0  # stored "earlier": its end is before the first one's
    kept[2] = 2
    clock.now += 5.5  # 2 is over, 1 is not: 2 stays behind the front until read
    assert kept.get(2) is None and kept.get(1) == 1
    for key in range(3, 40):
        kept[key] = key
        assert len(kept._data) <= 8


def test_iteration_is_a_snapshot_of_the_live():
    clock = Clock()
    kept: Timed[tuple[int, int], str] = Timed(10, 5.0, clock)
    kept[(1, 1)], kept[(1, 2)], kept[(2, 1)] = "a", "b", "c"
    for key in kept:  # removing while walking (ChatMembers.bot_changed does)
        if key[0] == 1:
            del kept[key]
    assert list(kept) == [(2, 1)] and dict(kept.items()) == {(2, 1): "c"}
    kept.clear()
    assert len(kept) == 0


def test_a_walk_of_the_values_reads_every_end_against_one_moment():
    """Mapping's own values() looked each key up again: an entry whose end came between its
    key's turn and its look-up raised KeyError in the caller's walk (a clock that moves with
    every reading makes that moment every time)."""
    clock = Clock()

    def moving() -> float:
        clock.now += 1.0
        return clock.now

    kept: Timed[int, str] = Timed(10, 10.0, moving)
    for key in range(5):
        kept[key] = str(key)  # stored at 101..105: ends at 111..115
    clock.now = 109.5  # the walk's one reading: 110.5, every entry alive
    assert [value for value in kept.values()] == ["0", "1", "2", "3", "4"]
    clock.now = 109.5
    assert [item for item in kept.items()] == [(key, str(key)) for key in range(5)]
    clock.now = 111.5  # 112.5: the first two are over
    assert [value for value in kept.values()] == ["2", "3", "4"]


def test_a_bound_below_one_is_refused():
    with pytest.raises(ValueError):
        Timed(0, 1.0)


Step = tuple[str, int, float]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["set", "get", "in", "pop", "len", "wait"]),
                          st.integers(0, 12), st.floats(0.0, 3.0)), max_size=120))
def test_it_answers_as_a_dict_of_ends_would(steps: list[Step]):
    """Against the plainest model: a dict of each key's value and end, read at each step. A
    bound above the keys used, so that only time takes anything away."""
    clock = Clock()
    kept: Timed[int, int] = Timed(64, 2.0, clock)
    model: dict[int, tuple[int, float]] = {}
    for count, (kind, key, seconds) in enumerate(steps):
        live = {k: v for k, (v, ends) in model.items() if clock.now < ends}
        if kind == "set":
            kept[key] = count
            model[key] = (count, clock.now + 2.0)
        elif kind == "get":
            assert kept.get(key) == live.get(key)
        elif kind == "in":
            assert (key in kept) == (key in live)
        elif kind == "pop":
            assert kept.pop(key, None) == live.get(key)
            model.pop(key, None)
        elif kind == "len":
            assert len(kept) == len(live) and set(kept) == set(live)
        else:
            clock.now += seconds
