"""Limits on what one person (or one chat) can make the bot do: replies to wrong answers, and
seconds of heavy solver work.

Both are token buckets in memory (this process is the only one answering), each map timed
(bot.runtime.timed): a bucket untouched for as long as it takes to refill is full again, the same
as no bucket, so it goes (and past BUCKETS_KEPT the least lately stored goes early: it counts as
full, lenient, never a wrong refusal). Neither ever drops a right answer: the round service
judges first and asks the throttle only about the reply. Both count a stand-in for a chat (a
group's anonymous admins) as one person in each chat: the throttle keys by chat and sender
anyway, the budget by whom bot.play.guards.stand_ins counts the sender as.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from bot.play.guards.stand_ins import counted_as
from bot.runtime.timed import Timed

BUCKETS_KEPT = 10_000  # buckets of each kind held at once (those in use: far fewer)


class Admission(Enum):
    """What to do with the reply to a wrong answer."""

    REPLY = "reply"
    NOTE = "note"  # the first one held back in a burst: say once to slow down
    QUIET = "quiet"


class Throttle:
    """A token bucket per user and chat: a burst of `burst` replies, then `per_second`.

    Someone typing several wrong answers a second gets a reply to the first few, then one note
    to slow down, then silence until the bucket refills; their answers are still judged.
    """

    def __init__(self, burst: int = 3, per_second: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        # (chat, user) -> tokens, at, noted; gone once full again (burst / per_second)
        self.buckets: Timed[tuple[int, int], tuple[float, float, bool]] = Timed(
            BUCKETS_KEPT, _refill(burst, per_second), lambda: self.clock())

    def admit(self, chat_id: int, user_id: int) -> Admission:
        now = self.clock()
        key = (chat_id, user_id)
        tokens, at, noted = self.buckets.get(key, (float(self.burst), now, False))
        tokens = min(float(self.burst), tokens + (now - at) * self.per_second)
        if tokens >= 1.0:
            self.buckets[key] = (tokens - 1.0, now, False)
            return Admission.REPLY
        self.buckets[key] = (tokens, now, True)
        return Admission.QUIET if noted else Admission.NOTE

    def allow(self, chat_id: int, user_id: int) -> bool:
        """Whether a reply may be sent now (and counts it)."""
        return self.admit(chat_id, user_id) is Admission.REPLY


@dataclass(frozen=True)
class Allowance:
    """A bucket of solver seconds: up to `seconds`, refilled at `per_second`."""

    seconds: float
    per_second: float


USER_ALLOWANCE = Allowance(20.0, 1 / 6)  # 20 s of solver time, then 10 s a minute
CHAT_ALLOWANCE = Allowance(40.0, 1 / 3)  # a group shares 40 s, then 20 s a minute
MIN_CHARGE = 0.1  # even a quick answer costs a little, so a flood of them runs dry too


@dataclass
class Ticket:
    """Seconds reserved for one piece of work, to be settled with what it really took."""

    keys: tuple[tuple[str, int], ...]
    reserved: float
    ends_by: float


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float
    running: list[Ticket] = field(default_factory=list)


class WorkBudget:
    """Seconds of heavy solver work per user and per chat.

    Work reserves its time limit up front and is let in only while every bucket it draws from
    holds that much, so one person cannot start many long jobs at once; when it ends, what it
    did not use comes back. Quick work costs almost nothing; long work drains the bucket, and
    then the answer is "busy, try again in N s".
    """

    def __init__(self, user: Allowance = USER_ALLOWANCE, chat: Allowance = CHAT_ALLOWANCE,
                 min_charge: float = MIN_CHARGE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.allowances = {"user": user, "chat": chat}
        self.min_charge = min_charge
        self.clock = clock
        # ("user" | "chat", id) -> its bucket; gone once untouched long enough to refill (the
        # settle of work it ran then finds it full: what the refill would have made it)
        self._buckets: Timed[tuple[str, int], _Bucket] = Timed(
            BUCKETS_KEPT, max(_refill(a.seconds, a.per_second) for a in (user, chat)),
            lambda: self.clock())

    def take(self, user_id: int, chat_id: int | None, seconds: float) -> Ticket | int:
        """A ticket for work that may take `seconds`, or how many seconds to wait first. A
        stand-in for a chat (a group's anonymous admins: bot.play.guards.stand_ins) has a
        person's allowance in each chat it writes in, not one across them all."""
        now = self.clock()
        keys = (("user", counted_as(chat_id, user_id)),) + \
            ((("chat", chat_id),) if chat_id is not None else ())
        short = {key: self._short(key, seconds, now) for key in keys}
        if any(missing > 1e-9 for missing in short.values()):
            return max(1, math.ceil(max(self._wait(key, missing, now)
                                        for key, missing in short.items() if missing > 1e-9)))
        ticket = Ticket(keys, seconds, now + seconds)
        for key in keys:
            bucket = self._bucket(key, now)
            bucket.tokens -= seconds
            bucket.running.append(ticket)
        return ticket

    def settle(self, ticket: Ticket, used: float) -> None:
        """The work ended having taken `used` seconds: give back the rest of its reservation."""
        now = self.clock()
        charge = min(ticket.reserved, max(self.min_charge, used))
        for key in ticket.keys:
            bucket = self._bucket(key, now)
            bucket.tokens = min(self.allowances[key[0]].seconds,
                                bucket.tokens + ticket.reserved - charge)
            bucket.running = [t for t in bucket.running if t is not ticket]

    def _bucket(self, key: tuple[str, int], now: float) -> _Bucket:
        allowance = self.allowances[key[0]]
        bucket = self._buckets.get(key) or _Bucket(allowance.seconds, now)
        self._buckets[key] = bucket  # (again: its time to live counts from now)
        bucket.tokens = min(allowance.seconds,
                            bucket.tokens + (now - bucket.at) * allowance.per_second)
        bucket.at = now
        return bucket

    def _short(self, key: tuple[str, int], seconds: float, now: float) -> float:
        """How many seconds the bucket lacks for work that may take `seconds` (a bucket never
        needs more than it can hold)."""
        allowance = self.allowances[key[0]]
        return min(seconds, allowance.seconds) - self._bucket(key, now).tokens

    def _wait(self, key: tuple[str, int], missing: float, now: float) -> float:
        """A fair guess of how long until the bucket has `missing` more seconds: its refill,
        or the end of its running work if that comes first."""
        refill = missing / self.allowances[key[0]].per_second
        ends = [t.ends_by - now for t in self._buckets[key].running]
        return max(0.0, min([refill, *ends]))


def _refill(amount: float, per_second: float) -> float:
    """Seconds an empty bucket takes to be full again (never, refilled at no rate)."""
    return amount / per_second if per_second > 0 else math.inf
