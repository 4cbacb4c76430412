"""Fair update handling: each chat's updates wait in a queue of their own, in the order they came,
and the next update handled is always one of the chat served least lately, so one chat's burst (a
thousand typed answers, a script) waits behind every other chat's updates instead of in front of
them; a chat has a few updates handled at a time at most, started in the order they came (so the
first of two answers to arrive is the first judged, however busy the bot is). Nothing is dropped:
the queues hold MAX_UPDATES_IN_FLIGHT updates in all (waiting and running), and past that an
update waits for room before it joins them — which never happens to polled or webhook updates,
since the intake (bot.telegram.intake) takes no more than that many from Telegram.

Before an update joins a queue it draws on its sender's and its chat's budget (`doors`: one
budget per person and per chat for every door, bot.runtime.doors); past it, it is refused at once
(its coroutine closed, `refused` told) and its place is free again: a flood never holds a place
another chat's update waits for. Work the Mini App submits was admitted at its own door, and
takes the turn of the chat it is about (`submit_as`).

Within its budget a chat's work still has a share of the turns, SHARE a second (SHARE_BURST after
a pause): a chat past its share waits for the bot's slack, its updates started only when no other
chat's update is waiting to start, SLACK_RUNNING of all such at a time, and while the bot's core
is busy (`CpuBusy`) only TRICKLE a second. A crowd of members each within their budget, who
together stay within their group's, is still a few hundred pieces of work at once
(docs/benchmarks.md, "Floods"); on a busy bot, run beside every other group's updates, they made
every reply wait. Now they take the bot's spare time and no one's turn. The order of a chat's own
updates is kept: its whole queue waits in one class. Nothing is refused for it. A person's pages
and cards (`submit_as(..., page=True)`) are always in the slack.

An inline query still waiting for its turn when the same person's next one arrives is dropped
(counted `superseded`): Telegram's client sends a query at each change of what is typed and
shows the answer to the newest alone, so answering the older is work nobody sees. A person
typing, or a script sending a thousand, has one inline query waiting at a time, not a thousand
holding the places other chats' updates need.

Wired with `ApplicationBuilder().concurrent_updates(FairUpdates(...))`: the composition root
builds it before the application (bot.telegram.app.fair_updates), and hands it to the Mini App's
face too, whose work for a user takes its turn here (`submit_as`).
"""

from __future__ import annotations

import asyncio
import heapq
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram.ext import BaseUpdateProcessor

from bot.runtime import arrivals, metrics
from bot.runtime.doors import UPDATE, Doors, Refused
from bot.runtime.lru import LRU
from bot.telegram.over_budget import keys_of

CONCURRENT = 32  # updates handled at a time, in all
PER_CHAT_RUNNING = 4  # of them at most this many of one chat's
BOUND = 256  # updates waiting or running in all (MAX_UPDATES_IN_FLIGHT)
# chats whose last turn is remembered, at least SERVED_PER_PLACE for each of the `bound`'s places
# (the others count as never served). A chat waiting is served within about `bound` turns, so one
# forgotten has been away for many times that, and first in line is where its turn puts it anyway;
# at 10,000 the map was 1.7 MB of a simulated day's growth (bench/bench_soak.py)
SERVED_KEPT, SERVED_PER_PLACE = 2_048, 8

# a chat's share of the turns: this many of its updates a second start as any chat's would, and
# SHARE_BURST after a pause; past it they start only when no other chat's is waiting, and
# SLACK_RUNNING of all such at a time. A busy group's round (a few dozen answers in its first
# seconds, docs/fairness.md) stays within it; fifty members flooding together do not
SHARE, SHARE_BURST, SLACK_RUNNING = 10.0, 40.0, 2
# busy: over BUSY of a core in the last BUSY_WINDOW seconds; then the slack starts TRICKLE a
# second (a few milliseconds each: a few percent of a core)
BUSY, BUSY_WINDOW, TRICKLE = 0.75, 0.05, 10.0
PAGES = "page"  # the lane of a person's pages and cards: read, not played, so always in the slack

