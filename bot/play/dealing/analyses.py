"""The memo of puzzles' analyses (solutions, hint steps, best answers): kept when a round is dealt
with one, or worked out in the heavy lane for a round that came without one. Pure results of the
puzzle, so one memo serves every chat: built once at start-up (bot.play.services) and handed to
whoever reads it."""

from __future__ import annotations

import pickle
from typing import cast

from bot.play.games import GAMES
from bot.play.rules.records import Analysis
from bot.runtime.lru import WeighedFIFO
from bot.runtime.pool import ROUND_WORK, SolverPool

Key = tuple[str, tuple, int]  # game, hand, target
# An entry's cost in bytes: its record pickled, and its key and dict slot (ENTRY_BYTES, about
# what bench/bench_memory.py's walk of the memo finds for a hand of four numbers).
ENTRY_BYTES = 200
# bytes held: about 1,400 puzzles of four numbers (390 bytes each: the 1,362 solvable hands of
# 24 fit, so a busy bot's deals of 24 are analysed once), or 18 of 1,500 solutions; at 800,000 the
# map was still filling at the soak's end (bench/bench_soak.py), 0.5 MB more of the day's growth
KEPT = 540_000


class Analyses:
    """The analyses of the puzzles being played, by game, hand and target: kept when a round is
    dealt with one (`keep`), or worked out in the heavy lane, ahead of the questions waiting
    there, for a round that came without one (dealt before a restart). A FIFO weighed by what
    each costs in bytes: the first kept go once more than `kept` is held (a round reads its
    analysis a few times, all soon after its deal: recency would buy nothing); one evicted
    while its round is on is worked out again when asked.

    Each is kept pickled, one bytes object where the record is some fifteen small ones (its
    tuples of solutions and hint steps, their strings): 190 bytes against 840 for a hand of
    four, nothing for a full collection to walk, and no small blocks left among a burst's in
    pymalloc's pools for as long as the memo keeps them (the day's soak, bench/bench_soak.py,
    saw the memo fill for six hours as its largest map). A read unpickles it (4 µs), a few
    times a round."""

    def __init__(self, pool: SolverPool, kept: int = KEPT) -> None:
        self.pool = pool
        self.kept = kept
        self._known: WeighedFIFO[Key, bytes] = WeighedFIFO(kept, _weight)

    @property
    def held(self) -> int:
        """The bytes held (what the bound is on)."""
        return self._known.currsize

    def keep(self, game: str, hand: tuple, target: int, analysis: Analysis) -> None:
        key = (game, hand, target)
        self.forget(key)
        kept = pickle.dumps(analysis, protocol=pickle.HIGHEST_PROTOCOL)
        if _weight(kept) <= self.kept:  # heavier than the whole memo: worked out again
            self._known[key] = kept

    def forget(self, key: Key) -> None:
        self._known.pop(key, None)

    def known(self, game: str, hand: tuple, target: int) -> Analysis | None:
        kept = self._known.get((game, hand, target))
        return None if kept is None else cast(Analysis, pickle.loads(kept))

    async def of(self, game: str, hand: tuple, target: int) -> Analysis:
        """The puzzle's analysis, worked out in the heavy lane when it is not known."""
        found = self.known(game, hand, target)
        if found is None:
            found = await self.pool.run_heavy(GAMES[game].rules.analyser(), hand, target,
                                              rank=ROUND_WORK)
            self.keep(game, hand, target, found)
        return found


def _weight(kept: bytes) -> int:
    return ENTRY_BYTES + len(kept)
