"""The 24 game in a chat: deal a solvable hand of the asked level, judge answers exactly, reveal.

The top-level functions run in the solver pool; `TwentyFour` holds the rules the round service
asks about (its words are bot.play.games.twentyfour.words).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement

from bot.play.rules import feedback
from bot.play.rules.base import Rules
from bot.play.rules.batches import DEAL_SECONDS, Maker, Unfinished
from bot.play.rules.page import Combine, Form, Tiles
from bot.play.rules.page import Puzzle as PagePuzzle
from bot.play.rules.reading import read_expression
from bot.play.rules.records import (
    IGNORED,
    Analysis,
    Deal,
    DivisionByZero,
    PlayOptions,
    Puzzle,
    Right,
    Verdict,
    Wrong,
    WrongNumbers,
    WrongValue,
)
from solver import (
    DivisionByZeroError,
    Expr,
    NumbersMismatchError,
    check_numbers,
    evaluate,
    is_solvable,
    solve,
    to_text,
)
from solver.rating import level as rated_level

NAME = "24"
LEVEL_POINTS = {"easy": 10, "medium": 20, "hard": 30}
LEVEL_MIX = (("easy", 40), ("medium", 35), ("hard", 25))  # percent of deals without a level
CARDS = (1, 13)
COUNTS = (4, 5, 6)
TARGETS = (1, 999)
DEAL_TRIES = 300
FOURS = tuple(combinations_with_replacement(range(CARDS[0], CARDS[1] + 1), 4))  # 1820 hands


@dataclasses.dataclass
class Search(Unfinished):
    """A deal's search between two slices: its draws so far (the rng), the level it wants, the
    first solvable hand met, and the search seconds spent of its budget."""

    rng: random.Random
    wanted: str
    tries: int = 0
    spent: float = 0.0
    fallback: tuple[tuple[int, ...], str] | None = None


def searching(seed: int, level: str | None) -> Search:
    """A deal's search before its first draw: the level it wants (drawn when not asked)."""
    rng = random.Random(seed)
    return Search(rng, level or rng.choices([name for name, _ in LEVEL_MIX],
                                            weights=[weight for _, weight in LEVEL_MIX])[0])


def deal(seed: int | Search, level: str | None = None, count: int = 4, target: int = 24,
         budget: float = DEAL_SECONDS, slice_seconds: float | None = None
         ) -> Deal | Search | None:
    """A random solvable hand of `count` numbers 1..13 for the target, of the level if it can.

    Without a level, one is drawn from LEVEL_MIX so that easy and hard hands both come up. When
    no hand of that level turns up in DEAL_TRIES draws or `budget` seconds (a rare target; the
    clock is read between hands, and a six-number hand for a large target costs up to 0.3 s),
    the first solvable one is dealt with its own level. A target no random hand of four made is
    looked for in every hand of four, in random order (a fraction of a second: every target up
    to 999 has one). None when there was none at all. With `slice_seconds`, the search pauses
    after that long and returns where it stands; that Search, given back as `seed`, goes on.
    """
    search = seed if isinstance(seed, Search) else searching(seed, level)
    rng = search.rng
    began = time.monotonic()
    deadline = began + budget - search.spent
    pause = deadline if slice_seconds is None else min(deadline, began + slice_seconds)
    while search.tries < DEAL_TRIES:
        search.tries += 1
        drawn = [rng.randint(*CARDS) for _ in range(count)]
        if is_solvable(drawn, target):
            found = rated_level(drawn, target)
            if found == search.wanted:
                return Deal(NAME, tuple(drawn), target, found, LEVEL_POINTS[found])
            search.fallback = search.fallback or (tuple(drawn), found)
        if (now := time.monotonic()) >= deadline:
            break
        if now >= pause and search.tries < DEAL_TRIES:
            search.spent += now - began
            return search
    if search.fallback is None and count == 4:
        search.fallback = any_four(rng, target, deadline)
    if search.fallback is None:
        return None
    hand, found = search.fallback
    return Deal(NAME, hand, target, found, LEVEL_POINTS[found])


def any_four(rng: random.Random, target: int,
             deadline: float) -> tuple[tuple[int, ...], str] | None:
    """A hand of four that makes the target, trying every one in random order (until the
    deadline), with its level."""
    for hand in rng.sample(FOURS, len(FOURS)):
        if is_solvable(hand, target):
            drawn = list(hand)
            rng.shuffle(drawn)
            return tuple(drawn), rated_level(drawn, target)
        if time.monotonic() >= deadline:
            break
    return None


