"""Fair update handling: each user's updates wait in a queue of their own, and the next update
handled is always that of the user served least lately, so one user's burst (a thousand typed
answers, a script) waits behind everyone else's updates instead of in front of them; a user has
a few updates handled at a time at most, and past a bound the rest of a burst is dropped — a
dropped button press still answered with a short notice, so no client's spinner turns on.

Wired with `ApplicationBuilder().concurrent_updates(FairUpdates())`; `install` puts it into an
application already built (the benchmarks use it).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Coroutine
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from telegram.error import TelegramError
from telegram.ext import Application, BaseUpdateProcessor

from bot.runtime import metrics
from bot.text.i18n import language_of, texts_for

log = logging.getLogger(__name__)

CONCURRENT = 32  # updates handled at a time, in all
PER_USER_RUNNING = 4  # of them at most this many of one user's
PER_USER_WAITING = 64  # a user's updates waiting beyond this are dropped
SERVED_KEPT = 10_000  # users whose last turn is remembered (the others count as never served)
# A dropped press is answered on a lane of its own, a few at a time, so a flood of presses can't
# take the connections everyone else's replies need; one that waits longer than Telegram takes
# an answer (it then refuses it: "query is too old") is let go.
NOTICES_AT_ONCE = 2
NOTICE_WAIT = 10.0
UNBOUNDED = 1 << 30  # PTB's own gate (a FIFO semaphore) lets every update through to the queues

Key = tuple[str, int]
KINDS = ("message", "edited_message", "callback_query", "inline_query", "my_chat_member")


def sender(update: object) -> Key:
    """Whose update it is: the chat it was sent on behalf of, where Telegram names one (every
    group's anonymous admins are one user, 1087968824, and channel posts share another: keyed
    by user, one group's flood would drop another group's winning answer); else its user; else
    its chat; else nobody in particular."""
    message = getattr(update, "effective_message", None)
    on_behalf = getattr(message, "sender_chat", None)
    if on_behalf is not None:
        return "chat", on_behalf.id
    user = getattr(update, "effective_user", None)
    if user is not None:
        return "user", user.id
    chat = getattr(update, "effective_chat", None)
    if chat is not None:
        return "chat", chat.id
    return "other", 0


def kind(update: object) -> str:
    """The update's type, as its metrics label: the first of KINDS it carries, else `other`."""
    return next((name for name in KINDS if getattr(update, name, None) is not None), "other")


class FairUpdates(BaseUpdateProcessor):
    """Users with updates waiting, served least lately first; `dropped` counts the updates
    refused."""

    def __init__(self, concurrent: int = CONCURRENT, per_user_running: int = PER_USER_RUNNING,
                 per_user_waiting: int = PER_USER_WAITING) -> None:
        super().__init__(UNBOUNDED)
        self.concurrent = concurrent
        self.per_user_running = per_user_running
        self.per_user_waiting = per_user_waiting
        self.dropped = 0
        self.unanswered = 0  # dropped presses whose notice could not be sent in time
        self._notices = asyncio.Semaphore(NOTICES_AT_ONCE)
        self._running = 0
        self._busy: dict[Key, int] = {}  # a user's updates being handled
        self._waiting: OrderedDict[Key, deque[asyncio.Future[None]]] = OrderedDict()
        # user -> the turn they last had; the SERVED_KEPT least lately served or asked about go
        self._served: LRUCache[Key, int] = LRUCache(SERVED_KEPT)
        self._turns = 0
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
        key = sender(update)
        queue = self._waiting.get(key)
        if queue is not None and len(queue) >= self.per_user_waiting:
            self._drop(key, coroutine)
            await self._slow_down(update)
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, deque()).append(turn)
        self._dispatch()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # its turn had come: give it back
                self._finished(key)
            else:
                self._forget(key, turn)
            _close(coroutine)
            raise
        try:
            await coroutine
        finally:
            self._finished(key)
            metrics.record_update_handled(kind(update))

    def _dispatch(self) -> None:
        """Start waiting updates while there is room, each time one of the user served least
        lately (never served first; then whoever waits longest)."""
        while self._running < self.concurrent:
            key = self._least_lately()
            if key is None:
                return
            queue = self._waiting[key]
            turn = queue.popleft()
            if not queue:
                del self._waiting[key]
            if turn.done():  # given up while waiting
                continue
            self._running += 1
            self._busy[key] = self._busy.get(key, 0) + 1
            self._turns += 1
            self._served[key] = self._turns
            turn.set_result(None)

    def _least_lately(self) -> Key | None:
        best, best_at = None, 0
        for key in self._waiting:  # in the order they began to wait
            if self._busy.get(key, 0) >= self.per_user_running:
                continue
            at = self._served.get(key, -1)
            if at < 0:  # never served: none comes before it (a burst of new users is
                return key  # served in order without a scan of everyone waiting)
            if best is None or at < best_at:
                best, best_at = key, at
        return best

    def _finished(self, key: Key) -> None:
        self._running -= 1
        busy = self._busy.get(key, 1) - 1
        if busy:
            self._busy[key] = busy
        else:
            self._busy.pop(key, None)
        self._dispatch()

    def _forget(self, key: Key, turn: asyncio.Future[None]) -> None:
        queue = self._waiting.get(key)
        if queue is not None and turn in queue:
            queue.remove(turn)
            if not queue:
                del self._waiting[key]

    async def _slow_down(self, update: object) -> None:
        """A dropped button press is answered all the same (Telegram's client waits for every
        answer, its spinner turning): a short notice, in the presser's language, to slow down.
        A dropped message needs no answer, and gets none: a flood is not answered in kind."""
        query = getattr(update, "callback_query", None)
        if query is None:
            return
        texts = texts_for(language_of(query.from_user.language_code))
        try:
            async with asyncio.timeout(NOTICE_WAIT), self._notices:
                await query.answer(texts("button_slow_down"))
        except (TelegramError, TimeoutError) as error:
            self.unanswered += 1
            if self.unanswered == 1 or self.unanswered % 1000 == 0:
                log.info("could not answer a dropped button press (%d so far): %s",
                         self.unanswered, error or "no answer in time")

    def _drop(self, key: Key, coroutine: Awaitable[Any]) -> None:
        self.dropped += 1
        metrics.record_update_dropped(metrics.QUEUE_FULL)
        if self.dropped == 1 or self.dropped % 1000 == 0:
            log.warning("%s %s sends faster than the bot answers: %d updates dropped so far",
                        *key, self.dropped)
        _close(coroutine)


def _close(coroutine: Awaitable[Any]) -> None:
    """An update that will not be handled: its coroutine is closed, never awaited."""
    close = getattr(coroutine, "close", None)
    if close is not None:
        close()


def install(application: Application, processor: BaseUpdateProcessor | None = None
            ) -> BaseUpdateProcessor:
    """Put the fair processor into an application already built (before it starts); the same
    as building it with `ApplicationBuilder().concurrent_updates(processor)`."""
    processor = processor or FairUpdates()
    application._update_processor = processor  # what the builder sets
    return processor


@dataclass(frozen=True)
class _User:
    id: int


@dataclass(frozen=True)
class Submission:
    """Work done for a user outside an update (an answer from the Mini App's page), as the
    processor sees it: whose it is (`sender` reads `effective_user.id`)."""

    effective_user: _User


async def submit_as(application: Application, user_id: int,
                    work: Coroutine[Any, Any, None]) -> None:
    """Run `work` in the user's fair turn, beside their updates (dropped past their bound,
    as a burst of updates is)."""
    await application.update_processor.process_update(Submission(_User(user_id)), work)
