"""When an update arrived (bot.runtime.arrivals): said once by whoever took it in, kept for its
handling alone, stamped by the fair processor before the update waits for its turn, by the worker
from the time the broker stored it, and bounded by Telegram's own date of the message."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from bot.cluster.consumers import stored_for
from bot.runtime import arrivals
from bot.telegram.fairness import FairUpdates, came


class Monotonic:
    def __init__(self, now: float = 500.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def monotonic(monkeypatch: pytest.MonkeyPatch) -> Monotonic:
    fake = Monotonic()
    monkeypatch.setattr(arrivals, "monotonic", fake)
    return fake


def test_outside_an_update_nothing_waited(monotonic: Monotonic):
    assert arrivals.waited() == 0.0


def test_an_update_waited_since_it_arrived_and_the_earliest_said_counts(
        monotonic: Monotonic):
    # the worker (stored 3 s ago), then the fair processor: not the arrival
    with arrivals.arrived(monotonic.now - 3.0), arrivals.arrived():
        monotonic.now += 1.5
        assert arrivals.waited() == 4.5
    assert arrivals.waited() == 0.0  # the next update starts afresh
    # stored 3 s ago, but Telegram dated it 10 s ago (it waited there first): 10 s
    with arrivals.arrived(monotonic.now - 3.0), arrivals.arrived(monotonic.now - 10.0):
        assert arrivals.waited() == 10.0
        with arrivals.arrived(monotonic.now - 20.0):
            assert arrivals.waited() == 20.0
        assert arrivals.waited() == 10.0  # the inner block's time ends with it


@pytest.mark.parametrize(("ago", "waited"), [
    (0.0, 0.2),       # dated this second: the bot's own count stands
    (0.9, 0.2),       # within the second it was dated: no sooner than +1 s can be said
    (7.0, 6.0),       # it waited at Telegram: at least 6 s before the bot took it
    (5000.0, 0.2),    # dated over an hour ago: a clock that is off, not a wait
    (-30.0, 0.2),     # dated in the future: the same
])
def test_telegrams_date_bounds_the_wait_within_a_second(monotonic: Monotonic, ago: float,
                                                        waited: float):
    now = 1_800_000_000.0
    sent = datetime.fromtimestamp(now - ago, UTC)
    with arrivals.arrived(monotonic.now - 0.2):
        assert arrivals.waited(sent, now=now) == pytest.approx(waited)


NOW = 1_800_000_000.0


def dated(ago: float) -> datetime:
    return datetime.fromtimestamp(NOW - ago, UTC)


@pytest.mark.parametrize(("update", "held"), [
    (SimpleNamespace(message=SimpleNamespace(date=dated(20.0), edit_date=None)), 19.0),
    (SimpleNamespace(message=SimpleNamespace(date=dated(0.5), edit_date=None)), 0.0),
    # an edit waited since it was edited, not since its message was first sent
    (SimpleNamespace(message=None, edited_message=SimpleNamespace(
        date=dated(600.0), edit_date=dated(5.0))), 4.0),
    (SimpleNamespace(channel_post=SimpleNamespace(date=dated(30.0), edit_date=None)), 29.0),
    # a press is dated by nothing of its own: the deal it is under is old, the press is not
    (SimpleNamespace(callback_query=SimpleNamespace(
        message=SimpleNamespace(date=dated(45.0), edit_date=None))), 0.0),
    (SimpleNamespace(message=SimpleNamespace(date=dated(7200.0), edit_date=None)), 0.0),
    (SimpleNamespace(message=SimpleNamespace(date=dated(-60.0), edit_date=None)), 0.0),
    (SimpleNamespace(inline_query=SimpleNamespace(query="3 3 8 8")), 0.0),
])
def test_a_message_that_waited_at_telegram_came_when_telegram_dated_it(
        monotonic: Monotonic, monkeypatch: pytest.MonkeyPatch, update: object, held: float):
    monkeypatch.setattr(arrivals.time, "time", lambda: NOW)
    assert came(update) == pytest.approx(monotonic.now - held)


async def test_a_task_sees_only_its_own_updates_arrival(monotonic: Monotonic):
    seen: dict[str, float] = {}
    gate = asyncio.Event()

    async def handle(name: str, at: float) -> None:
        with arrivals.arrived(at):
            await gate.wait()
            seen[name] = arrivals.waited()

    tasks = [asyncio.create_task(handle("early", 490.0)),
             asyncio.create_task(handle("late", 499.0))]
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(*tasks)
    assert seen == {"early": 10.0, "late": 1.0}


async def test_an_update_waiting_for_its_turn_is_timed_from_its_arrival(monotonic: Monotonic):
    """The fair processor stamps an update as it comes, before it waits behind the others: the
    third update's handler, started 5 s later, hears it waited 5 s."""
    fair = FairUpdates(concurrent=1, per_chat_running=1)
    gate, waited = asyncio.Event(), []

    async def handle(block: bool) -> None:
        if block:
            await gate.wait()
        waited.append(arrivals.waited())

    def update(chat: int) -> SimpleNamespace:
        return SimpleNamespace(effective_chat=SimpleNamespace(id=chat), effective_user=None)

    tasks = [asyncio.create_task(fair.process_update(update(1), handle(True)))]
    for _ in range(5):
        await asyncio.sleep(0)
    tasks += [asyncio.create_task(fair.process_update(update(chat), handle(False)))
              for chat in (2, 3)]
    for _ in range(5):
        await asyncio.sleep(0)
    assert fair.waiting() == 2
    monotonic.now += 5.0
    gate.set()
    await asyncio.gather(*tasks)
    assert waited == [5.0, 5.0, 5.0]


def test_the_worker_counts_the_wait_in_the_stream_from_its_stored_time():
    stored = datetime.fromtimestamp(datetime.now(UTC).timestamp() - 4.0, UTC)
    message = SimpleNamespace(metadata=SimpleNamespace(timestamp=stored))
    assert 4.0 <= stored_for(message) < 60.0  # type: ignore[arg-type]
    ahead = SimpleNamespace(metadata=SimpleNamespace(
        timestamp=datetime.fromtimestamp(datetime.now(UTC).timestamp() + 9.0, UTC)))
    assert stored_for(ahead) == 0.0  # type: ignore[arg-type]  # a clock ahead: no wait


def test_a_message_the_broker_did_not_store_waited_nothing():
    class Plain:
        @property
        def metadata(self) -> object:
            raise ValueError("not a JetStream message")

    assert stored_for(Plain()) == 0.0  # type: ignore[arg-type]
