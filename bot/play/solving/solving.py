"""Answers to questions about a puzzle that is not a round: /solve, a game's command with a
puzzle of it given (solved the game's own way: Game.given), and inline queries. Stateless but
for a small cache of inline results.

A request that reaches a puzzle being played right now is refused to the members of the chats
where it is live, however it is asked (the rule and its reach: bot.play.guards.live); everyone
else is answered as usual; the daily puzzle and a tournament's live round are refused to all.
The solver runs in the pool's heavy lane under a time limit, and each person (and chat) draws
on a budget of solver seconds (bot.play.guards.throttle), so that no one can keep it busy for
long; the texts come from the games' own wording.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from cachetools import LRUCache

from bot.play.asking.requests import DiceRequest, SolveRequest
from bot.play.dealing.analyses import Analyses
from bot.play.games import GAMES, Game, daily_command
from bot.play.guards.live import (
    EVERYONE,
    Live,
    LivePuzzles,
    could_be_live,
    reached_among,
    rolls_reached_among,
)
from bot.play.guards.permissions import MemberCheck
from bot.play.guards.stand_ins import counted_as
from bot.play.guards.throttle import Ticket, WorkBudget
from bot.play.ports import OpenRounds
from bot.play.rules.exact import ExactRules, solved, themes_of
from bot.play.solving.paging import Page, page_of
from bot.play.words.themes import themes_text
from bot.runtime.pool import SolverPool, SolverTimeout, timed
from bot.text import markup
from bot.text.html_text import visible_text
from bot.text.i18n import Texts
from solver import prettify
from solver.themes import Themes

SOLVE_SHOWN = 10
INLINE_SHOWN = 50  # Telegram's limit on inline results
INLINE_CACHE = 1024
INLINE_TIMEOUT = 5.0  # Telegram drops an inline query that waits much longer
# the game whose own way of solving /solve --closest asks for: the closest answer wins it
CLOSEST = next(game for game in GAMES.values() if game.rules.closest_wins and game.given)
# the games where every number makes the target exactly: /solve's answers are their analyses'
EXACT = tuple(name for name, game in GAMES.items() if isinstance(game.rules, ExactRules))
T = TypeVar("T")

Asker = tuple[int, int | None]
"""Who asks: the user's id and the chat's (None for an inline query)."""


class Busy(Exception):
    """The asker (or their chat) has used up their solver time for now."""

    def __init__(self, seconds: int) -> None:
        super().__init__(f"busy for {seconds} s")
        self.seconds = seconds


@dataclass(frozen=True)
class InlineAnswer:
    """One inline result: a title to pick it by, a line under it, and the message it sends."""

    id: str
    title: str
    description: str
    message: str


@dataclass(frozen=True)
class InlineResults:
    """The results of an inline query; `cacheable`: Telegram may keep them for everyone a
    while (no round can ever deal that hand, so it can never be live)."""

    answers: list[InlineAnswer]
    cacheable: bool = False


class Solving:
    """One instance for the whole bot, built at start-up."""

    def __init__(self, pool: SolverPool, timeout: float, analyses: Analyses | None = None,
                 budget: WorkBudget | None = None, live: LivePuzzles | None = None,
                 beyond: OpenRounds | None = None) -> None:
        self.pool = pool
        self.timeout = timeout
        self.analyses = analyses or Analyses(pool)
        self.budget = budget or WorkBudget()
        self.live = live or LivePuzzles()
        self.beyond = beyond  # the open rounds memory may not hold (None: it holds them all)
        # a hand asked lately -> its solutions; the least lately asked of INLINE_CACHE go
        self._cache: LRUCache[tuple[tuple[int, ...], int], list[str]] = LRUCache(INLINE_CACHE)
        # ... and what every solution of it needs (None: none worked out)
        self._themes: LRUCache[tuple[tuple[int, ...], int], Themes | None] = \
            LRUCache(INLINE_CACHE)
        self._running: dict[tuple[str, str, float], asyncio.Future] = {}

    async def _run(self, asker: Asker | None, timeout: float, fn: Callable[..., T],
                   *args: Any) -> T:
        """fn(*args) in the heavy lane, paid for from the asker's budget (None: nobody's).

        The same question asked again while it is being worked out waits for that answer, for
        free: a burst of one question (a group asking the same /solve) costs one piece of work.
        """
        key = (getattr(fn, "__name__", ""), repr(args), timeout)
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        ticket: Ticket | None = None
        if asker is not None:
            taken = self.budget.take(asker[0], asker[1], timeout)
            if isinstance(taken, int):
                raise Busy(taken)
            ticket = taken
        # whose turn in the heavy lane: a chat's stand-in (its anonymous admins) as that chat's
        who = counted_as(asker[1], asker[0]) if asker is not None else None
        work = asyncio.ensure_future(self._work(ticket, timeout, who, fn, *args))
        self._running[key] = work
        work.add_done_callback(lambda done: self._done(key, done))
        return await asyncio.shield(work)

    async def _work(self, ticket: Ticket | None, timeout: float, who: int | None,
                    fn: Callable[..., T], *args: Any) -> T:
        used = timeout  # what a stopped piece of work costs
        try:
            result, used = await self.pool.run_heavy(timed, fn, *args, timeout=timeout,
                                                     who=who)
            return result
        finally:
            if ticket is not None:
                self.budget.settle(ticket, used)

    def _done(self, key: tuple[str, str, float], work: asyncio.Future) -> None:
        if self._running.get(key) is work:
            del self._running[key]
        if not work.cancelled():
            work.exception()  # retrieved: whoever waited has seen it

    async def refusal(self, request: SolveRequest, texts: Texts,
                      member: MemberCheck | None) -> str | None:
        """The friendly refusal when the request reaches a round live in a chat the asker is
        in (`member`; None: in every chat), else None."""
        reached = await self._reaching(request)
        if any(r.tournament for r in reached):  # a tournament's round: nobody may have it
            return texts("tournament_live")
        daily = next((r for r in reached if r.chat_id == EVERYONE), None)
        if daily is not None:  # a daily puzzle: nobody may have it
            return texts("daily_live", command=daily_command(daily.game))
        return texts("live_puzzle") if await _in_any({r.chat_id for r in reached}, member) \
            else None

    async def live_now(self, numbers: Sequence[int], target: int) -> bool:
        """Whether a request for this hand reaches a round live now, anywhere (in memory or
        beyond it): a player's page pairs no theme with such a hand meanwhile."""
        return bool(await self._reaching(SolveRequest(tuple(numbers), target)))

    async def _reaching(self, request: SolveRequest) -> list[Live]:
        """The live puzzles the request reaches: those in memory, and those beyond it, asked
        only of a request that a round could be reached by."""
        reached = self.live.reaching(request.numbers, request.target)
        if self.beyond is not None and could_be_live(request.numbers, request.target):
            reached += reached_among(await self.beyond.reaching(request.numbers),
                                     request.numbers, request.target)
        return reached

    async def solve(self, request: SolveRequest, texts: Texts, asker: Asker | None = None,
                    member: MemberCheck | None = None) -> str:
        """Every distinct solution (the first ten, then how many more); or the closest value."""
        shown = await self.solve_page(request, texts, asker, member=member)
        return shown if isinstance(shown, str) else shown.text

    async def solve_page(self, request: SolveRequest, texts: Texts, asker: Asker | None = None,
                         index: int = 0, member: MemberCheck | None = None) -> Page | str:
        """A page of the distinct solutions (ten a page; past the end, the last), or the text
        that stands instead: the closest value, no solution, busy, too slow, live."""
        if (refused := await self.refusal(request, texts, member)) is not None:
            return refused
        if request.closest:
            return await self.given(CLOSEST, request, texts, asker, member)
        found = await self._answered(texts, self.solutions(request.numbers, request.target,
                                                           asker=asker))
        if isinstance(found, str):
            return found
        if not found:
            return texts("solve_none", numbers=markup.numbers(request.numbers),
                         target=request.target)
        note = await self.themes_line(request.numbers, request.target, texts)
        return page_of(texts, request.numbers, request.target, found, index, SOLVE_SHOWN, note)

    async def themes_line(self, numbers: tuple[int, ...], target: int, texts: Texts) -> str:
        """One line: what every solution of the hand needs (docs/themes.md), or "" where it
        needs nothing in particular, or the solver works none out, or not now (past the time
        limit: the solutions are the answer, the line is extra). Worked out with the solutions
        (`solutions`); for a hand whose solutions a round's analysis held, apart and paid by
        nobody, as the analysis was (the asker's budget and turn are the solutions')."""
        return themes_text(texts, await self.themes(numbers, target, texts))

    async def themes(self, numbers: tuple[int, ...], target: int, texts: Texts
                     ) -> Themes | None:
        """What every solution of the hand needs, as `themes_line` works it out (None: the
        solver works none out for it, or not now)."""
        key = (tuple(sorted(numbers)), target)
        if key not in self._themes:
            found = await self._answered(texts, self._run(None, self.timeout, themes_of,
                                                          numbers, target))
            if isinstance(found, str):
                return None
            self._themes[key] = found
        return self._themes[key]

    async def solutions(self, numbers: tuple[int, ...], target: int,
                        timeout: float | None = None, asker: Asker | None = None) -> list[str]:
        """The distinct solutions, from a round's analysis or the cache when this hand was
        dealt or asked lately (free)."""
        for game in EXACT:  # a round's analysis of this hand, in any game of the exact kind
            dealt = self.analyses.known(game, tuple(numbers), target)
            if dealt is not None:
                return list(dealt.solutions)
        key = (tuple(sorted(numbers)), target)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        found, needs = await self._run(asker, timeout or self.timeout, solved, numbers, target)
        self._cache[key], self._themes[key] = found, needs  # one piece of work for both
        return found

    async def given(self, game: Game, request: SolveRequest | DiceRequest, texts: Texts,
                    asker: Asker | None = None, member: MemberCheck | None = None) -> str:
        """A puzzle given after a game's command (or /solve --closest), solved its own way
        (Game.given: the nearest value, a game of dice scored); refused where it reaches a
        round live in a chat the asker is in."""
        assert game.given is not None, f"{game.name} solves no puzzle of its own"
        refused = await self.refusal(request, texts, member) if isinstance(request, SolveRequest) \
            else await self._rolls_refusal(request, texts, member)
        if refused is not None:
            return refused
        found = await self._answered(texts, self._run(asker, self.timeout, game.given.solve,
                                                      *request.puzzle))
        return found if isinstance(found, str) else game.given.text(texts, request, found)

    async def _rolls_refusal(self, request: DiceRequest, texts: Texts,
                             member: MemberCheck | None) -> str | None:
        """The refusal of rolls that reach a live round of rolls in a chat the asker is in."""
        rolls = list(request.rolls)
        chats = set(self.live.reaching_rolls(rolls))
        if self.beyond is not None:
            chats |= set(rolls_reached_among(await self.beyond.reaching_rolls(rolls), rolls))
        return texts("live_puzzle") if await _in_any(chats, member) else None

    async def _answered(self, texts: Texts, work: Awaitable[T]) -> T | str:
        """The work's result, or what stands in for it when it can't be had now: its asker's
        solver time is used up, or it ran past the time limit."""
        try:
            return await work
        except SolverTimeout:
            return texts("solve_timeout", seconds=round(self.timeout))
        except Busy as busy:
            return texts("busy", seconds=busy.seconds)

    async def inline(self, asked: SolveRequest | str | None, texts: Texts,
                     bot_name: str = "bot", asker: Asker | None = None,
                     member: MemberCheck | None = None) -> InlineResults:
        """Inline results for '@bot 3 8 3 8' (`asked` as the face read it: a request, what is
        wrong with the query in words, or None for nothing to read): one per distinct
        solution, or one that explains (how to ask, what is wrong with the numbers, that the
        hand is being played)."""
        if isinstance(asked, str):  # a refusal, in the shape of every refusal
            return InlineResults([InlineAnswer("problem", visible_text(asked),
                                               texts("inline_usage_title"),
                                               texts("refusal", problem=asked,
                                                     allowed=texts("inline_rules"),
                                                     example=markup.typed(
                                                         f"@{bot_name} 1 2 8 45")))])
        if asked is None or asked.closest:
            return InlineResults([usage_answer(texts, bot_name)])
        if (refused := await self.refusal(asked, texts, member)) is not None:
            return InlineResults([InlineAnswer("live", refused, "", refused)])
        cacheable = not could_be_live(asked.numbers, asked.target)  # never kept for all
        return InlineResults(await self._inline_solutions(asked, texts, asker), cacheable)

    async def _inline_solutions(self, request: SolveRequest, texts: Texts,
                                asker: Asker | None) -> list[InlineAnswer]:
        numbers, target = request.numbers, request.target
        try:
            found = await self.solutions(numbers, target, min(self.timeout, INLINE_TIMEOUT),
                                         asker)
        except SolverTimeout:
            found = None
        except Busy as busy:
            return [InlineAnswer("busy", texts("inline_busy_title", seconds=busy.seconds), "",
                                 texts("busy", seconds=busy.seconds))]
        if not found:
            key = "solve_timeout" if found is None else "solve_none"
            message = texts(key, numbers=markup.numbers(numbers), target=target,
                            seconds=round(min(self.timeout, INLINE_TIMEOUT)))
            return [InlineAnswer("none", texts("inline_none_title"), "", message)]
        count = texts.count(len(found))
        shown = markup.signed(target)
        return [InlineAnswer(str(i), texts.written(f"{prettify(s)} = {shown}"),
                             texts.written(f"{' '.join(map(str, numbers))} → {shown} · {count}"),
                             texts("inline_solution", numbers=markup.numbers(numbers),
                                   target=target, solution=markup.code(s), count=count))
                for i, s in enumerate(found[:INLINE_SHOWN])]


async def _in_any(chats: set[int], member: MemberCheck | None) -> bool:
    """Whether the asker is in any of these chats (asked of each at once; None: in all)."""
    if not chats:
        return False
    if member is None:
        return True
    return any(await asyncio.gather(*(member(chat) for chat in sorted(chats))))


def usage_answer(texts: Texts, bot_name: str) -> InlineAnswer:
    return InlineAnswer("usage", texts("inline_usage_title"), texts("inline_usage_description"),
                        texts("inline_usage", bot=bot_name))
