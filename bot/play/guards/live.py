"""The puzzles being played right now, in any chat: the solving commands, inline queries and
buttons refuse them until their round ends, so the bot never solves its own live round for
anyone (a cheater may ask from another chat, in private, or inline).

A puzzle is live while a round of it is open anywhere: the same numbers in any order with the
same target, or the same 13 Yahtzee rolls in any order (each roll's dice in any order). Where an
answer may use only some of the hand (Countdown), any part of a live hand with its target is
live too, since its answers answer the round. Kept in memory beside the open rounds (this
process deals every round); no I/O here.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from bot.play.games import countdown, twentyfour
from bot.store.records import Round

Hand = tuple[int, ...]
Rolls = tuple[Hand, ...]
PART_GAMES = frozenset({"countdown"})  # an answer may use part of the hand


def hand_key(numbers: Iterable[int]) -> Hand:
    return tuple(sorted(numbers))


def rolls_key(rolls: Iterable[Sequence[int]]) -> Rolls:
    return tuple(sorted(tuple(sorted(roll)) for roll in rolls))


def is_rolls(hand: tuple) -> bool:
    return bool(hand) and isinstance(hand[0], tuple)


def could_be_live(numbers: Sequence[int], target: int) -> bool:
    """Whether a round could ever deal these numbers for this target (or, in Countdown, a hand
    they are part of): then an answer about them must never be kept anywhere, since the hand
    may be live any time. A hand of 24 is 4 to 6 cards 1..13 for a target 1..999; Countdown's
    is six cards of 1..10 and its large numbers for a target 101..999."""
    low, high = twentyfour.CARDS
    if len(numbers) in twentyfour.COUNTS and all(low <= n <= high for n in numbers) and \
            twentyfour.TARGETS[0] <= target <= twentyfour.TARGETS[1]:
        return True
    cards = Counter(countdown.SMALL) + Counter(countdown.LARGE)
    return len(numbers) <= countdown.CARDS and not Counter(numbers) - cards and \
        countdown.TARGETS[0] <= target <= countdown.TARGETS[1]


class LivePuzzles:
    """The puzzles of the open rounds, counted (two chats may play the same hand)."""

    def __init__(self) -> None:
        self._whole: defaultdict[int, Counter[Hand]] = defaultdict(Counter)  # by target
        self._part: defaultdict[int, Counter[Hand]] = defaultdict(Counter)  # by target
        self._rolls: Counter[Rolls] = Counter()
        self._ids: set[int] = set()  # the rounds counted

    def add(self, round_: Round) -> None:
        if round_.id not in self._ids:
            self._ids.add(round_.id)
            self._change(round_, +1)

    def remove(self, round_: Round) -> None:
        if round_.id in self._ids:
            self._ids.discard(round_.id)
            self._change(round_, -1)

    def clear(self) -> None:
        self._whole.clear()
        self._part.clear()
        self._rolls.clear()
        self._ids.clear()

    def _change(self, round_: Round, step: int) -> None:
        if is_rolls(round_.hand):
            key = rolls_key(round_.hand)
            self._rolls[key] += step
            if self._rolls[key] <= 0:
                del self._rolls[key]
            return
        table = self._part if round_.game in PART_GAMES else self._whole
        hands = table[round_.target]
        hands[hand_key(round_.hand)] += step
        if hands[hand_key(round_.hand)] <= 0:
            del hands[hand_key(round_.hand)]
        if not hands:
            del table[round_.target]

    def numbers(self, numbers: Iterable[int], target: int, besides: Round | None = None
                ) -> bool:
        """Whether solving these numbers for this target would answer a live round (other
        than `besides`)."""
        given = tuple(numbers)
        key, wanted = hand_key(given), Counter(given)
        skip = self._counted(besides)
        if self._whole.get(target, Counter())[key] - (skip == ("whole", target, key)) > 0:
            return True
        return any(count - (skip == ("part", target, hand)) > 0 and not wanted - Counter(hand)
                   for hand, count in self._part.get(target, Counter()).items())

    def rolls(self, rolls: Iterable[Sequence[int]], besides: Round | None = None) -> bool:
        """Whether these 13 rolls are dealt in a live round (other than `besides`)."""
        key = rolls_key(rolls)
        return self._rolls[key] - (self._counted(besides) == ("rolls", 0, key)) > 0

    def elsewhere(self, round_: Round) -> bool:
        """Whether another live round would be answered by this round's solutions: its end
        then keeps them back."""
        if is_rolls(round_.hand):
            return self.rolls(round_.hand, besides=round_)
        return self.numbers(round_.hand, round_.target, besides=round_)

    def _counted(self, round_: Round | None) -> tuple[str, int, tuple] | None:
        """Which table, target and key a round is counted under (None: it is not counted)."""
        if round_ is None or round_.id not in self._ids:
            return None
        return _place_in_tables(round_)


def _place_in_tables(round_: Round) -> tuple[str, int, tuple]:
    """Which table, target and key a round is counted under."""
    if is_rolls(round_.hand):
        return ("rolls", 0, rolls_key(round_.hand))
    table = "part" if round_.game in PART_GAMES else "whole"
    return (table, round_.target, hand_key(round_.hand))
