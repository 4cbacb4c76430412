"""The send budget's rules: Telegram's limits on what a bot sends, kept as sliding windows of the
grants made, so that no window of arrivals at Telegram holds more than a limit allows — right
after a quiet spell or a backlog too.

Why not a bucket refilled by the time elapsed (aiolimiter's, which PTB's AIORateLimiter uses):
capped at a second's worth, it lets the whole second's worth through at once after a quiet spell
and then leaks at the rate, so one sliding second may see twice the rate (and one sliding minute
of a group 40 where Telegram allows 20). Here a token comes back a whole window after it was
taken, not by the time elapsed: what Telegram counts is the calls that arrived in the last
second (or minute), and this counts the same.

- `Window`: the grants of the last window (when, how many) and the end of a 429's pause; the
  rules alone, shared by the one process and by the cluster's budget (bot/cluster/budget.py,
  which keeps the window in the broker).
- `LocalBudget`: a rate of one process on a `Window` of its own: the messages' (SEND_RATE), and
  the look-ups' (LOOKUP_RATE).
- `ChatShares`: each chat's own share (a group's 20 a minute, a private chat's about one a
  second), which every worker keeps for the chats it owns.

Every call that names a chat and changes something counts against its chat's share and the
messages' rate — messages, edits, reactions, chat actions: whatever carries a `chat_id` — since
Telegram's answer to too many is a 429 for the chat or the bot, whatever the method. A look-up
(`is_lookup`: getChatMember and every other read) is no message: it draws on the look-ups' rate
alone, so a group whose members open the Mini App does not wait for its own deal behind their
membership checks (docs/scaling.md, "What Telegram allows").
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

# seconds a send may take from its grant to its arrival at Telegram (the event loop's turn, the
# request's way): a window spans the limit's period and this, since what Telegram counts is
# arrivals, and sends granted at a second's two ends and delayed unevenly on their way would
# otherwise arrive one too many in one second
TRAVEL = 0.1
WINDOW = 1.0 + TRAVEL  # the overall rate's window: SEND_RATE 30 sends at most 27 a second on end
LEAST_WAIT = 0.001  # seconds: a wait that float rounding could make nothing
# a chat's own share: (calls, seconds). Telegram's FAQ: 20 messages a minute in a group; about
# one a second in a private chat, "short bursts" allowed: three in any three seconds
GROUP_SHARE = (20, 60.0)
PRIVATE_SHARE = (3, 3.0)
KEEP_CHATS = 512  # past this many chats' windows, the idle ones are dropped
READS = "get"  # the Bot API names every method that only reads get... (getChatMember, getChat)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


@dataclass
class Window:
    """The grants of the last `span` seconds and the pause after a 429. Plain data and rules,
    so a window kept in memory and one kept in the broker follow the same ones."""

    grants: list[tuple[float, int]] = field(default_factory=list)
    paused_until: float = 0.0

    def grant(self, now: float, want: int, rate: int, span: float = WINDOW) -> tuple[int, float]:
        """Take up to `want` of `rate` tokens a `span` at `now`: (how many, 0), or (0, seconds
        to wait first)."""
        if now < self.paused_until:
            return 0, max(self.paused_until - now, LEAST_WAIT)
        # a grant more than a second ahead is a clock stepped back, not a send to wait for
        recent = [(at, count) for at, count in self.grants if now - span < at < now + 1]
        room = rate - sum(count for _, count in recent)
        if room <= 0:  # the oldest grant of the window comes back first
            return 0, max(min(at for at, _ in recent) + span - now, LEAST_WAIT)
        taken = min(want, room)
        self.grants = [*recent, (now, taken)]
        return taken, 0.0

    def pause(self, until: float) -> None:
        self.paused_until = max(self.paused_until, until)

    def encode(self) -> bytes:
        return json.dumps({"grants": self.grants, "paused_until": self.paused_until}).encode()

    @classmethod
    def decode(cls, raw: bytes | None) -> Window:
        """The window written by `encode`; one that cannot be read is begun again."""
        try:
            data = json.loads(raw or b"")
            return cls([(float(at), int(count)) for at, count in data["grants"]],
                       float(data["paused_until"]))
        except (ValueError, TypeError, KeyError):
            return cls()

    def idle(self, now: float, span: float) -> bool:
        """Whether nothing granted within `span` still counts, and no pause runs."""
        return now >= self.paused_until and all(at <= now - span for at, _ in self.grants)


def is_lookup(endpoint: str) -> bool:
    """Whether a Bot API method only reads (getChatMember, getChat, getChatAdministrators,
    getChatMemberCount...): a look-up, not a message, whichever chat it names. Method names are
    case-insensitive in the Bot API."""
    return endpoint.lower().startswith(READS)


class LocalBudget:
    """A rate of one process (the messages', or the look-ups'): `take()` before each call it
    counts (it returns once the call may go, in the order asked), `pause(seconds)` on a 429."""

    def __init__(self, rate: int, clock: Clock = time.monotonic,
                 sleep: Sleep = asyncio.sleep) -> None:
        self.rate = rate
        self.clock = clock
        self.sleep = sleep
        self.window = Window()
        self.lock = asyncio.Lock()  # first come, first served

    async def take(self) -> float:
        """Wait until a call may go; the time (on the clock) its token was granted."""
        async with self.lock:
            while True:
                now = self.clock()
                taken, wait = self.window.grant(now, 1, self.rate)
                if taken:
                    return now
                await self.sleep(wait)

    async def pause(self, seconds: float) -> None:
        self.window.pause(self.clock() + seconds)


def share_of(chat_id: int | str) -> tuple[int, float]:
    """The chat's own share, (calls, seconds): a group's, a channel's (by @username) or a
    private chat's (a person's id is positive)."""
    if isinstance(chat_id, str):
        try:
            chat_id = int(chat_id)
        except ValueError:
            return GROUP_SHARE  # @channelusername
    return PRIVATE_SHARE if chat_id > 0 else GROUP_SHARE


class ChatShares:
    """Each chat's own share: `take(chat_id)` returns once a call to the chat may go, a chat's
    calls in the order asked. Kept for the chats with calls in their window; past KEEP_CHATS,
    the idle ones are dropped (a dropped window held nothing that still counts)."""

    def __init__(self, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep) -> None:
        self.clock = clock
        self.sleep = sleep
        self.windows: dict[int | str, Window] = {}
        self.locks: dict[int | str, asyncio.Lock] = {}
        self.asking: dict[int | str, int] = {}  # calls taking or waiting, by chat

    async def take(self, chat_id: int | str) -> None:
        calls, seconds = share_of(chat_id)
        span = seconds + TRAVEL
        self.asking[chat_id] = self.asking.get(chat_id, 0) + 1
        try:
            async with self.locks.setdefault(chat_id, asyncio.Lock()):
                window = self.windows.setdefault(chat_id, Window())
                while True:
                    taken, wait = window.grant(self.clock(), 1, calls, span)
                    if taken:
                        break
                    await self.sleep(wait)
        finally:
            self.asking[chat_id] -= 1
            if not self.asking[chat_id]:
                del self.asking[chat_id]
        if len(self.windows) > KEEP_CHATS:
            self.forget_idle()

    def forget_idle(self) -> None:
        now = self.clock()
        for chat_id, window in list(self.windows.items()):
            if chat_id not in self.asking and window.idle(now, share_of(chat_id)[1] + TRAVEL):
                del self.windows[chat_id]
                self.locks.pop(chat_id, None)
