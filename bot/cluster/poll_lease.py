"""The polling ingresses' lease: Telegram answers one getUpdates poller per bot (a second one is
409 Conflict), so of the ingresses that poll, one holds this lease and polls, the others stand by.

The lease is one entry of JetStream's key-value store (bucket POLL_LEASE, a key per bot: its
NATS_STREAM) naming its holder, changed only by compare-and-set on the entry's revision, as the
send budget is (bot/cluster/budget.py). The holder writes it again every RENEW seconds on the
revision it wrote last. It runs out by the broker's revisions, not by comparing clocks: a standby
reads the entry as often, and one that sees the same revision for LEASE seconds of its own clock
takes the entry over on that revision (of two standbys racing, one wins). The holder counts its
lease from the start of its last confirmed write and stops polling HOLD seconds later, before a
standby may take over; and should a frozen holder poll once more all the same, nothing is lost:
a poller confirms an offset only for updates JetStream acknowledged (bot.cluster.poller).
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import nats.errors
from nats.aio.client import Client
from nats.js.api import KeyValueConfig, StorageType
from nats.js.errors import BucketNotFoundError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

BUCKET = "POLL_LEASE"
# A killed or frozen poller is replaced within LEASE and two RENEWs: a standby first sees the
# holder's last revision up to RENEW after it was written, and looks every RENEW (2.5 s at
# most, then a poll; with 1 s and 6 s, no update flowed for 8 s). Four writes a second of a
# few bytes are nothing to the broker; a broker slower than HOLD to confirm pauses the polls,
# it never lets two poll at once.
RENEW = 0.25  # seconds between two writes of the holder, and two reads of a standby
LEASE = 2.0  # seconds a standby sees one revision before it takes the lease over
HOLD = LEASE - 2 * RENEW  # seconds the holder polls past its last confirmed write
BROKER_ERRORS = (nats.errors.Error, TimeoutError, OSError)

Clock = Callable[[], float]
log = logging.getLogger(__name__)


@dataclass
class PollLease:
    """This ingress's side of the lease: `take()` tries once to hold it (renewing it when held),
    `held()` says whether to poll now, `release()` gives it up at a stop. `clock` is monotonic:
    nothing here compares one machine's time with another's."""

    kv: KeyValue
    key: str
    holder: str
    clock: Clock = time.monotonic
    revision: int | None = None  # the revision this ingress wrote last, while it holds the lease
    confirmed_at: float = float("-inf")  # when that write began
    seen: int | None = None  # a standby's: the revision it read last
    seen_since: float = 0.0  # and since when it has read that one

    def held(self) -> bool:
        return self.revision is not None and self.clock() - self.confirmed_at < HOLD

    async def take(self) -> bool:
        """One try: True when this ingress holds the lease afterwards. A holder writes on its
        own revision (refused: another took it); a standby creates an entry where none is, or
        takes over one whose revision has not moved for LEASE seconds."""
        now = self.clock()
        if self.revision is not None:
            return await self.write(self.revision, now)
        try:
            entry = await self.kv.get(self.key)
        except KeyNotFoundError:  # none yet, or given up at a stop
            return await self.write(None, now)
        if entry.revision != self.seen:
            self.seen, self.seen_since = entry.revision, now
            return False
        if now - self.seen_since < LEASE:
            return False
        log.info("poll lease: %s let it run out; taking it over", holder_of(entry.value))
        return await self.write(entry.revision, now)

    async def write(self, last: int | None, now: float) -> bool:
        """The entry written on revision `last` (None: created); False when another wrote first."""
        value = json.dumps({"holder": self.holder}).encode()
        try:
            if last is None:
                self.revision = await self.kv.create(self.key, value)
            else:
                self.revision = await self.kv.update(self.key, value, last=last)
        except KeyWrongLastSequenceError:
            # a renewal given up waiting may have been written all the same: the entry then
            # still names this holder, on a later revision, and no one else wrote meanwhile
            mine = await self.own_revision() if self.revision is not None else None
            self.revision = None
            if mine is None:
                return False
            return await self.write(mine, now)
        self.confirmed_at = now
        return True

    async def own_revision(self) -> int | None:
        """The entry's revision if it names this holder, else None."""
        try:
            entry = await self.kv.get(self.key)
        except KeyNotFoundError:
            return None
        return entry.revision if holder_of(entry.value) == self.holder else None

    async def release(self) -> None:
        """Give the lease up (a stop): the entry deleted on this holder's revision, so a standby
        takes it at its next read instead of after LEASE seconds. Best effort: a broker away
        only makes the standby wait."""
        revision, self.revision = self.revision, None
        if revision is not None:
            with contextlib.suppress(*BROKER_ERRORS, KeyWrongLastSequenceError):
                await self.kv.delete(self.key, last=revision)


def holder_of(value: bytes | None) -> str:
    try:
        return str(json.loads(value or b"")["holder"])
    except (ValueError, TypeError, KeyError):
        return "an ingress"


async def bucket(client: Client, seconds: float) -> KeyValue:
    """The lease's key-value bucket, declared by whichever ingress comes first. On disk, as the
    stream is: a restarted broker keeps the entry, and the holder its lease."""
    js = client.jetstream(timeout=seconds)
    try:
        return await js.key_value(BUCKET)
    except BucketNotFoundError:
        return await js.create_key_value(KeyValueConfig(
            bucket=BUCKET, history=1, storage=StorageType.FILE,
            description="the getUpdates poller's lease, a key per bot (twentyfour)"))
