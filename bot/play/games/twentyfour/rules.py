"""The 24 game in a chat: deal a solvable hand of the asked level, judge answers exactly, reveal.

The top-level functions run in the solver pool; `TwentyFour` holds the rules the round service
asks about (its words are bot.play.games.twentyfour.words).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence
from itertools import combinations_with_replacement

from bot.play.rules.batches import DEAL_SECONDS, Maker, Unfinished
from bot.play.rules.exact import ExactRules, analyse, judge, may_reach_hands, solutions
from bot.play.rules.records import Deal, PlayOptions, Puzzle
from solver import is_solvable
from solver.rating import level as rated_level

__all__ = ["CARDS", "COUNTS", "FOURS", "LEVEL_POINTS", "NAME", "TARGETS", "Search", "TwentyFour",
           "analyse", "deal", "judge", "ready", "solutions"]  # judged exactly: bot.play.rules.exact

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


def ready(seed: int | Search, level: str | None = None, count: int = 4, target: int = 24,
          budget: float = DEAL_SECONDS, slice_seconds: float | None = None
          ) -> Deal | Search | None:
    """`deal`, with the hand's analysis: what its hints and its end will show."""
    dealt = deal(seed, level, count, target, budget, slice_seconds)
    if not isinstance(dealt, Deal):
        return dealt
    return dataclasses.replace(dealt, analysis=analyse(dealt.hand, dealt.target))


class TwentyFour(ExactRules):
    name = NAME
    levels = True

    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        return ready, (options.level, options.count or 4,
                       24 if options.target is None else options.target, budget)

    def replay_options(self, ended: Puzzle, same_level: bool) -> PlayOptions:
        """As many numbers and the same target again (and the same level, if asked)."""
        return PlayOptions(level=ended.level if same_level else None, count=len(ended.hand),
                           target=ended.target)

    def costly(self, options: PlayOptions) -> bool:
        return (options.count or 4) > 4 or options.target not in (None, 24)

    def may_reach(self, numbers: Sequence[int]) -> bool:
        """A hand is 4 to 6 cards 1..13 (any target): a request holding one, with extras or
        none, or made of cards and one short of a hand's count."""
        return may_reach_hands(list(numbers), *CARDS, COUNTS)
