"""The memo of puzzles' analyses (solutions, hint steps, best answers): kept when a round is dealt
with one, or worked out in the heavy lane for a round that came without one. Pure results of the
puzzle, so one memo serves every chat: built once at start-up (bot.play.services) and handed to
whoever reads it."""

from __future__ import annotations

from cachetools import FIFOCache

from bot.play.games import GAMES
from bot.play.games.records import Analysis
from bot.runtime.pool import ROUND_WORK, SolverPool

Key = tuple[str, tuple, int]  # game, hand, target


class Analyses:
    """The analyses of the puzzles being played, by game, hand and target: kept when a round is
    dealt with one (`keep`), or worked out in the heavy lane, ahead of the questions waiting
    there, for a round that came without one (dealt before a restart). A FIFO weighed by
    solutions: the first kept go once more than `kept` solutions (a six-number hand may have
    1,500) are held, about 3 MB, thousands of puzzles (a round reads its analysis a few times,
    all soon after its deal: recency would buy nothing); one evicted while its round is on is
    worked out again when asked."""

    def __init__(self, pool: SolverPool, kept: int = 20_000) -> None:
        self.pool = pool
        self.kept = kept
        self._known: FIFOCache[Key, Analysis] = FIFOCache(kept, getsizeof=_weight)

    @property
    def held(self) -> int:
        """Solutions held (the weight the bound is on)."""
        return int(self._known.currsize)

    def keep(self, game: str, hand: tuple, target: int, analysis: Analysis) -> None:
        key = (game, hand, target)
        self.forget(key)
        if _weight(analysis) <= self.kept:  # heavier than the whole memo: worked out again
            self._known[key] = analysis

    def forget(self, key: Key) -> None:
        self._known.pop(key, None)

    def known(self, game: str, hand: tuple, target: int) -> Analysis | None:
        return self._known.get((game, hand, target))

    async def of(self, game: str, hand: tuple, target: int) -> Analysis:
        """The puzzle's analysis, worked out in the heavy lane when it is not known."""
        found = self.known(game, hand, target)
        if found is None:
            found = await self.pool.run_heavy(GAMES[game].analyser(), hand, target,
                                              rank=ROUND_WORK)
            self.keep(game, hand, target, found)
        return found


def _weight(analysis: Analysis) -> int:
    return 1 + len(analysis.solutions)