Key = tuple[str, int]
WAITING, HANDLING = metrics.stage_timer("waiting"), metrics.stage_timer("handling")
SLACK_WAITING = metrics.stage_timer("slack")  # the wait of work past its share, or a page's
KINDS = ("message", "edited_message", "callback_query", "inline_query", "my_chat_member")


def sender(update: object) -> Key:
    """Whose turn an update takes: its chat's, where it has one (a message, a press under a
    message, the bot added or removed; every group's anonymous admins and channel posts are
    keyed by the chat they are in, so one group's flood never waits in front of another's
    answer); else its user's (an inline query, a press under an inline message); else nobody's
    in particular."""
    chat = getattr(update, "effective_chat", None)
    if chat is not None:
        return "chat", chat.id
    user = getattr(update, "effective_user", None)
    if user is not None:
        return "user", user.id
    return "other", 0


def came(update: object) -> float:
    """When the update came, on arrivals' clock: now, or, for a message that waited at Telegram
    (the intake was full), when Telegram dated it (an edit by its edit's date)."""
    return arrivals.monotonic() - arrivals.held(arrivals.dated(update))


def kind(update: object) -> str:
    """The update's type, as its metrics label: the first of KINDS it carries, else `other`."""
    return next((name for name in KINDS if getattr(update, name, None) is not None), "other")


