"""Deals by the learned difficulty (docs/ratings.md): a hand's level is what play has learned of
it, and the level "adaptive" deals a hand the chat's players of late solve about three times in
four (bot.play.ratings.adaptive, the group's chance).

The candidates are the hands the adaptive game declares (bot.play.games' ADAPTIVE_GAME; 24's:
every solvable four-number hand of 1..13, 1362, each at its prior: the fixed model's difficulty,
worked out once, in a thread), held in memory in the
model's index (HandIndex), with the difficulties play learned over them: loaded from the store
once, at the first deal that needs them, then kept as the bot's own closes rate hands.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections import deque
from collections.abc import Callable, Container, Mapping
from dataclasses import replace
from itertools import combinations_with_replacement
from types import MappingProxyType

from cachetools import LRUCache

from bot.play import ratings
from bot.play.dealing.analyses import Analyses
from bot.play.games import ADAPTIVE_GAME
from bot.play.guards.live import EVERYONE, LivePuzzles
from bot.play.ratings import HandIndex
from bot.play.ratings.rater import Rater, current, scale_of
from bot.play.ratings.records import HAND_PROVISIONAL
from bot.play.rules.records import Deal
from bot.store.records import HandRow
from solver.rating import difficulty_of

ADAPTIVE = "adaptive"
assert ADAPTIVE_GAME.adaptive is not None  # the registry found the one game that declares it
HANDS = ADAPTIVE_GAME.adaptive  # the hands dealt for a group's skill (24's: four cards to 24)
GAME, SIZE, TARGET, HIGHEST = ADAPTIVE_GAME.name, HANDS.size, HANDS.target, HANDS.highest
RECENT_ROUNDS = 20  # the players of a chat's last rounds of the game ...
RECENT_SECONDS = 7 * 86400.0  # ... within a week are the group a deal aims at
# A group plays adaptive deals by default once it has closed this many rounds of it: by then its
# regulars have a few responses each, enough for the aim to beat a level drawn at random.
ADAPTIVE_AFTER = 20
NEAREST = 5  # a deal is drawn among the hands this near the aim (a group meets no hand twice)
RECENT_HANDS = 30  # hands a chat was dealt lately, kept out of its adaptive deals
CHATS_KEPT = 5_000  # chats whose recent hands are remembered (the least recent go first)
REDRAWS = 3  # stock deals set aside, at most, when their learned level is not the one asked


class Leaving:
    """What a deal leaves out: the chat's recent hands, and those `only` does not take."""

    def __init__(self, recent: Container[str], only: Callable[[str], bool]) -> None:
        self.recent = recent
        self.only = only

    def __contains__(self, key: object) -> bool:
        return key in self.recent or not (isinstance(key, str) and self.only(key))


def candidate_hands() -> list[tuple[tuple[int, ...], float]]:
    """Every solvable hand of SIZE numbers 1..HIGHEST for TARGET, with the fixed model's
    difficulty (24's: read from the rating table, where the model took 0.4-0.7 s and left its
    caches full for the process's life)."""
    found = []
    for hand in combinations_with_replacement(range(1, HIGHEST + 1), SIZE):
        difficulty = difficulty_of(hand, TARGET)
        if difficulty is not None:
            found.append((hand, difficulty))
    return found


@functools.cache
def candidate_priors() -> Mapping[str, tuple[tuple[int, ...], float, int]]:
    """Each candidate by its key: its hand, its prior difficulty (ratings.new_hand's: the fixed
    model's, on the rating scale) and no responses yet. The same at every load of a process, so
    worked out once (a bot loads once; the tests build services hundreds of times, 8 ms each);
    a load copies the map, not its entries, so it costs a process one map more, not the
    entries twice."""
    priors = {}
    for hand, fixed in candidate_hands():
        key = ratings.hand_key(hand, TARGET)
        priors[key] = (hand, ratings.new_hand(GAME, key, 0.0, SIZE, TARGET, fixed).difficulty, 0)
    return MappingProxyType(priors)


