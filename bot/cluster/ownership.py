"""The partitions a worker owns, kept to its fair share: with n live workers, each owns at most
⌈P/n⌉ of the P partitions. Every `every` seconds a worker looks at the table of owners
(bot.store.postgres.partition_owners): under its share, it takes free partitions (no owner, or
an owner whose lease ran out: a worker killed or frozen) and takes up their chats (`gained`:
the open rounds resumed, then their consumers started); over it, because a worker joined, it
gives the partitions above its share up — first no longer acting on them and letting their
chats go (`shed`: the consumers drained, the rounds dropped from memory), then marking them free
— so that the newcomer takes them at its next look. A worker never takes a partition a live
worker owns: the only way to lose one is to give it up, or to lose the lease, which ends the
process (bot.store.postgres.leader).

A worker looks every `every` seconds, and sooner when another worker's lease ends sooner: the
survey says when the first of them would end if not renewed, and the worker looks again just
after that moment. A live worker renews its lease long before, and the look finds it renewed;
a dead or frozen one's partitions are taken the moment its lease runs out, not up to a look's
interval later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.runtime import metrics

log = logging.getLogger(__name__)
EVERY = 1.0  # seconds between two looks at the owners' table
PAST_END = 0.02  # seconds after another worker's lease would end that the look comes
Change = Callable[[list[int]], Awaitable[None]]


class Survey(Protocol):
    @property
    def workers(self) -> int: ...  # live workers, this one among them
    @property
    def free(self) -> int: ...  # partitions no live worker owns
    @property
    def next_end(self) -> float | None: ...  # seconds until another worker's lease ends


class Owners(Protocol):
    async def survey(self) -> Survey: ...
    async def take(self, most: int) -> list[int]: ...
    async def give_up(self, partitions: list[int]) -> None: ...


def share(partitions: int, workers: int) -> int:
    """The most partitions one of `workers` live workers owns."""
    return math.ceil(partitions / max(workers, 1))


class Ownership:
    """`owned` is what this worker acts on, this object's alone (others ask `owns`); `run` keeps
    it to the share until `stop`, telling `gained` and `shed` as it changes. Built before what
    reads it (a worker's holding of its chats: bot.wiring), run once what it tells is built."""

    def __init__(self, owners: Owners, partitions: int, every: float = EVERY) -> None:
        self.owners = owners
        self.partitions = partitions
        self.every = every
        self.owned: set[int] = set()
        self.giving: list[int] = []  # let go of, not yet marked free (the database was away)
        self.failed_said = False
        self.next_look = every  # seconds until the next look

    def owns(self, partition: int) -> bool:
        return partition in self.owned

    async def run(self, stop: asyncio.Event, gained: Change, shed: Change) -> None:
        """Look every `every` seconds (or sooner: see the module's docstring) until `stop`;
        `gained`: the partitions taken, their chats to take up; `shed`: those given up, their
        chats to let go of before they are marked free."""
        while not stop.is_set():
            self.next_look = self.every
            try:
                await self.step(gained, shed)
                self.failed_said = False
            except Exception as error:  # the database away: the lease's gate decides the rest
                if not self.failed_said:
                    log.warning("partitions: could not look at the owners (%s: %s); trying "
                                "every %g s", type(error).__name__, error, self.every)
                    self.failed_said = True
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.next_look):
                    await stop.wait()

    async def step(self, gained: Change, shed: Change) -> None:
        """One look: take up to the share, or give up what is over it."""
        if self.giving:
            await self.owners.give_up(self.giving)
            self.giving = []
        survey = await self.owners.survey()
        if survey.next_end is not None:
            self.next_look = min(self.every, survey.next_end + PAST_END)
        most = share(self.partitions, survey.workers)
        if len(self.owned) < most and survey.free:
            taken = await self.owners.take(most - len(self.owned))
            if taken:
                self.owned.update(taken)
                metrics.record_takeover()
                await gained(taken)
                log.info("partitions: took %d (%s), consuming %d of %d with %d workers",
                         len(taken), spans(taken), len(self.owned), self.partitions,
                         survey.workers)
        elif len(self.owned) > most:
            extra = sorted(self.owned)[most:]
            self.owned.difference_update(extra)  # acted on no more from here
            self.giving = extra
            await shed(extra)
            await self.owners.give_up(extra)
            self.giving = []
            log.info("partitions: gave up %d (%s) for %d workers, owning %d", len(extra),
                     spans(extra), survey.workers, len(self.owned))


def spans(partitions: list[int]) -> str:
    """`0-7, 12` for [0, 1, ..., 7, 12]: a log line's worth."""
    parts: list[str] = []
    for p in sorted(partitions):
        if parts and parts[-1].split("-")[-1] == str(p - 1):
            parts[-1] = f"{parts[-1].split('-')[0]}-{p}"
        else:
            parts.append(str(p))
    return ", ".join(parts)