class FairUpdates(BaseUpdateProcessor):
    """Chats with updates waiting, served least lately first, `bound` updates in all."""

    def __init__(self, concurrent: int = CONCURRENT, per_chat_running: int = PER_CHAT_RUNNING,
                 bound: int = BOUND, doors: Doors | None = None,
                 refused: Callable[[object, Refused], None] | None = None,
                 share: tuple[float, float] = (SHARE, SHARE_BURST),
                 slack_running: int = SLACK_RUNNING,
                 clock: Callable[[], float] = time.monotonic,
                 busy: Callable[[], bool] | None = None) -> None:
        super().__init__(bound)  # PTB's gate (a FIFO semaphore): `bound` updates in here at most
        self.doors = doors  # None: no budget (a bare processor, as the benchmarks' baseline)
        self.refused = refused
        self.concurrent = concurrent
        self.per_chat_running = per_chat_running
        self.bound = bound
        self._running = 0
        self._busy: dict[Key, int] = {}  # a chat's updates being handled
        self._waiting: OrderedDict[Key, deque[asyncio.Future[bool]]] = OrderedDict()
        # the chats with an update waiting that may start one now, by (the turn they were last
        # served, -1 never; when they began to wait): the next is the heap's least, not a scan
        # of every chat waiting (with 200 chats waiting a scan was a fifth of an update's CPU)
        self._ready: list[tuple[int, int, Key]] = []
        self._in_ready: set[Key] = set()
        self._arrivals = 0
        # chat -> the turn it last had; the SERVED_KEPT least lately served or asked about go
        self._served: LRU[Key, int] = LRU(max(SERVED_KEPT, SERVED_PER_PLACE * bound))
        self._turns = 0
        self._newest_query: dict[int, asyncio.Future[bool]] = {}  # a person's waiting query
        self.share_rate, self.share_burst = share
        self.slack_running = slack_running
        self._clock = clock
        self._busy_probe = busy
        self._trickle_at = 0.0
        self._redispatch: asyncio.TimerHandle | None = None
        # chats past their share, with an update waiting: started only when `_ready` is empty,
        # by the same order
        self._slack: list[tuple[int, int, Key]] = []
        self._in_slack = 0  # updates started from it and still running
        self._slack_turns: set[asyncio.Future[bool]] = set()
        self._slack_waited: set[asyncio.Future[bool]] = set()  # ... and those started from it
        # chat -> (its share left, when it was counted); one forgotten has its whole share
        self._shares: LRU[Key, tuple[float, float]] = LRU(self._served.maxsize)
        metrics.watch_fair_queue(self.waiting)

    async def initialize(self) -> None:
        """Nothing to open: the queues live in memory."""

    async def shutdown(self) -> None:
        """Nothing to close: an update still waiting is cancelled with its task by PTB."""

    def waiting(self, key: Key | None = None) -> int:
        if key is not None:
            return len(self._waiting.get(key, ()))
        return sum(map(len, self._waiting.values()))

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        keys = None if self.doors is None or isinstance(update, Submission) else keys_of(update)
        if keys is None:
            # a player's time counts from here (or Telegram's date), not from its turn
            with arrivals.arrived(came(update)):
                await self._in_turn(update, coroutine)
            return
        assert self.doors is not None
        admitted = self.doors.enter(UPDATE, *keys)
        if isinstance(admitted, Refused):
            _close(coroutine)
            if self.refused is not None:
                self.refused(update, admitted)
            return
        try:
            with arrivals.arrived(came(update)):
                await self._in_turn(update, coroutine)
        finally:
            self.doors.leave(admitted)

    async def _in_turn(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = update.key if type(update) is Submission else sender(update)
        joined = time.perf_counter()
        turn: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, deque()).append(turn)
        querier = self._supersede(update, turn)
        self._make_ready(key)
        self._dispatch()
        try:
            superseded = await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled() and not turn.result():  # its turn had
                self._finished(key, turn)  # come: give it back
            else:
                self._forget(key, turn)
            _close(coroutine)
            raise
        finally:
            if querier is not None and self._newest_query.get(querier) is turn:
                del self._newest_query[querier]
        if superseded:
            self._forget(key, turn)
            _close(coroutine)
            metrics.record_update_dropped(metrics.SUPERSEDED)
            return
        began = time.perf_counter()
        if turn in self._slack_waited:
            self._slack_waited.discard(turn)
            SLACK_WAITING(began - joined)
        else:
            (SLACK_WAITING if turn in self._slack_turns else WAITING)(began - joined)
        try:
            await coroutine
        finally:
            self._finished(key, turn)
            HANDLING(time.perf_counter() - began)
            metrics.record_update_handled(kind(update))

    def _supersede(self, update: object, turn: asyncio.Future[bool]) -> int | None:
        """For an inline query: its sender's query still waiting, if any, given up (its turn
        told True); this one their newest. Its sender's id (None: not an inline query)."""
        query = getattr(update, "inline_query", None)
        if query is None:
            return None
        older = self._newest_query.get(query.from_user.id)
        if older is not None and not older.done():
            older.set_result(True)
        self._newest_query[query.from_user.id] = turn
        return int(query.from_user.id)

    def _make_ready(self, key: Key) -> None:
        """The chat may start an update now (it has one waiting, and room to run it): in the
        heap, once, by when it was last served."""
        if key in self._in_ready or key not in self._waiting or \
                self._busy.get(key, 0) >= self.per_chat_running:
            return
        self._arrivals += 1
        heapq.heappush(self._ready, (self._served.get(key, -1), self._arrivals, key))
        self._in_ready.add(key)

    def _dispatch(self) -> None:
        """Start waiting updates while there is room, each time the next of the chat served
        least lately (never served first; then whoever waits longest); a chat past its share
        only when no other waits, SLACK_RUNNING such at a time."""
        while self._running < self.concurrent:
            if self._ready:
                entry = heapq.heappop(self._ready)
                slack = waited = False
            elif self._slack:
                shared = self._has_share(self._slack[0][2])  # its share came back meanwhile
                if not shared and not (self._in_slack < self.slack_running
                                       and self._slack_allowed()):
                    return
                entry = heapq.heappop(self._slack)
                slack, waited = not shared, True
            else:
                return
            key = entry[2]
            self._in_ready.discard(key)
            queue = self._waiting.get(key)
            if not queue or self._busy.get(key, 0) >= self.per_chat_running:
                continue  # gone meanwhile; or full, and ready again when one of its ends
            if not slack and not self._spend_share(key):
                heapq.heappush(self._slack, entry)  # past its share: waits for the slack
                self._in_ready.add(key)
                continue
            turn = queue.popleft()
            if not queue:
                del self._waiting[key]
            if turn.done():  # given up while waiting
                self._make_ready(key)
                continue
            self._running += 1
            self._busy[key] = self._busy.get(key, 0) + 1
            if slack:
                self._in_slack += 1
                self._slack_turns.add(turn)
            elif waited:  # its share came back while it waited in the slack
                self._slack_waited.add(turn)
            self._turns += 1
            self._served[key] = self._turns
            turn.set_result(False)
            self._make_ready(key)

    def _slack_allowed(self) -> bool:
        """Whether work past its share may start now: at once while the bot is not busy; while
        it is, TRICKLE a second (a dispatch is asked for when the next may start)."""
        if self._busy_probe is None or not self._busy_probe():
            return True
        now = self._clock()
        if now >= self._trickle_at:
            self._trickle_at = now + 1 / TRICKLE
            return True
        if self._redispatch is None:
            self._redispatch = asyncio.get_running_loop().call_later(
                self._trickle_at - now, self._dispatch_later)
        return False

    def _dispatch_later(self) -> None:
        self._redispatch = None
        self._dispatch()

    def _has_share(self, key: Key) -> bool:
        if key[0] == PAGES:
            return False
        share = self._shares.get(key)
        if share is None:
            return True
        left, then = share
        return left + (self._clock() - then) * self.share_rate >= 1

    def _spend_share(self, key: Key) -> bool:
        """One of the chat's share spent, if it has one left (refilled since it was counted);
        a page's lane has none."""
        if key[0] == PAGES:
            return False
        now = self._clock()
        share = self._shares.get(key)
        left = self.share_burst if share is None else \
            min(self.share_burst, share[0] + (now - share[1]) * self.share_rate)
        if left < 1:
            return False
        self._shares[key] = (left - 1, now)
        return True

    def _finished(self, key: Key, turn: asyncio.Future[bool]) -> None:
        self._running -= 1
        self._slack_waited.discard(turn)
        if turn in self._slack_turns:
            self._slack_turns.discard(turn)
            self._in_slack -= 1
        busy = self._busy.get(key, 1) - 1
        if busy:
            self._busy[key] = busy
        else:
            self._busy.pop(key, None)
        self._make_ready(key)
        self._dispatch()

    def _forget(self, key: Key, turn: asyncio.Future[bool]) -> None:
        queue = self._waiting.get(key)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self._waiting[key]


