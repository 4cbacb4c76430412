"""The shared send budget against a real NATS server, on a fake clock (a wait moves it; nothing
here depends on how fast the machine is): two workers sharing one entry never take more than the
rate in any one second; a 429 one worker takes pauses the other; a compare-and-set lost to the
other worker is retried, and neither grant is lost; the broker away, a worker sends alone at the
rate, says so once, and shares again once the broker is back; SEND_RATE refused out of range;
and a worker process with RATE_LIMIT on sending through the shared budget."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import nats.errors
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from nats.aio.client import Client
from nats.js.kv import KeyValue
from telegram.error import RetryAfter

from bot.cluster.budget import (
    BROKER_SECONDS,
    HOLD,
    RETRY,
    WINDOW,
    SendBudget,
    Window,
    bucket,
)
from bot.cluster.stream import connect
from bot.runtime.config import Config, ConfigError
from bot.runtime.send_budget import TRAVEL
from bot.telegram.rate_limiter import RateLimiter
from tests.cluster.broker_server import BrokerServer
from tests.cluster.processes import MakeCluster
from tests.cluster.test_cluster_process import GROUP

RATE = 10
# the Bot API methods the limiter counts against the overall rate (they name a chat)
NAMING_A_CHAT = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup",
                           "setMessageReaction", "sendChatAction",
                           "sendRichMessage", "editEphemeralMessageText"})  # Bot API 10.1-10.3


class FakeClock:
    """The budget's clock: it stands still until someone waits, and a wait moves it on to
    its end (waits begun together end together, as on a real clock)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        end = self.now + seconds
        await asyncio.sleep(0)  # whoever waits too begins now
        self.now = max(self.now, end)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def budget_on(client: Client, key: str, clock: FakeClock) -> SendBudget:
    """A worker's budget on its own handle of the bucket, entry `key`."""
    return SendBudget(await bucket(client, 5.0), key, RATE, clock, clock.sleep, client=client)


def busiest_second(times: list[float]) -> int:
    """The most grants in any one-second window [t, t + 1) of the clock."""
    times = sorted(times)
    return max(sum(1 for other in times if start <= other < start + 1) for start in times)


async def entry_total(kv: KeyValue, key: str) -> int:
    return sum(count for _, count in Window.decode((await kv.get(key)).value).grants)


async def test_two_workers_never_take_more_than_the_rate_in_any_second(client, stream, clock):
    workers = [await budget_on(client, stream, clock) for _ in range(2)]
    granted: list[float] = []

    async def sender(budget: SendBudget) -> None:
        for _ in range(15):
            granted.append(await budget.take())

    # three senders a worker at once: their tokens come a few a round trip
    await asyncio.gather(*(sender(budget) for budget in workers for _ in range(3)))
    assert len(granted) == 90
    assert busiest_second(granted) == RATE  # the budget held, and was used to the full
    assert clock.now - min(granted) >= 90 / RATE - 1  # so it took the fake seconds it must


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # RetryAfter's
async def test_a_429_in_one_worker_pauses_the_other(client, stream, clock):
    """Worker one's send gets a 429 (retry after 0.05 s) through the worker's rate limiter:
    the pause is published, and worker two's next token comes only after it, though its own
    clock never saw a 429. A request naming no chat draws nothing from the budget."""
    one, two = await budget_on(client, stream, clock), await budget_on(client, stream, clock)
    limiter = RateLimiter(RATE, shared=one)  # the worker's, built over the budget opened first
    calls = 0

    async def send_message(**_kwargs: Any) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RetryAfter(timedelta(seconds=0.05))
        return {"ok": True}

    started = clock.now
    sending = asyncio.create_task(limiter.process_request(
        send_message, (), {}, "sendMessage", {"chat_id": -100}, None))
    while one.paused_until == 0.0:  # PTB waits 0.15 s of real time before its retry
        await asyncio.sleep(0.005)
    assert await two.take() >= started + 0.05
    assert await asyncio.wait_for(sending, 10) == {"ok": True} and calls == 2

    taken = await entry_total(one.kv, stream)
    assert await limiter.process_request(lambda: asyncio.sleep(0, {"me": 1}), (), {}, "getMe",
                                         {}, None) == {"me": 1}
    assert await entry_total(one.kv, stream) == taken