class AdaptiveDeals:
    def __init__(self, rater: Rater, analyses: Analyses, live: LivePuzzles,
                 clock: Callable[[], float], rng: random.Random) -> None:
        self.rater = rater
        self.store = rater.store
        self.analyses = analyses
        self.live = live
        self.clock = clock
        self.rng = rng
        self.index: HandIndex | None = None  # loaded at the first deal that needs it
        # key -> hand, difficulty, responses: the 1362 candidates, fixed (not per chat)
        self.hands: dict[str, tuple[tuple[int, ...], float, int]] = {}
        # chat -> its last RECENT_HANDS hands; LRU of CHATS_KEPT chats (one that went may meet a
        # recent hand again: a repeat, never a wrong deal)
        self._recent: LRUCache[int, deque[str]] = LRUCache(CHATS_KEPT)
        self._loading = asyncio.Lock()
        rater.follow(self.kept)

    async def loaded(self) -> HandIndex:
        """The candidates at their priors, then as rated (once: the deals that ask while the
        index is being built wait for it; each built its own before, twenty at a burst)."""
        if self.index is not None:
            return self.index
        async with self._loading:
            if self.index is None:
                await self._load()
        assert self.index is not None
        return self.index

    async def _load(self) -> None:
        index = HandIndex()
        self.hands.update(await asyncio.to_thread(candidate_priors))
        for row in await self.store.hand_ratings(GAME, SIZE, TARGET):
            if row.hand in self.hands:
                self.hands[row.hand] = (self.hands[row.hand][0], row.difficulty, row.responses)
        for key, (_hand, difficulty, _count) in self.hands.items():
            index.put(key, difficulty)
        self.index = index

    def kept(self, row: HandRow) -> None:
        """A hand rated by a close of this bot: its difficulty as the store now has it (near
        enough: another process's closes reach it at the next start)."""
        if self.index is not None and row.hand in self.hands:
            hand = self.hands[row.hand][0]
            self.hands[row.hand] = (hand, row.difficulty, row.responses)
            self.index.put(row.hand, row.difficulty)

    async def learned_level(self, deal: Deal) -> str | None:
        """The level play has learned for a dealt hand of the candidates' kind (None: another
        kind, or a hand not yet rated on enough responses to overrule the model)."""
        if deal.game != GAME or len(deal.hand) != SIZE or deal.target != TARGET:
            return None
        await self.loaded()
        found = self.hands.get(ratings.hand_key(deal.hand, deal.target))
        if found is None or found[2] < HAND_PROVISIONAL:
            return None
        return ratings.level_of(found[1])

    def relevelled(self, deal: Deal, level: str) -> Deal:
        return replace(deal, level=level, points=HANDS.points[level])

    async def rounds_played(self, chat_id: int) -> int:
        return await self.store.rounds_played(chat_id, GAME, ADAPTIVE_AFTER)

    async def deal(self, chat_id: int, player_id: int, seconds: float,
                   aim: float = ratings.AIM, only: Callable[[str], bool] | None = None) -> Deal:
        """A hand for the chat's players of late (and the one asking) to solve with chance
        about `aim` (ratings.AIM: three times in four) within `seconds`, drawn among the
        NEAREST to the aim (`only`: among the hands whose key it takes, if any); its level the
        learned one."""
        index = await self.loaded()
        now = self.clock()
        season = ratings.season_of(now)
        group = await self.store.recent_ratings(chat_id, GAME, RECENT_ROUNDS,
                                                now - RECENT_SECONDS)
        if player_id not in group:
            group[player_id] = await self.store.player_ratings(player_id, GAME)
        rows = [current(group[user], user, GAME, season, now) for user in sorted(group)]
        stored = await self.store.scale(GAME)
        scale = scale_of(stored) if stored is not None else ratings.new_scale(GAME, now)
        recent = self._recent.get(chat_id, ())
        skills = [(r.rating, r.uncertainty) for r in rows]
        keys = ratings.adaptive_hands(index, skills, seconds, scale, NEAREST,
                                      Leaving(recent, only), aim) if only is not None else []
        keys = keys or ratings.adaptive_hands(index, skills, seconds, scale, NEAREST, recent, aim)
        # never the daily puzzle's hand: its round would show the day's answers in the chat
        keys = [k for k in keys if not self._daily(self.hands[k][0])] or keys
        key = self.rng.choice(keys)
        hand, difficulty, _count = self.hands[key]
        self._remember(chat_id, key)
        level = ratings.level_of(difficulty)
        analysis = await self.analyses.of(GAME, hand, TARGET)
        return Deal(GAME, hand, TARGET, level, HANDS.points[level], analysis)

    def _daily(self, hand: tuple[int, ...]) -> bool:
        return any(r.chat_id == EVERYONE for r in self.live.reaching(hand, TARGET))

    def _remember(self, chat_id: int, key: str) -> None:
        recent = self._recent.get(chat_id)
        if recent is None:
            recent = self._recent[chat_id] = deque(maxlen=RECENT_HANDS)
        recent.append(key)