def judge(text: str, hand: tuple[int, ...], target: int, explicit: bool) -> Verdict:
    """Judge an answer exactly. A plain message (not explicit) is an attempt only when it uses
    the hand's numbers and as many as the hand has (feedback.tries_hand): partial workings and
    chatter are ignored. The numbers are checked before the arithmetic, so `1/0` with no 0
    dealt names the 0."""
    expr = read_expression(text, explicit)
    if not isinstance(expr, Expr):
        return expr
    shown = to_text(expr)
    if not explicit and not feedback.tries_hand(expr, hand, len(hand)) and \
            not makes_target_short(expr, hand, target):
        return IGNORED
    try:
        check_numbers(expr, hand)
        value = evaluate(expr)
    except NumbersMismatchError as error:
        return Wrong(shown, WrongNumbers(tuple(error.missing), tuple(error.extra)))
    except DivisionByZeroError:
        return Wrong(shown, DivisionByZero())
    if value != target:
        return Wrong(shown, WrongValue(str(value)))
    return Right(shown)


def makes_target_short(expr: Expr, hand: tuple[int, ...], target: int) -> bool:
    """Whether a typed expression of the hand's numbers makes the target with some of them
    left out ("8*(7-6+2)" for 8 7 6 2 3): an attempt that is told what it skips, not chatter."""
    if not feedback.tries_hand(expr, hand, 2):
        return False
    try:
        return evaluate(expr) == target
    except DivisionByZeroError:
        return False


def ready(seed: int | Search, level: str | None = None, count: int = 4, target: int = 24,
          budget: float = DEAL_SECONDS, slice_seconds: float | None = None
          ) -> Deal | Search | None:
    """`deal`, with the hand's analysis: what its hints and its end will show."""
    dealt = deal(seed, level, count, target, budget, slice_seconds)
    if not isinstance(dealt, Deal):
        return dealt
    return dataclasses.replace(dealt, analysis=analyse(dealt.hand, dealt.target))


def analyse(hand: tuple[int, ...], target: int) -> Analysis:
    """Every distinct solution, and what hints give from them (none for an unsolvable hand):
    the steps that teach of the simplest solution whose steps teach most."""
    found = solutions(hand, target)
    plan = feedback.hint_plan(found)
    return Analysis(solutions=tuple(found), steps=plan.steps, together=plan.together)


def solutions(hand: tuple[int, ...], target: int) -> list[str]:
    """Every distinct solution, simplest first."""
    return solve(hand, target)


class TwentyFour(Rules):
    name = NAME
    gives_hints = True
    pages_solutions = True
    levels = True

    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        return ready, (options.level, options.count or 4,
                       24 if options.target is None else options.target, budget)

    def analyser(self) -> Callable[[tuple, int], Analysis]:
        return analyse

    def replay_options(self, ended: Puzzle, same_level: bool) -> PlayOptions:
        """As many numbers and the same target again (and the same level, if asked)."""
        return PlayOptions(level=ended.level if same_level else None, count=len(ended.hand),
                           target=ended.target)

    def costly(self, options: PlayOptions) -> bool:
        return (options.count or 4) > 4 or options.target not in (None, 24)

    def page(self, hand: tuple, target: int) -> tuple[PagePuzzle, Form]:
        """Every tile once, the target exactly."""
        return Tiles(tuple(hand), target), Combine(every=True, whole=False)

    def may_reach(self, numbers: Sequence[int]) -> bool:
        """A hand is 4 to 6 cards 1..13 (any target): a request holding one, with extras or
        none, or made of cards and one short of a hand's count."""
        low, high = CARDS
        cards = [n for n in numbers if low <= n <= high]
        if len(cards) >= min(COUNTS):
            return True
        return len(cards) == len(numbers) and len(numbers) + 1 in COUNTS

    def judge(self, puzzle: Puzzle, text: str, explicit: bool) -> Verdict:
        """Judged here, in the event loop: the reader bounds an answer's length and depth
        (solver.parser: MAX_LENGTH, MAX_DEPTH), so judging one costs microseconds, less than a
        trip to the pool."""
        return judge(text, puzzle.hand, puzzle.target, explicit)