async def test_a_compare_and_set_lost_to_another_worker_is_retried(client, stream, clock):
    """Between worker one's read of the entry and its write, worker two takes a token: one's
    write fails on the revision, it reads again and takes its token on top of two's."""
    one, two = await budget_on(client, stream, clock), await budget_on(client, stream, clock)
    await two.take()  # the entry exists: one's write is an update on a revision
    one.kv = Interfering(one.kv, two.take)  # type: ignore[assignment]
    await one.take()
    assert one.conflicts == 1 and not one.away
    assert await entry_total(two.kv, stream) == 3  # two, then two again, then one: none lost


class Interfering:
    """A bucket whose first write lets `before` run first, as another worker would."""

    def __init__(self, kv: KeyValue, before: Callable[[], Awaitable[object]]) -> None:
        self.kv = kv
        self.before: Callable[[], Awaitable[object]] | None = before

    async def get(self, key: str) -> KeyValue.Entry:
        return await self.kv.get(key)

    async def update(self, key: str, value: bytes, last: int) -> int:
        if self.before is not None:
            before, self.before = self.before, None
            await before()
        return await self.kv.update(key, value, last=last)


async def test_the_broker_away_a_worker_sends_alone_at_the_rate(stream, clock, caplog):
    """A server of this test's own, halted: takes go on at the rate from the worker's own
    window, said once; restarted (the bucket, kept in memory, gone with it), the next take
    after RETRY declares it again and shares the budget again."""
    caplog.set_level(logging.INFO, logger="bot.cluster.budget")
    with BrokerServer() as server:
        connection = await connect(server.url, "budget-test", 10)
        try:
            budget = await budget_on(connection, stream, clock)
            budget.kv = await bucket(connection, BROKER_SECONDS)
            await budget.take()
            server.halt()
            granted = [await budget.take() for _ in range(3 * RATE)]
            assert budget.away
            assert busiest_second(granted) == RATE
            budget.client = None  # cannot tell the client reconnects: tries every RETRY
            for _ in range(2):
                clock.now += RETRY
                await budget.take()
            budget.client = connection
            said = [r for r in caplog.records if "did not answer" in r.getMessage()]
            assert len(said) == 1 and said[0].levelno == logging.WARNING

            server.restart()
            deadline = time.monotonic() + 15
            while not connection.is_connected:
                assert time.monotonic() < deadline, "the client did not reconnect"
                await asyncio.sleep(0.05)
            clock.now += RETRY
            await budget.take()
            assert not budget.away
            assert any("answers again" in r.getMessage() for r in caplog.records)
            assert await entry_total(budget.kv, stream) == 1
        finally:  # a client still reconnecting can hang in its close
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(connection.close(), 5)


@example([(0.0, 5, [HOLD] * 5, TRAVEL), (0.0, 5, [HOLD] * 5, TRAVEL),
          (1.0 + TRAVEL, 5, [0.0] * 5, 0.0)])  # spent late, then granted the moment they'd be back
@given(st.lists(st.tuples(st.floats(0, 0.3), st.integers(1, 5),
                          st.lists(st.floats(0, HOLD), min_size=5, max_size=5),
                          st.floats(0, TRAVEL)),
                min_size=1, max_size=200))
def test_sends_spent_late_and_delayed_on_their_way_still_arrive_within_the_rate(asks):
    """Each ask comes `gap` seconds after the last and wants `want` tokens; each token granted
    is spent up to HOLD after its grant (its worker's sends take their turns) and reaches
    Telegram up to TRAVEL after that: no one-second window of arrivals holds more than the
    rate. (With the window a second and TRAVEL, as it was, this fails.)"""
    window, now, arrivals = Window(), 0.0, []
    for gap, want, spent, late in asks:
        now += gap
        taken, _wait = window.grant(now, want, RATE, WINDOW)
        arrivals += [now + spent[n] + late for n in range(taken)]
    assert busiest_second(arrivals) <= RATE


def test_a_clock_stepped_back_does_not_stall_the_budget():
    """Grants more than a second ahead of the clock (a wall clock stepped back, or a worker's
    far off) do not hold sending until that clock catches up; a little ahead, they count."""
    assert Window([(1_000.0, RATE)]).grant(900.0, 3, RATE, WINDOW) == (3, 0.0)
    assert Window([(900.5, RATE)]).grant(900.0, 3, RATE, WINDOW) == \
        (0, pytest.approx(0.5 + WINDOW))


