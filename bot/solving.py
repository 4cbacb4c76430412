"""Answers to questions about a puzzle that is not a round: /solve, /countdown and /yahtzee with
the puzzle given, and inline queries. Stateless but for a small cache of inline results.

The solver runs in the pool under a time limit; the texts come from the games' own wording.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from bot import markup
from bot.games.countdown import best, best_text
from bot.games.twentyfour import solutions, solutions_text
from bot.games.yahtzee import table_text
from bot.i18n import Texts
from bot.pool import SolverPool, SolverTimeout
from bot.requests import SolveRequest
from solver import prettify
from solver.yahtzee import best_assignment

SOLVE_SHOWN = 10
INLINE_SHOWN = 50  # Telegram's limit on inline results
INLINE_CACHE = 1024
INLINE_TIMEOUT = 5.0  # Telegram drops an inline query that waits much longer


@dataclass(frozen=True)
class InlineAnswer:
    """One inline result: a title to pick it by, a line under it, and the message it sends."""

    id: str
    title: str
    description: str
    message: str


class Solving:
    """One instance for the whole bot, built at start-up."""

    def __init__(self, pool: SolverPool, timeout: float) -> None:
        self.pool = pool
        self.timeout = timeout
        self._cache: OrderedDict[tuple[tuple[int, ...], int], list[str]] = OrderedDict()

    async def solve(self, request: SolveRequest, texts: Texts) -> str:
        """Every distinct solution (the first ten, then how many more); or the closest value."""
        if request.closest:
            return await self.closest(request, texts)
        try:
            found = await self.solutions(request.numbers, request.target)
        except SolverTimeout:
            return texts("solve_timeout", seconds=round(self.timeout))
        if not found:
            return texts("solve_none", numbers=markup.numbers(request.numbers),
                         target=request.target)
        return solutions_text(texts, request.numbers, request.target, found, SOLVE_SHOWN)

    async def solutions(self, numbers: tuple[int, ...], target: int,
                        timeout: float | None = None) -> list[str]:
        """The distinct solutions, from the cache when this hand was asked lately."""
        key = (tuple(sorted(numbers)), target)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        found = await self.pool.run(solutions, numbers, target, timeout=timeout or self.timeout)
        self._cache[key] = found
        if len(self._cache) > INLINE_CACHE:
            self._cache.popitem(last=False)
        return found

    async def closest(self, request: SolveRequest, texts: Texts) -> str:
        """Countdown rules: the nearest value the numbers make, with one expression."""
        try:
            nearest, expression = await self.pool.run(best, request.numbers, request.target,
                                                      timeout=self.timeout)
        except SolverTimeout:
            return texts("solve_timeout", seconds=round(self.timeout))
        return best_text(texts, request.numbers, request.target, nearest, expression)

    async def yahtzee(self, rolls: list[tuple[int, ...]], texts: Texts) -> str:
        """The optimal scoring of 13 given rolls."""
        result = await self.pool.run(best_assignment, rolls, timeout=self.timeout)
        return table_text(texts, result)

    async def inline(self, request: SolveRequest | None, texts: Texts,
                     bot_name: str = "bot") -> list[InlineAnswer]:
        """Inline results for '@bot 3 8 3 8': one per distinct solution, or one that explains."""
        if request is None or request.closest:
            return [InlineAnswer("usage", texts("inline_usage_title"),
                                 texts("inline_usage_description"),
                                 texts("inline_usage", bot=bot_name))]
        numbers, target = request.numbers, request.target
        try:
            found = await self.solutions(numbers, target, min(self.timeout, INLINE_TIMEOUT))
        except SolverTimeout:
            found = None
        if not found:
            key = "solve_timeout" if found is None else "solve_none"
            message = texts(key, numbers=markup.numbers(numbers), target=target,
                            seconds=round(min(self.timeout, INLINE_TIMEOUT)))
            return [InlineAnswer("none", texts("inline_none_title"), "", message)]
        count = texts.count(len(found))
        return [InlineAnswer(str(i), f"{prettify(s)} = {target}",
                             f"{' '.join(map(str, numbers))} → {target} · {count}",
                             texts("inline_solution", numbers=markup.numbers(numbers),
                                   target=target, solution=markup.code(s), count=count))
                for i, s in enumerate(found[:INLINE_SHOWN])]
