"""The memo of puzzles' analyses (solutions, hint steps, best answers): kept when a round is dealt
with one, or worked out in the heavy lane for a round that came without one. Pure results of the
puzzle, so one memo serves every chat."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from bot.play.games.records import Analysis
from bot.runtime.pool import ROUND_WORK, SolverPool
from bot.store.records import Round

if TYPE_CHECKING:
    from bot.play.games.rules import Rules


class Analyses:
    """The analyses of the puzzles being played, by game, hand and target: kept when a round is
    dealt with one (`keep`), or worked out in the heavy lane, ahead of the questions waiting
    there, for a round that came without one (dealt before a restart). Pure results of the
    puzzle, so one memo serves every chat; the oldest go once more than `kept` solutions (a
    six-number hand may have 1,500) are held."""

    def __init__(self, kept: int = 200_000) -> None:
        self.kept = kept
        self.held = 0
        self._known: OrderedDict[tuple[str, tuple, int], Analysis] = OrderedDict()

    def keep(self, game: str, hand: tuple, target: int, analysis: Analysis) -> None:
        key = (game, hand, target)
        self.forget(key)
        self._known[key] = analysis
        self.held += _weight(analysis)
        while self.held > self.kept and len(self._known) > 1:
            self.forget(next(iter(self._known)))

    def forget(self, key: tuple[str, tuple, int]) -> None:
        gone = self._known.pop(key, None)
        if gone is not None:
            self.held -= _weight(gone)

    def known(self, game: str, hand: tuple, target: int) -> Analysis | None:
        return self._known.get((game, hand, target))

    async def of(self, pool: SolverPool, rules: Rules, round_: Round) -> Analysis:
        found = self.known(round_.game, round_.hand, round_.target)
        if found is None:
            found = await pool.run_heavy(rules.analyser(), round_.hand, round_.target,
                                         rank=ROUND_WORK)
            self.keep(round_.game, round_.hand, round_.target, found)
        return found


def _weight(analysis: Analysis) -> int:
    return 1 + len(analysis.solutions)


ANALYSES = Analyses()
