"""The themes of the hands played, kept with the hands' ratings (schema step 35, hand_themes):
worked out once a hand is first rated in a process, in the solver pool's heavy lane behind
everyone's questions (a millisecond or two a hand of four), and written once, many at a time.
A player's page then counts the themes of the rounds it reads and never works one out
(docs/themes.md, "A player's themes"): worked out per page, forty hands cost the page 2.2 times
its time on a year-old file (docs/benchmarks.md).

Nothing here is on a round's path: the rater tells each hand it rated (`noted`, a set lookup),
and the work is a task of its own, a second later. The hands already written are read once,
before the first write, so a process started on a database played for a while writes only what
is new to it (a hand's themes never change). A batch not written (a timeout while the lane's
worker was starting on a busy machine, the store refused) is tried again with the next batch, up
to TRIES times; what is given up then, or never noted (too many waiting), is noted again the next
time the hand is rated. At a stop, what is
waiting is written at once, before the solver pool shuts (`close`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from itertools import islice

from bot.play.games import GAMES
from bot.play.ratings.themes import bits_of
from bot.runtime.lru import LRU
from bot.runtime.pool import SPARES, SolverPool
from bot.store.protocols import RatingStore
from bot.store.records import HandRow
from solver.errors import SolverError
from solver.themes import themes

log = logging.getLogger(__name__)

MOST_NUMBERS = 4  # hands of five take thirty times as long (docs/themes.md, "Cost")
BATCH = 64  # hands worked out in one trip to a worker, and written in one transaction
WAITING_MOST = 1_024  # hands waiting at most; past it a hand is noted again when next rated
KNOWN = 16_384  # hands this process has written (4-number 24 has 1,362 solvable ones)
SECONDS_A_HAND = 0.05  # a batch's time limit, a hand's share (about 1.4 ms is usual) ...
GRACE = 4.0  # ... and a worker's start (its imports): a batch timed out restarts the lane
TRIES = 3  # a hand's tries before it is given up until it is rated again
AFTER = 1.0  # seconds before each batch: the close's own trips and its result's go first, and
#              a busy second's new hands go to the database in one trip, one trip a second

Hand = tuple[tuple[int, ...], int]  # numbers, target


def themes_bits(hands: Sequence[Hand]) -> list[int | None]:
    """Each hand's themes as the store keeps them (None: the solver works none out for it).
    Runs in the pool."""
    found: list[int | None] = []
    for numbers, target in hands:
        try:
            found.append(bits_of(themes(numbers, target).codes))
        except SolverError:  # no solution, a target not above 0: no themes to keep
            found.append(None)
    return found


def hand_of(key: str) -> Hand | None:
    """A hand from its ratings key ("1 2 7 7=24"); None when it is not one."""
    numbers, _, target = key.partition("=")
    try:
        return tuple(int(n) for n in numbers.split()), int(target)
    except ValueError:
        return None


class HandThemes:
    """Follows the rater (`noted`) and writes the themes of each hand it has not yet written."""

    def __init__(self, store: RatingStore, pool: SolverPool, after: float = AFTER) -> None:
        self.store = store
        self.pool = pool
        self.after = after
        self._known: LRU[tuple[str, str], None] = LRU(KNOWN)
        self._waiting: dict[tuple[str, str], Hand] = {}
        self._failed: dict[tuple[str, str], int] = {}  # a waiting hand's tries that failed
        self._task: asyncio.Task | None = None
        self._read = False  # the hands already written are read once, before the first write
        self._hurry = asyncio.Event()  # set at a stop: no more waiting between batches

    def noted(self, row: HandRow) -> None:
        """A rating of this hand was written: its themes are worked out if they may be
        wanted and this process has not written them."""
        game = GAMES.get(row.game)
        key = (row.game, row.hand)
        if self._hurry.is_set() or game is None or not game.rules.coaches \
                or not 1 <= row.numbers <= MOST_NUMBERS \
                or key in self._known or key in self._waiting \
                or len(self._waiting) >= WAITING_MOST:
            return
        hand = hand_of(row.hand)
        if hand is None:
            return
        self._waiting[key] = hand
        if self._task is None:
            self._task = asyncio.create_task(self._write())

    async def written(self) -> None:
        """Wait until every hand noted so far is written (or given up)."""
        while self._task is not None:
            await asyncio.shield(self._task)

    async def close(self) -> None:
        """At a stop, once no round closes any more and before the pool shuts: what waits is
        written now, and nothing is noted after."""
        self._hurry.set()
        await self.written()

    async def _write(self) -> None:
        try:
            while True:
                with contextlib.suppress(TimeoutError):  # a write a second at most, however
                    await asyncio.wait_for(self._hurry.wait(), self.after)  # busy
                if not self._read:
                    await self._read_written()
                if not self._waiting:
                    break
                keys = list(islice(self._waiting, BATCH))
                hands = [self._waiting[key] for key in keys]
                tried = max(self._failed.get(key, 0) for key in keys)  # each retry: twice the
                try:  # grace, as a worker restarted after a timeout starts again
                    bits = await self.pool.run_heavy(
                        themes_bits, hands,
                        timeout=GRACE * 2 ** tried + SECONDS_A_HAND * len(hands), rank=SPARES)
                    rows = [(game, hand, found) for (game, hand), found in zip(keys, bits,
                                                                          strict=True)
                            if found is not None]
                    if rows:
                        await self.store.put_themes(rows)
                except Exception as error:  # a timeout, a shut lane, a fenced store
                    log.warning("hands' themes not written (%d hands): %s", len(keys), error)
                    for key in keys:
                        self._failed[key] = self._failed.get(key, 0) + 1
                        if self._failed[key] >= TRIES:  # until the hand is rated again
                            del self._failed[key]
                            self._waiting.pop(key, None)
                else:
                    for key in keys:
                        self._known[key] = None
                        self._waiting.pop(key, None)
                        self._failed.pop(key, None)
        finally:
            self._task = None

    async def _read_written(self) -> None:
        """The hands whose themes the database holds are known: a process started on a
        database played for a while works out and writes only the hands new to it."""
        try:
            written = await self.store.themed_hands(KNOWN)
        except Exception as error:  # tried again before the next write
            log.warning("hands' themes written before not read: %s", error)
            return
        for key in written:
            self._known[key] = None
            self._waiting.pop(key, None)
            self._failed.pop(key, None)
        self._read = True
