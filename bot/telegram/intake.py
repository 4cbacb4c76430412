"""The bot's intake: how many updates it holds at once, and the wait for room.

An update is *in hand* from when it is taken from Telegram (a long poll's answer, a webhook's
request) until the application is done with it (its handlers ended, or it was skipped): the
`Intake` is the application's update queue, and PTB calls `task_done` for each update only
when it has been handled, so the queue's count of unfinished updates is exactly that. Nothing
takes an update without room: the poller asks Telegram for at most as many updates as there is
room for (none while full: Telegram keeps the rest, in order), and the webhook holds a request
before reading its body until there is room (bot.telegram.webhook). So however many updates wait
at Telegram — a flood, a restart after a day down, a webhook's retry storm — the bot holds at
most `bound` (MAX_UPDATES_IN_FLIGHT) of them, and its memory with them.

Room is promised before an update is fetched (`room`), and a promise not kept (a batch shorter
than asked, a body that is not an update) is given back (`give_back`): so the updates in hand
and the places promised together never pass the bound, however many requests wait at once.
The same idea as grammY's runner, whose sink tells its source how many more updates it takes.

A full intake frees its places one at a time, as handlers end: a poller that asked as soon as
one was free would fetch the rest of a burst a few updates a getUpdates, each a round trip during
which nothing more came in (a burst of 800 updates took 26 polls that way, 11 this way). So the
poller waits for a batch's room — a quarter of the bound, at most Telegram's 100 — and takes
what is free after GATHER_SECONDS if that much never frees (a handler stuck, places promised to
the webhook): with three quarters of the bound still in hand the bot has work meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from bot.runtime import metrics

MAX_BATCH = 100  # Telegram's largest getUpdates answer
BATCH_SHARE = 4  # a poll waits for this share of the bound to be free (see the docstring)
GATHER_SECONDS = 1.0  # ... but no longer than this once some room is free


class Intake(asyncio.Queue[object]):
    """The application's update queue, which counts the updates in hand and lets whoever takes
    them from Telegram wait for room. `most` is the largest number held at once."""

    def __init__(self, bound: int) -> None:
        if bound < 1:
            raise ValueError("an intake holds at least one update")
        super().__init__()
        self.bound = bound
        self.in_hand = 0
        self.promised = 0  # places promised to updates on their way in
        self.most = 0
        self.closed = False  # the process is stopping: no room for anything more
        self._freed = asyncio.Event()
        metrics.watch_intake(lambda: self.in_hand, lambda: self.most)

    # --- PTB's side: an update put in, and done with ----------------------------------------------

    def put_nowait(self, item: object) -> None:
        super().put_nowait(item)
        self.in_hand += 1
        self.most = max(self.most, self.in_hand)

    def task_done(self) -> None:
        super().task_done()
        self.in_hand -= 1
        self._freed.set()

    # --- the poller's and the webhook's side ------------------------------------------------------

    def free(self) -> int:
        """Places neither held nor promised."""
        return self.bound - self.in_hand - self.promised

    def batch(self) -> int:
        """The room a poll waits for: a share of the bound, at most a full getUpdates."""
        return max(1, min(MAX_BATCH, self.bound // BATCH_SHARE))

    async def room(self, wanted: int = 1, timeout: float | None = None, least: int = 1,
                   gather: float = 0.0) -> int:
        """Wait until there is room, and promise up to `wanted` places: how many were promised
        (at least one; 0 when `timeout` seconds passed first, or the intake closed). Once some
        room is free, wait up to `gather` seconds more for `least` places. The wait is a
        metric."""
        started = time.monotonic()
        try:
            async with asyncio.timeout(timeout):
                await self._free_at_least(1)
        except TimeoutError:
            pass
        if 0 < self.free() < min(least, wanted) and gather > 0:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(gather):
                    await self._free_at_least(min(least, wanted))
        metrics.observe_intake_wait(time.monotonic() - started)
        if self.closed or self.free() <= 0:
            return 0
        promised = min(wanted, self.free())
        self.promised += promised
        return promised

    async def _free_at_least(self, places: int) -> None:
        while self.free() < places and not self.closed:
            self._freed.clear()
            await self._freed.wait()

    def take(self, update: object) -> None:
        """An update that was promised a place comes in."""
        self.promised = max(self.promised - 1, 0)
        self.put_nowait(update)

    def close(self) -> None:
        """Take nothing more (the process stops): whoever waits for room hears there is none."""
        self.closed = True
        self._freed.set()

    def give_back(self, places: int) -> None:
        """Places promised that no update will take."""
        if places > 0:
            self.promised = max(self.promised - places, 0)
            self._freed.set()