def _close(coroutine: Awaitable[Any]) -> None:
    """An update that will not be handled: its coroutine is closed, never awaited."""
    close = getattr(coroutine, "close", None)
    if close is not None:
        close()


@dataclass(frozen=True)
class _Id:
    id: int


@dataclass(frozen=True)
class Submission:
    """Work done for a user outside an update (an answer from the Mini App's page), as the
    processor sees it: whose it is, the chat it is about, and whose turn it takes (`key`: the
    chat's, as that chat's typed answers; or the person's lane of pages, PAGES)."""

    effective_user: _Id
    effective_chat: _Id
    key: Key


async def submit_as(processor: BaseUpdateProcessor, user_id: int, chat_id: int,
                    work: Coroutine[Any, Any, None], page: bool = False) -> None:
    """Run `work` in the fair turn of the chat it is about (`chat_id`: the round's group, or the
    user's private chat), beside the chats' updates (waiting for room when the queues are full,
    as an update would). The chat's, not the user's: fifty members answering a group's round on
    the page take the group's few places at a time, as their typed answers would, not fifty
    people's — each of whom would wait on the group's round while holding a place another
    chat's update needs. A `page` (a player's or a group's page, a card) is read, not played:
    it takes its person's lane of pages, run in the bot's slack alone, so a crowd reading pages
    takes no chat's turn and no chat's share of the core."""
    key = (PAGES, user_id) if page else ("chat", chat_id)
    await processor.process_update(Submission(_Id(user_id), _Id(chat_id), key), work)


class CpuBusy:
    """Whether the process has used more than BUSY of a core over its last BUSY_WINDOW (its CPU
    time, every thread's: the store's, a card's drawing)."""

    def __init__(self, wall: Callable[[], float] = time.perf_counter,
                 cpu: Callable[[], float] = time.process_time) -> None:
        self._wall, self._cpu_time = wall, cpu
        self._at, self._cpu, self._busy = wall(), cpu(), False

    def __call__(self) -> bool:
        now = self._wall()
        if now - self._at >= BUSY_WINDOW:
            cpu = self._cpu_time()
            self._busy = (cpu - self._cpu) / (now - self._at) > BUSY
            self._at, self._cpu = now, cpu
        return self._busy
