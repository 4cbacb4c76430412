"""The themes of the hands /practice deals from (bot.play.solo.practice): the adaptive deals'
candidates (24's solvable four-number hands, 1,362), worked out once a process in the solver
pool's heavy lane behind everyone's questions, at the first /practice (a millisecond or two a
hand, a few trips of BATCH hands), then kept: a practice deal is drawn among the hands near the
player's aim that need the theme it practises.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.play.dealing.adaptive import TARGET, AdaptiveDeals
from bot.play.dealing.themes import GRACE, SECONDS_A_HAND, themes_bits
from bot.play.ratings.themes import bits_of
from bot.runtime.pool import SPARES, SolverPool

log = logging.getLogger(__name__)

BATCH = 256  # hands a trip: the lane serves others between trips


class PracticeHands:
    def __init__(self, adaptive: AdaptiveDeals, pool: SolverPool) -> None:
        self.adaptive = adaptive
        self.pool = pool
        self._bits: dict[str, int] | None = None  # a candidate's key -> its themes' bits
        self._loading = asyncio.Lock()

    async def wanting(self, code: str) -> Callable[[str], bool] | None:
        """Which candidates need the theme (by their ratings key); None when their themes
        could not be worked out (the lane shut or too slow: tried again next time)."""
        bits = await self._themes()
        if bits is None:
            return None
        bit = bits_of((code,))
        return lambda key: bool(bits.get(key, 0) & bit)

    async def _themes(self) -> dict[str, int] | None:
        if self._bits is None:
            async with self._loading:  # the practices that ask meanwhile wait for one load
                if self._bits is None:
                    self._bits = await self._load()
        return self._bits

    async def _load(self) -> dict[str, int] | None:
        await self.adaptive.loaded()
        keys = list(self.adaptive.hands)
        found: dict[str, int] = {}
        try:
            for start in range(0, len(keys), BATCH):
                part = keys[start:start + BATCH]
                hands = [(self.adaptive.hands[key][0], TARGET) for key in part]
                bits = await self.pool.run_heavy(
                    themes_bits, hands, timeout=GRACE + SECONDS_A_HAND * len(hands),
                    rank=SPARES)
                found.update((key, b) for key, b in zip(part, bits, strict=True)
                             if b is not None)
        except Exception as error:  # a timeout, a shut lane
            log.warning("the practice hands' themes not worked out: %s", error)
            return None
        return found
