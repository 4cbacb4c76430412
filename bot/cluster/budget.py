"""The shared send budget: Telegram's overall limit (SEND_RATE messages a second, 30 by default,
up to 1,000 for paid broadcasts) is one for the bot however many workers send, and a 429 pauses
the bot, not one worker. So the budget is one entry of JetStream's key-value store (bucket
SEND_BUDGET, a key per bot: its NATS_STREAM), changed only by compare-and-set on the entry's
revision; a worker that loses the race reads the entry again and retries.

The entry holds the grants of the last WINDOW (when, how many) and the moment sending may resume
after a 429, as a `Window` (bot.runtime.send_budget: the rules, which the one process keeps in
memory): a grant fits while that window's grants leave room, and a token comes back a whole
window after it was taken, so no one-second window of arrivals holds more than the rate.
A worker asks for as many tokens as it has sends waiting, up to BATCH, in one round trip; a token
left unspent HOLD seconds after its grant is dropped. The window spans a second, the send's way to
Telegram (TRAVEL) and HOLD, since a token granted at a batch's start may be spent HOLD later:
SEND_RATE 30 sends at most 25 a second on end (a window of a second and TRAVEL let a token
spent HOLD after its grant arrive in the same second as the tokens granted when it came back).

The one known window: a 429 reaches another worker on its next round trip, so that worker may
still spend the tokens it holds (BATCH - 1 at most, within HOLD). The workers' clocks are
compared too (the grants' times are each worker's wall clock): NTP keeps them within
milliseconds, and a grant more than a second ahead of a clock is ignored, so a clock stepped back
does not stall sending.

The broker out of reach: sending must not stop, so the worker keeps the same window in memory at
the full rate (each worker alone: n workers may send n times the rate until the broker is back,
and Telegram's 429s then pause each), says so once, and tries the broker again every RETRY
seconds of its clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

import nats.errors
from nats.aio.client import Client
from nats.js.api import KeyValueConfig, StorageType
from nats.js.errors import BucketNotFoundError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from bot.cluster.stream import REQUEST_SECONDS, close, connect
from bot.cluster.unreachable import BrokerUnreachable
from bot.runtime.config import Config
from bot.runtime.send_budget import TRAVEL, Window

__all__ = ["BATCH", "BUCKET", "HOLD", "RETRY", "WINDOW", "SendBudget", "Window", "bucket",
           "open_budget"]

BUCKET = "SEND_BUDGET"
BATCH = 5  # tokens one round trip may take: the sends waiting in this worker, up to this
HOLD = 0.1  # seconds a granted token may wait for its send before it is dropped
WINDOW = 1.0 + TRAVEL + HOLD  # seconds after its grant a token comes back
RETRY = 1.0  # seconds between two tries of a broker that failed
BROKER_SECONDS = 0.5  # a budget's round trip: longer, and a send is better off alone
BROKER_ERRORS = (nats.errors.Error, TimeoutError, OSError)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
log = logging.getLogger(__name__)


class SendBudget:
    """The worker's share of the bot's send budget: `take()` before each send that names a chat
    (it returns once the send may go), `pause(seconds)` on a 429. `clock` is the wall clock
    (the workers compare their grants' times) and `sleep` its wait; tests hand fake ones."""

    def __init__(self, kv: KeyValue, key: str, rate: int, clock: Clock = time.time,
                 sleep: Sleep = asyncio.sleep, client: Client | None = None) -> None:
        self.kv = kv
        self.key = key
        self.rate = rate
        self.clock = clock
        self.sleep = sleep
        self.client = client  # when known, a client reconnecting is not even tried
        self.local = Window()  # the fallback's own window, while the broker is away
        self.away = False
        self.tried_at = 0.0
        self.allowance = 0
        self.granted_at = 0.0
        self.paused_until = 0.0  # as this worker last saw it
        self.waiting = 0
        self.lock = asyncio.Lock()  # one round trip at a time; the waiters queue behind it
        self.conflicts = 0  # compare-and-sets lost to another worker, then retried

    async def take(self) -> float:
        """Wait until a send may go; the time (on the clock) its token was granted."""
        self.waiting += 1
        try:
            async with self.lock:
                while not self.holds():
                    wait = await self.refill(min(BATCH, self.waiting))
                    if wait > 0:
                        await self.sleep(wait)
                self.allowance -= 1
                return self.granted_at
        finally:
            self.waiting -= 1

    def holds(self) -> bool:
        now = self.clock()
        return self.allowance > 0 and now - self.granted_at <= HOLD and now >= self.paused_until

    async def pause(self, seconds: float) -> None:
        """A 429: no worker sends for `seconds` from now."""
        until = self.clock() + seconds
        self.allowance = 0
        self.paused_until = max(self.paused_until, until)
        self.local.pause(until)
        if await self.shared_reachable():
            try:
                await self.change(lambda window: window.pause(until))
                self.back()
            except BROKER_ERRORS as error:
                self.gone(error)

    async def refill(self, want: int) -> float:
        """Tokens from the shared entry (or, the broker away, the local window) into the
        allowance; seconds to wait before asking again (0: granted)."""
        self.allowance = 0
        if await self.shared_reachable():
            try:
                wait = await self.change(lambda window: self.granting(window, want))
                self.back()
                return wait
            except BROKER_ERRORS as error:
                self.allowance = 0  # a grant whose write went unconfirmed is not spent
                self.gone(error)
        return self.granting(self.local, want)

    def granting(self, window: Window, want: int) -> float:
        now = self.clock()
        taken, wait = window.grant(now, want, self.rate, WINDOW)
        self.paused_until = max(self.paused_until, window.paused_until)
        if taken:
            self.allowance, self.granted_at = taken, now
        return wait

    async def change(self, edit: Callable[[Window], float | None]) -> float:
        """Read the entry, `edit` its window, write it back if it changed, on the revision read:
        a worker that wrote meanwhile makes it read again. What `edit` returned."""
        while True:
            try:
                entry = await self.kv.get(self.key)
                window, revision = Window.decode(entry.value), entry.revision
            except KeyNotFoundError:
                window, revision = Window(), None
            before = window.encode()
            said = edit(window)
            if window.encode() == before:
                return said or 0.0
            try:
                if revision is None:
                    await self.kv.create(self.key, window.encode())
                else:
                    await self.kv.update(self.key, window.encode(), last=revision)
            except KeyWrongLastSequenceError:
                self.conflicts += 1
                self.allowance = 0  # the grant was not written
                continue
            return said or 0.0

    async def shared_reachable(self) -> bool:
        """Whether to ask the broker: always while it answers; while it is away, once every
        RETRY seconds, and not while the client is known to be reconnecting. A broker back
        from a restart has lost the bucket (it is kept in memory): it is declared again."""
        if not self.away:
            return True
        if self.client is not None and not self.client.is_connected:
            return False
        if self.clock() - self.tried_at < RETRY:
            return False
        if self.client is not None:
            try:
                self.kv = await bucket(self.client, BROKER_SECONDS)
            except BROKER_ERRORS as error:
                self.gone(error)
                return False
        return True

    def gone(self, error: Exception) -> None:
        self.tried_at = self.clock()
        if not self.away:
            self.away = True
            log.warning("send budget: the broker did not answer (%s: %s); this worker sends at "
                        "SEND_RATE on its own until it does", type(error).__name__, error)

    def back(self) -> None:
        if self.away:
            self.away = False
            self.local = Window()
            log.info("send budget: the broker answers again; the budget is shared")

    async def close(self) -> None:
        """Close its connection; one reconnecting to a broker still away can hang in the
        client, so it is given REQUEST_SECONDS."""
        if self.client is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(close(self.client), REQUEST_SECONDS)


async def bucket(client: Client, seconds: float) -> KeyValue:
    """The budget's key-value bucket, declared by whichever worker comes first; each round
    trip waits `seconds` at most. Kept in memory: a restarted broker forgets the last second's
    grants and a pause, nothing more."""
    js = client.jetstream(timeout=seconds)
    try:
        return await js.key_value(BUCKET)
    except BucketNotFoundError:
        return await js.create_key_value(KeyValueConfig(
            bucket=BUCKET, history=1, storage=StorageType.MEMORY,
            description="the bot's send budget, a key per bot (twentyfour)"))


async def open_budget(config: Config) -> SendBudget:
    """The worker's budget on the broker of NATS_URL (its own connection), at SEND_RATE."""
    assert config.nats_url, "check_role(config, WORKER) first"
    client = await connect(config.nats_url, "twentyfour-worker-budget", config.startup_seconds)
    try:
        await bucket(client, REQUEST_SECONDS)  # declared, given a start-up's patience
        kv = await bucket(client, BROKER_SECONDS)
    except BROKER_ERRORS as error:
        await close(client)
        raise BrokerUnreachable(f"the broker's JetStream refused the key-value bucket {BUCKET} "
                                f"({type(error).__name__}: {error})") from None
    except BaseException:
        await close(client)
        raise
    return SendBudget(kv, config.nats_stream, config.send_rate, client=client)
