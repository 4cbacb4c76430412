"""The memo of puzzles' analyses (solutions, hint steps, best answers): kept when a round is dealt
with one, or worked out in the heavy lane for a round that came without one. Pure results of the
puzzle, so one memo serves every chat: built once at start-up (bot.play.services) and handed to
whoever reads it."""

from __future__ import annotations

from bot.play.games import GAMES
from bot.play.rules.records import Analysis
from bot.runtime.lru import WeighedFIFO
from bot.runtime.pool import ROUND_WORK, SolverPool

Key = tuple[str, tuple, int]  # game, hand, target
# An entry's own cost, in solutions' worth: its key, record and hint steps come to about 900
# bytes, a solution to about 75 (bench/bench_memory.py's walk of the memo). Weighed by its
# solutions alone, the memo held 7,700 puzzles of four numbers (two or three solutions each):
# 9 MB where about 3 were meant.
ENTRY_WEIGHT = 12
KEPT = 30_000  # weight held: about 3 MB — 2,000 puzzles of four numbers, or 20 of 1,500 solutions


class Analyses:
    """The analyses of the puzzles being played, by game, hand and target: kept when a round is
    dealt with one (`keep`), or worked out in the heavy lane, ahead of the questions waiting
    there, for a round that came without one (dealt before a restart). A FIFO weighed by what
    each costs (ENTRY_WEIGHT and a solution's worth each: a six-number hand may have 1,500):
    the first kept go once more than `kept` is held, about 3 MB (a round reads its analysis a
    few times, all soon after its deal: recency would buy nothing); one evicted while its round
    is on is worked out again when asked."""

    def __init__(self, pool: SolverPool, kept: int = KEPT) -> None:
        self.pool = pool
        self.kept = kept
        self._known: WeighedFIFO[Key, Analysis] = WeighedFIFO(kept, _weight)

    @property
    def held(self) -> int:
        """The weight held (what the bound is on)."""
        return self._known.currsize

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
            found = await self.pool.run_heavy(GAMES[game].rules.analyser(), hand, target,
                                              rank=ROUND_WORK)
            self.keep(game, hand, target, found)
        return found


def _weight(analysis: Analysis) -> int:
    return ENTRY_WEIGHT + len(analysis.solutions)
