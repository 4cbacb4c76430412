"""The stock of ready deals: for each kind of deal (game, numbers, level, target), hands dealt ahead
with their analysis in the solver pool's heavy lane, so that a /play is a lookup and no deal,
however rare its target, ever takes the lane that judges answers.

Quick kinds are made ahead of everything else in the heavy lane, so a member looping the rarest
deal never empties the plain /play's shelf; a slow kind (another target, more numbers) is made in
the turn of whoever asked for it, among everyone's questions, so it waits behind their own earlier
work and never in front of another person's /solve; and its search (up to DEAL_SECONDS) runs in
slices of SLICE_SECONDS, each a turn of its own, so a question asked meanwhile waits for one slice
at most, not for the whole search. A kind's shelf starts small (a slow one at one
spare hand) and doubles (up to a cap) each time a deal finds it empty, so the stock follows demand:
the plain /play keeps many hands, a one-off `/play 6 = 997` one. A deal that finds its shelf empty
waits for the next hands made, which are made in order of asking; every hand comes from the round
service's seeded rng, as it did when dealt on demand.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.play.rules.base import Rules
from bot.play.rules.batches import (
    ANALYSIS_GRACE,
    DEAL_GRACE,
    DEAL_SECONDS,
    SLICE_SECONDS,
    Maker,
    Unfinished,
    deal_many,
    deal_slice,
)
from bot.play.rules.records import Deal, PlayOptions
from bot.runtime import metrics
from bot.runtime.pool import QUESTIONS, ROUND_WORK, SPARES, SolverPool, SolverTimeout

log = logging.getLogger(__name__)

FIRST_SIZE = 16  # hands a kind's shelf holds at first (a slow kind: COSTLY_MOST)
QUICK_MOST = 256  # the most it grows to for a quick kind (a plain /play: ~2 ms a hand)
COSTLY_MOST = 4  # and for a costly one (another target, more numbers: up to ~2 s a hand)
BATCH = 32  # quick hands made in one trip to a worker
KINDS_KEPT = 64  # shelves kept; the one asked for least lately goes first

Ready = tuple[Deal | None, float]
"""A hand (None: the options admit none in the deal's time) and the CPU seconds it cost."""


@dataclass
class Shelf:
    make: Maker
    args: tuple
    costly: bool
    per_hand: float  # how long making one hand may take, waits aside
    size: int = FIRST_SIZE
    hands: deque[Ready] = field(default_factory=deque)
    waiting: deque[asyncio.Future[Ready]] = field(default_factory=deque)
    filling: asyncio.Task | None = None
    barren: bool = False  # the last hands made were none: made again only when asked
    asker: int | None = None  # a slow kind's work is in the turn of whoever asked last

    def short(self) -> bool:
        return any(not w.done() for w in self.waiting) or \
            (not self.barren and len(self.hands) < self.size)


class Stock:
    """Every shelf of the bot; `take` is a deal. `seed` draws the next hand's seed."""

    def __init__(self, pool: SolverPool, seed: Callable[[], int]) -> None:
        self.pool = pool
        self.seed = seed
        self.shelves: OrderedDict[tuple, Shelf] = OrderedDict()
        metrics.watch_stock(lambda: len(self.shelves),
                            lambda: sum(len(s.hands) for s in self.shelves.values()))

    async def take(self, rules: Rules, options: PlayOptions,
                   budget: float = DEAL_SECONDS, who: int | None = None) -> Ready:
        """A ready hand of this kind, or, if none is on the shelf, the next one made (the
        shelf grows). SolverTimeout when making it took too long. `who` asked: a slow kind's
        hands are made in their turn in the heavy lane, behind their own earlier work and
        not in front of anyone else's question."""
        shelf = self._shelf(rules, options, budget)
        if shelf.costly:
            shelf.asker = who
        if shelf.hands:
            ready = shelf.hands.popleft()
            self._fill(shelf)
            return ready
        shelf.size = min(shelf.size * 2, COSTLY_MOST if shelf.costly else QUICK_MOST)
        waiter: asyncio.Future[Ready] = asyncio.get_running_loop().create_future()
        shelf.waiting.append(waiter)
        self._fill(shelf)
        return await waiter

    async def fill(self, rules: Rules, options: PlayOptions,
                   budget: float = DEAL_SECONDS) -> int:
        """Fill this kind's shelf now (at start-up, say); how many hands it then holds."""
        shelf = self._shelf(rules, options, budget)
        self._fill(shelf)
        if shelf.filling is not None:
            await asyncio.shield(shelf.filling)
        return len(shelf.hands)

    def ready(self, rules: Rules, options: PlayOptions, budget: float = DEAL_SECONDS) -> int:
        """How many hands of this kind are on the shelf."""
        shelf = self.shelves.get(self._key(rules, options, budget))
        return len(shelf.hands) if shelf else 0

    def _key(self, rules: Rules, options: PlayOptions, budget: float) -> tuple:
        make, args = rules.dealer(options, budget)
        return rules.name, make.__module__, make.__name__, args

    def _shelf(self, rules: Rules, options: PlayOptions, budget: float) -> Shelf:
        key = self._key(rules, options, budget)
        shelf = self.shelves.get(key)
        if shelf is None:
            make, args = rules.dealer(options, budget)
            costly = rules.costly(options)
            shelf = Shelf(make, args, costly, budget + DEAL_GRACE + ANALYSIS_GRACE,
                          size=1 if costly else FIRST_SIZE)
            self.shelves[key] = shelf
            self._forget_old()
        self.shelves.move_to_end(key)
        return shelf

    def _forget_old(self) -> None:
        for key in list(self.shelves)[:max(0, len(self.shelves) - KINDS_KEPT)]:
            shelf = self.shelves[key]
            if not shelf.waiting and shelf.filling is None:
                del self.shelves[key]

    def _fill(self, shelf: Shelf) -> None:
        if shelf.filling is None and shelf.short():
            shelf.filling = asyncio.create_task(self._filling(shelf))

    async def _filling(self, shelf: Shelf) -> None:
        """Make hands until the shelf is full and nobody waits: the ones waiting first, in
        order of asking, in batches (one hand at a time, in slices, where a hand may take
        seconds)."""
        try:
            while shelf.short():
                try:
                    made = await (self._costly_hand(shelf) if shelf.costly else
                                  self._quick_hands(shelf))
                except Exception as error:  # SolverTimeout, a broken pool: the askers hear it
                    self._fail(shelf, error)
                    shelf.barren = True
                    return
                shelf.barren = all(dealt is None for dealt, _ in made)
                for ready in made:
                    self._shelve(shelf, ready)
        finally:
            shelf.filling = None

    async def _quick_hands(self, shelf: Shelf) -> list[Ready]:
        """A batch of a quick kind's hands, ahead of everyone's questions."""
        asked = self._asked(shelf)
        seeds = [self.seed() for _ in range(min(BATCH, asked or shelf.size - len(shelf.hands)))]
        return await self.pool.run_heavy(deal_many, shelf.make, seeds, *shelf.args,
                                         timeout=len(seeds) * shelf.per_hand, rank=ROUND_WORK)

    async def _costly_hand(self, shelf: Shelf) -> list[Ready]:
        """One hand of a slow kind, its search in slices (SLICE_SECONDS), each a trip of its own
        to a worker: between two, the lane serves whoever's turn it is, so a rare deal holds
        the worker for a slice at a time, never for its whole search. A hand someone waits for
        is made in their turn among everyone's questions, a spare only when nobody waits for
        anything (asked again before each slice: a spare someone comes to wait for moves up), and
        then however long it waits for the worker, its time limit counting from when it runs."""
        search: int | Unfinished = self.seed()
        cost = 0.0
        while True:
            asked = self._asked(shelf) > 0
            rank, who = (QUESTIONS, shelf.asker) if asked else (SPARES, None)
            made, spent = await self.pool.run_heavy(
                deal_slice, shelf.make, search, SLICE_SECONDS, *shelf.args,
                timeout=SLICE_SECONDS + DEAL_GRACE + ANALYSIS_GRACE, rank=rank, who=who,
                waiting_counts=asked)
            cost += spent
            if not isinstance(made, Unfinished):
                return [(made, cost)]
            search = made

    @staticmethod
    def _asked(shelf: Shelf) -> int:
        return sum(not w.done() for w in shelf.waiting)

    def _shelve(self, shelf: Shelf, ready: Ready) -> None:
        while shelf.waiting:
            waiter = shelf.waiting.popleft()
            if not waiter.done():
                waiter.set_result(ready)
                return
        if ready[0] is not None:
            shelf.hands.append(ready)

    def _fail(self, shelf: Shelf, error: Exception) -> None:
        if isinstance(error, RuntimeError):  # the pool was shut down: the bot is stopping
            log.info("no deals made: %s", error)
        elif not isinstance(error, SolverTimeout):
            log.warning("could not deal %s%s: %r", shelf.make.__name__, shelf.args, error)
        while shelf.waiting:
            waiter = shelf.waiting.popleft()
            if not waiter.done():
                waiter.set_exception(error)