@pytest.mark.parametrize("value", ["0", "-5", "1001", "fast", "2.5"])
def test_send_rate_out_of_range_is_refused_in_one_line(value):
    with pytest.raises(ConfigError) as refused:
        Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "SEND_RATE": value}, env_file=None)
    said = str(refused.value)
    assert said.startswith("SEND_RATE") and value in said and "\n" not in said


def test_send_rate_defaults_to_telegrams_30():
    assert Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x"}, env_file=None).send_rate == 30
    assert Config.from_env({"TELEGRAM_BOT_TOKEN": "1:x", "SEND_RATE": "1000"},
                           env_file=None).send_rate == 1000


@pytest.mark.slow
async def test_a_worker_with_rate_limit_on_sends_through_the_shared_budget(telegram, client,
                                                                          stream,
                                                                          cluster: MakeCluster):
    running = cluster()
    running.env.update({"RATE_LIMIT": "on", "SEND_RATE": "7"})
    await running.start_ingress()
    await running.start_worker("a")
    telegram.chat(GROUP)
    await telegram.say(GROUP, {"id": 311, "is_bot": False, "first_name": "Ann"},
                       "/solve 3 8 3 8")
    assert await running.deliver() == [200]
    assert (await telegram.reply(GROUP, timeout=30)).formulas == [r"\frac{8}{3 - \frac{8}{3}} = 24"]
    kv = await bucket(client, 5.0)  # the reply's token, taken from the worker's key
    assert await entry_total(kv, stream) >= 1


@pytest.mark.slow
async def test_the_budget_holds_under_a_burst_from_every_worker(telegram, client, stream,
                                                                cluster: MakeCluster):
    """Two workers, each owning half of the partitions, SEND_RATE 5: a /solve in each of 24
    groups at once, half of them on each worker. Both send, every reply comes, every send drew
    its token from the one shared entry, and no one second of those grants holds more than 5.

    The grants are read from the entry itself (every revision, watched), on the workers' clock:
    what the budget decides. The emulator's arrival times are not what is asserted: they are
    stamped by this test's own event loop, which a loaded machine stalls for most of a second
    (CI saw four sends of one grant stamped 0.92 s late and counted with the next window's
    five); a send's way after its grant is TRAVEL's assumption, which the property test above
    covers."""
    running = cluster()
    running.env.update({"RATE_LIMIT": "on", "SEND_RATE": "5"})
    watcher = await (await bucket(client, 5.0)).watch(stream)
    try:
        await running.start_ingress()
        workers = [await running.start_worker("a"), await running.start_worker("b")]
        await running.shared(workers)
        groups = [-(6000 + n) for n in range(24)]
        started = time.time()
        for group in groups:
            telegram.chat(group)
            await telegram.say(group, {"id": 311, "is_bot": False, "first_name": "Ann"},
                               "/solve 3 8 3 8")
        assert set(await running.deliver()) == {200}
        for group in groups:
            assert (await telegram.reply(group, timeout=60)).formulas == [
                r"\frac{8}{3 - \frac{8}{3}} = 24"]
        grants = await every_grant(watcher)
    finally:
        await watcher.stop()
    calls = [r for r in telegram.journal if r.at >= started and r.method in NAMING_A_CHAT]
    assert {r.pid for r in calls} == {w.pid for w in workers}  # both sent
    assert len(calls) >= len(groups)
    tokens = [at for at, count in grants for _ in range(count)]
    alone = [w.name for w in workers if "did not answer" in w.log.read_text()]
    # a worker whose broker was too slow sends alone at the rate, as documented, and says so
    assert len(tokens) >= len(calls) or alone
    assert busiest_second(tokens) <= 5


async def every_grant(watcher: KeyValue.KeyWatcher) -> set[tuple[float, int]]:
    """Every grant any revision of the watched entry held, until none came for a while (a
    grant stays in the entry for WINDOW, so a revision the watch skipped loses none)."""
    grants: set[tuple[float, int]] = set()
    while True:
        try:
            entry = await watcher.updates(timeout=WINDOW)
        except nats.errors.TimeoutError:
            return grants
        if entry is not None and entry.value:
            grants.update(Window.decode(entry.value).grants)
