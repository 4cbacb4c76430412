"""The puzzles being played right now, and the rule that keeps them unsolved: while a round is
live, the bot gives none of its chat's members anything from which the puzzle can be finished by
hand in one step, however it is asked (/solve, a game's command, inline, buttons; in any
chat, in private).

What a request *reaches* (`reaching`), by the round's game:
- every game: the live hand with any extra numbers (or none), for any target — a solution of
  `hand 0` or `hand 1` is an answer once its `+0` or `×1` is dropped, and the hand's solutions
  for another target are one step from it at best;
- a game where every number is used (24): all of the hand but one number, for any target — a
  solution of the rest for T−x, T÷x... is an answer after one step with the number left out;
- a game where part of the hand may answer (Game.part_answers): any part of the tiles for the
  round's target, or for a target one step away with a tile left out (T±x, T×x, T÷x, x−T), and
  all of the tiles but one for any target;
- a game of rolls: 13 rolls sharing at least 10 with the live rolls (so 1 to 3 dice changed still
  reach it: the best total moves little).
Who may not have it: the members of a chat where a reached round is live (asked of Telegram by
the face when a request reaches one; a member who never spoke counts). Everyone else is answered
as usual, so thousands of live rounds refuse next to nothing to the rest of the world. The daily
puzzles (bot.play.daily.daily, one a game that has a daily) are live for everyone, in every chat,
until their UTC day ends: each is reached as a round of its game where every number is used, and
found as chat EVERYONE; so is each live round of a tournament
between groups (bot.play.tournaments), from its first deal until its round closed in every group
(`Shared`: found as chat EVERYONE, with its key's negative as its round id). Kept in memory beside
the open rounds;
no I/O here. Where each of several processes holds only its own chats' rounds, the callers also
ask the rest (bot.play.ports.OpenRounds) and judge what they find by this same rule
(`reached_among`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from bot.play.games import GAMES
from bot.store.records import Round

Hand = tuple[int, ...]
Rolls = tuple[Hand, ...]
ROLLS_SHARED = 10  # of 13: requests sharing this many rolls with a live round of rolls reach it
EVERYONE = 0  # the "chat" of a puzzle live for everyone (the daily); no chat has id 0
DAILY_ROUND = 0  # and its round id (no round has id 0)
TOURNAMENT_ROUNDS = 100  # a tournament round's key: the tournament's id × this + its number
DailyPuzzle = Callable[[], "Sequence[Live]"]


def hand_key(numbers: Iterable[int]) -> Hand:
    return tuple(sorted(numbers))


def rolls_key(rolls: Iterable[Sequence[int]]) -> Rolls:
    return tuple(sorted(tuple(sorted(roll)) for roll in rolls))


def is_rolls(hand: tuple) -> bool:
    return bool(hand) and isinstance(hand[0], tuple)


def parts(hand: Hand, smallest: int = 1) -> set[Hand]:
    """Every sub-multiset of the hand (sorted) with at least `smallest` numbers."""
    return {hand_key(c) for size in range(smallest, len(hand) + 1)
            for c in combinations(hand, size)}


def one_step_targets(target: int, left_out: Iterable[int]) -> set[Fraction]:
    """The targets from which one step with a number left out reaches `target`."""
    found = {Fraction(target)}
    for x in left_out:
        found |= {Fraction(target - x), Fraction(target + x), Fraction(target * x),
                  Fraction(x - target)}
        if x:
            found.add(Fraction(target, x))
        if target:
            found.add(Fraction(x, target))
    return found


def could_be_live(numbers: Sequence[int], target: int) -> bool:
    """Whether some round the bot could deal would be reached by this request (see the
    module's rule), whatever is live now: then an answer about it must never be kept for
    everyone (Telegram's inline cache), since such a round may be dealt any time. Each game
    says which requests some hand of its own could be reached by (`Rules.may_reach`)."""
    return any(game.rules.may_reach(numbers) for game in GAMES.values())


def reaches_whole(request: Hand, hand: Hand) -> bool:
    """Whether a request reaches a live hand of a game where every number is used: the hand
    with extras (or none), or the hand less one number, for any target."""
    return not Counter(hand) - Counter(request) or \
        (len(request) + 1 == len(hand) and not Counter(request) - Counter(hand))


@dataclass(frozen=True)
class Live:
    """A live round as the rule sees it."""

    round_id: int
    chat_id: int
    game: str
    hand: Hand
    target: int

    @property
    def for_everyone(self) -> bool:
        """Live for everyone: the daily puzzle, or a tournament's round."""
        return self.chat_id == EVERYONE

    @property
    def tournament(self) -> bool:
        """A tournament's round (its round id is its key's negative)."""
        return self.chat_id == EVERYONE and self.round_id < 0


def tournament_key(tournament_id: int, number: int) -> int:
    """A tournament round's key among the shared live hands (a tournament has fewer than
    TOURNAMENT_ROUNDS rounds)."""
    return tournament_id * TOURNAMENT_ROUNDS + number


def reaches(live: Live, request: Hand, target: int) -> bool:
    """Whether a request for these numbers (sorted) and target reaches this live round: the
    rule of the module, for one round."""
    if reaches_whole(request, live.hand):
        return True
    if not GAMES[live.game].part_answers or len(request) >= len(live.hand) or \
            Counter(request) - Counter(live.hand):
        return False
    left = list((Counter(live.hand) - Counter(request)).elements())
    return Fraction(target) in one_step_targets(live.target, left)


class Shared:
    """The hands live for everyone beside the daily one: each tournament round's, from its
    first deal until its round closed in every group (the tournaments keep it)."""

    def __init__(self) -> None:
        self._live: dict[int, Live] = {}  # key -> the round, live for everyone

    def add(self, key: int, game: str, hand: Sequence[int], target: int) -> None:
        self._live[key] = Live(-key, EVERYONE, game, hand_key(hand), target)

    def remove(self, key: int) -> None:
        self._live.pop(key, None)

    def keys(self) -> set[int]:
        return set(self._live)

    def reaching(self, request: Hand, target: int) -> list[Live]:
        return [live for live in self._live.values() if reaches(live, request, target)]


class LivePuzzles:
    """The live rounds, indexed by what requests reach them."""

    def __init__(self, daily: DailyPuzzle | None = None, shared: Shared | None = None) -> None:
        """`daily` gives the daily puzzles of the moment it is called (one a game that has a
        daily), kept live for everyone: asked at each request, so the day's end needs no timer;
        `shared`, the other hands live for everyone (the tournaments' rounds)."""
        self.shared = shared or Shared()
        self._live: dict[int, Live] = {}
        self._rolls: dict[int, tuple[int, Rolls]] = {}  # round id -> chat, its rolls
        self._whole: defaultdict[Hand, set[int]] = defaultdict(set)  # hand -> rounds
        self._less_one: defaultdict[Hand, set[int]] = defaultdict(set)  # hand less a number
        self._parts: defaultdict[Hand, set[int]] = defaultdict(set)  # part answers: any part
        self._daily = daily

    def daily(self) -> Sequence[Live]:
        """The daily puzzles live now, each as a round live in every chat."""
        return self._daily() if self._daily is not None else ()

    def add(self, round_: Round) -> None:
        if round_.id in self._live or round_.id in self._rolls:
            return
        if is_rolls(round_.hand):
            self._rolls[round_.id] = (round_.chat_id, rolls_key(round_.hand))
            return
        live = Live(round_.id, round_.chat_id, round_.game, hand_key(round_.hand),
                    round_.target)
        self._live[round_.id] = live
        for key, index in self._keys(live):
            index[key].add(live.round_id)

    def remove(self, round_: Round) -> None:
        self._rolls.pop(round_.id, None)
        live = self._live.pop(round_.id, None)
        if live is None:
            return
        for key, index in self._keys(live):
            index[key].discard(live.round_id)
            if not index[key]:
                del index[key]

    def clear(self) -> None:
        for table in (self._live, self._rolls, self._whole, self._less_one, self._parts):
            table.clear()

    def _keys(self, live: Live) -> list[tuple[Hand, defaultdict[Hand, set[int]]]]:
        keys = [(live.hand, self._whole)]
        keys += [(hand_key(live.hand[:i] + live.hand[i + 1:]), self._less_one)
                 for i in range(len(live.hand))]
        if GAMES[live.game].part_answers:
            keys += [(part, self._parts) for part in parts(live.hand)
                     if len(part) < len(live.hand)]
        return keys

    def reaching(self, numbers: Iterable[int], target: int,
                 besides: int | None = None) -> list[Live]:
        """The live rounds (but round `besides`) a request for these numbers and target
        reaches: their chats' members may not have its answer."""
        request = hand_key(numbers)
        found: set[int] = set()
        for part in parts(request):  # a live hand with extras (or none)
            found |= self._whole.get(part, set())
        found |= self._less_one.get(request, set())
        for round_id in self._parts.get(request, set()):
            live = self._live[round_id]
            left = list((Counter(live.hand) - Counter(request)).elements())
            if Fraction(target) in one_step_targets(live.target, left):
                found.add(round_id)
        if besides is not None:
            found.discard(besides)
        reached = self.shared.reaching(request, target) + [self._live[i] for i in sorted(found)]
        daily = [live for live in self.daily() if reaches_whole(request, live.hand)]
        return daily + reached

    def reaching_rolls(self, rolls: Iterable[Sequence[int]],
                       besides: int | None = None) -> list[int]:
        """The chats whose live round of rolls these 13 rolls reach (most of the rolls shared)."""
        asked = Counter(rolls_key(rolls))
        return sorted({chat for round_id, (chat, live) in self._rolls.items()
                       if round_id != besides and
                       sum((asked & Counter(live)).values()) >= ROLLS_SHARED})

    def elsewhere(self, round_: Round) -> bool:
        """Whether this round's solutions, shown at its end, would reach another live round
        (anywhere: a result is read by whoever is in its chat): its end then keeps them back."""
        if is_rolls(round_.hand):
            return bool(self.reaching_rolls(round_.hand, besides=round_.id))
        return bool(self.reaching(round_.hand, round_.target, besides=round_.id))

    def count(self) -> int:
        return len(self._live) + len(self._rolls)


def live_among(rounds: Iterable[Round]) -> LivePuzzles:
    """These open rounds (found beyond this process's memory) as live puzzles, to ask the
    same rule of them (no daily puzzle: memory holds it)."""
    found = LivePuzzles()
    for round_ in rounds:
        found.add(round_)
    return found


def reached_among(rounds: Iterable[Round], numbers: Iterable[int], target: int) -> list[Live]:
    """Of these open rounds, the ones a request for these numbers and target reaches."""
    return live_among(rounds).reaching(numbers, target)


def rolls_reached_among(rounds: Iterable[Round], rolls: Iterable[Sequence[int]]) -> list[int]:
    """Of these open rounds, the chats whose live round of rolls these rolls reach."""
    return live_among(rounds).reaching_rolls(rolls)
