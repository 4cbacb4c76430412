"""One budget per person and per chat for every door work comes in by: an update (a message, a
press, an inline query, through a poll or the webhook) and each of the Mini App's requests (a
round's page, an answer made there, a player's or a group's page, a share card).

Telegram limits what a client sends through Telegram; nothing limits what reaches the bot's own
web server, and a script can flood either. So whatever one person (or one chat together) asks
draws on their bucket first, here, in one place:
- *per second*: a token bucket (`rate` a second, `burst` at most), each kind of work costing
  what it weighs (a share card is drawn by Pillow: it costs more than an answer);
- *at once*: how much of theirs is admitted and not yet done (waiting for its turn or running).
Within both, their work waits its turn (the fair queues: bot.telegram.fairness); beyond either,
it is refused at once, before it costs anything more than this look: an update is dropped (a
press hears a short notice, once a burst), a page's request gets 429 with Retry-After. A refused
piece of work never holds a place another chat's update waits for, and the bound of updates in
flight stays the intake's, global.

The defaults come from real play (docs/fairness.md): a player answers at most a few times a
second, a busy group of fifty racing for a hand sends a few dozen answers in its first seconds;
every figure here is at least twice that, so no one playing is refused.

Buckets live in memory, each map bounded: a bucket untouched for as long as it takes to refill
is full again, the same as none, so it goes (bot.runtime.timed; past BUCKETS_KEPT the least
lately stored goes early: counted as full, lenient). What is admitted and not done is counted
apart and leaves only when it is done, never evicted. In a cluster each process keeps the budget
of the doors it serves (docs/scaling.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.runtime.timed import Timed

BUCKETS_KEPT = 20_000  # people and chats whose buckets are remembered (those in use: far fewer)

# ("person", id), ("sender", a group's or channel's id), ("chat", id), ("presses", a group's id),
# ("news", a group's id), ("door", 0), ("inline", 0)
Key = tuple[str, int]
WEBAPP_DOOR: Key = ("door", 0)
INLINE_DOOR: Key = ("inline", 0)


@dataclass(frozen=True)
class Limits:
    """One budget: `rate` units a second, `burst` at most at once from a full bucket, and
    `at_once` pieces of work admitted and not done."""

    rate: float
    burst: float
    at_once: int


# A person: 5 a second on end, 20 at once after a pause, 12 in hand (docs/fairness.md).
PERSON = Limits(rate=5.0, burst=20.0, at_once=12)
# A chat, everyone in it together: 30 a second, 120 after a pause, 64 in hand (a quarter of
# MAX_UPDATES_IN_FLIGHT: three flooding chats still leave room for everyone else's).
CHAT = Limits(rate=30.0, burst=120.0, at_once=64)
# A group's presses, everyone's together, apart from what its members type: a round's buttons
# (Reveal, Next, a page's arrows) are pressed by a few members at a time, and fifty pressing at
# once want one thing done (one deal, one reveal) and hear that it is; 10 a second, 30 after a
# pause, 8 in hand, so that a crowd's presses (each answered, each a look-up of the presser's
# standing at most) never spend the group's answers nor hold more than a few of its turns.
PRESSES = Limits(rate=10.0, burst=30.0, at_once=8)

# The Mini App's HTTP API, everyone together: at most this many requests in hand (a door of
# its own: past it, 503 and Retry-After), so that many people at once never queue more work on
# the event loop than the updates' own bound (MAX_UPDATES_IN_FLIGHT) would.
WEBAPP = Limits(rate=400.0, burst=400.0, at_once=64)

# Inline queries, everyone's together: they are asked in no chat, so no chat's budget holds a
# crowd's, and fifty people's five a second each were more than every group's play. At most
# this many in hand at once — well under the connections replies go on (bot.telegram.app
# CONNECTIONS), so a crowd's answers never queue a group's reply behind them — and 50 a second.
# A query refused hears nothing: Telegram's client asks again at the next change typed.
INLINE = Limits(rate=50.0, burst=100.0, at_once=8)

# What each kind of work weighs, in units of the buckets.
UPDATE, VIEW, ANSWER, PAGE, CARD = "update", "view", "answer", "page", "card"
COSTS = {UPDATE: 1.0, VIEW: 1.0, ANSWER: 1.0, PAGE: 2.0, CARD: 4.0}


@dataclass(frozen=True)
class Pass:
    """Work admitted: the buckets it counts in while it is not done (`Doors.leave`)."""

    keys: tuple[Key, ...]


@dataclass(frozen=True)
class Refused:
    """Work refused: the seconds after which the same would be let in (whole, at least one:
    what a Retry-After says), and whether it is said: the first refusal since the person was
    last admitted, and none said within NOTICE_SECONDS (a notice once a burst)."""

    retry_after: int
    first: bool
    by: str = "person"  # whose budget ran out: a Key's kind ("person", "chat", "presses", ...)


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float
    refused: bool = False  # refused since it was last admitted (a notice went)
    told: float = -math.inf  # when a refusal was last said to it


# A refusal is said (a press's notice) at most once in this many seconds to one person, however
# often their bucket lets one more in between: fifty members of one group pressing together,
# each let in again as the group's bucket refills, were a notice for every press let in.
NOTICE_SECONDS = 5.0


class Doors:
    """The budget of every person and chat: `enter` before work, `leave` when it is done."""

    def __init__(self, person: Limits = PERSON, chat: Limits = CHAT, webapp: Limits = WEBAPP,
                 clock: Callable[[], float] = time.monotonic, inline: Limits = INLINE,
                 presses: Limits = PRESSES) -> None:
        self.limits = {"person": person, "sender": person, "chat": chat, "news": chat,
                       "door": webapp, "inline": inline, "presses": presses}
        self.clock = clock
        refill = max(_refill(limits) for limits in (person, chat, webapp, inline, presses))
        self._buckets: Timed[Key, _Bucket] = Timed(BUCKETS_KEPT, refill,
                                                         lambda: self.clock())
        self._held: dict[Key, int] = {}  # work admitted and not done, by key
        self.admitted = self.refusals = 0

    def waiting(self, person: Key) -> int | None:
        """Whether the person's work would be refused now, without counting anything: the
        seconds to wait (a check before what a request's signature costs), or None."""
        now = self.clock()
        limits = self.limits[person[0]]
        if self._held.get(person, 0) >= limits.at_once:
            return 1
        bucket = self._buckets.get(person)
        if bucket is None:
            return None
        tokens = min(limits.burst, bucket.tokens + (now - bucket.at) * limits.rate)
        return None if tokens >= 1.0 else _seconds(1.0 - tokens, limits.rate)

    def unread(self, person: Key, *more: Key | None, told: bool = True) -> bool:
        """Whether the person's next work is refused before it is even read (an update still
        JSON): they, or what else it would draw on (`more`: its chat, the inline queries'
        door), are past their budget, and — where a refusal is said (`told`: a press's
        notice) — they heard it already. Counted as a refusal when so."""
        if all(self.waiting(key) is None for key in (person, *more) if key is not None):
            return False
        bucket = self._buckets.get(person)
        if told and (bucket is None or _sayable(bucket, self.clock())):
            return False
        self.refusals += 1
        return True

    def enter(self, kind: str, person: Key, *more: Key | None) -> Pass | Refused:
        """Admit work of `kind` for the person (and in `more`: the chat it is in, if it has
        one; the door it came by, if that has a budget of its own), or refuse it."""
        cost = COSTS[kind]
        keys = (person, *(key for key in more if key is not None))
        now = self.clock()
        wait, by = 0, ""
        buckets = []
        for key in keys:
            limits = self.limits[key[0]]
            bucket = self._bucket(key, limits, now)
            buckets.append(bucket)
            if self._held.get(key, 0) >= limits.at_once:
                short = 1
            elif bucket.tokens < min(cost, limits.burst):
                short = _seconds(min(cost, limits.burst) - bucket.tokens, limits.rate)
            else:
                continue
            if short > wait:
                wait, by = short, key[0]
        if wait:
            self.refusals += 1
            first = _sayable(buckets[0], now)
            buckets[0].refused = True
            if first:
                buckets[0].told = now
            return Refused(wait, first, by)
        for key, bucket in zip(keys, buckets, strict=True):
            bucket.tokens -= cost
            self._held[key] = self._held.get(key, 0) + 1
        buckets[0].refused = False
        self.admitted += 1
        return Pass(keys)

    def leave(self, admitted: Pass) -> None:
        """The work is done (handled, answered or failed): its places are free."""
        for key in admitted.keys:
            left = self._held.get(key, 1) - 1
            if left > 0:
                self._held[key] = left
            else:
                self._held.pop(key, None)

    def held(self, key: Key) -> int:
        return self._held.get(key, 0)

    def _bucket(self, key: Key, limits: Limits, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = _Bucket(limits.burst, now)
        else:
            bucket.tokens = min(limits.burst, bucket.tokens + (now - bucket.at) * limits.rate)
            bucket.at = now
        self._buckets[key] = bucket  # (again: its time to live counts from now)
        return bucket


def _sayable(bucket: _Bucket, now: float) -> bool:
    """Whether a refusal now is said: the first since the person was last let in, and none
    said within NOTICE_SECONDS."""
    return not bucket.refused and now - bucket.told >= NOTICE_SECONDS


def person_key(user_id: int, sender_chat_id: int | None = None) -> Key:
    """Whose budget a piece of work draws on: the person's; for a message sent on behalf of a
    chat (a group's anonymous admins, a channel's posts: Telegram gives them all one shared
    account) that chat's, so one group's anonymous admins never spend another's."""
    if sender_chat_id is not None:
        return "sender", sender_chat_id
    return "person", user_id


def chat_key(chat_id: int | None, user_id: int | None = None) -> Key | None:
    """The chat's budget, for work in a group or a channel; none for a private chat (its one
    person's budget is its own) or for work in no chat (an inline query)."""
    if chat_id is None or chat_id == user_id or chat_id > 0:
        return None
    return "chat", chat_id


def press_key(chat_id: int | None, user_id: int | None = None) -> Key | None:
    """The group's presses' budget, for a press under a message in a group or a channel (as
    `chat_key`, none in a private chat or under an inline message)."""
    key = chat_key(chat_id, user_id)
    return ("presses", key[1]) if key is not None else None


def news_key(chat_id: int) -> Key:
    """A group's news (someone joined, left, was promoted): a budget of its own, as big as a
    chat's, so a join raid never spends what the group's members may ask."""
    return "news", chat_id


def _seconds(missing: float, rate: float) -> int:
    """Whole seconds until a bucket refilled at `rate` has `missing` more (at least one)."""
    return max(1, math.ceil(missing / rate)) if rate > 0 else 3600


def _refill(limits: Limits) -> float:
    """Seconds an empty bucket takes to be full again."""
    return limits.burst / limits.rate if limits.rate > 0 else math.inf
