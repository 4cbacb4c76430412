"""Who took part in an open round: who answered, who passed (in order, with their names), how many
guesses each made where guesses are sealed, and each player's closest answer where the closest
wins. Part of the OpenRound aggregate, changed only through its transitions.

Each collection is made when its first entry comes, and who answered is a tuple (a few players
a round): a burst holds a thousand rounds open at once, most of them answered but never passed,
guessed at or answered closely, and four empty collections a round were 0.4 KB of the 1.4 an
open round held (docs/benchmarks.md)."""

from __future__ import annotations

from bot.play.round.decisions import Attempt


class Takers:
    __slots__ = ("_answered", "_closest", "_guesses", "_passers")

    def __init__(self) -> None:
        self._answered: tuple[int, ...] = ()  # who answered (since this process holds it)
        self._passers: dict[int, str] | None = None  # who passed, in order: their names
        self._guesses: dict[int, int] | None = None  # player -> guesses (read after a restart)
        self._closest: dict[int, Attempt] | None = None  # each player's closest valid answer

    def __bool__(self) -> bool:
        """Whether anyone answered, passed or guessed."""
        return bool(self._answered or self._passers or self._guesses)

    # --- reading ---------------------------------------------------------------------------

    @property
    def answered(self) -> frozenset[int]:
        return frozenset(self._answered)

    @property
    def passed(self) -> tuple[str, ...]:
        """The names of those who passed, in order."""
        return tuple(self._passers.values()) if self._passers else ()

    @property
    def passer_ids(self) -> frozenset[int]:
        return frozenset(self._passers or ())

    def guessed(self, user_id: int) -> int | None:
        """How many guesses the player made (None: not known here)."""
        return None if self._guesses is None else self._guesses.get(user_id)

    def leaders(self, most: int) -> list[Attempt]:
        """The closest valid answers, one a player, closest first (ties: the earlier)."""
        if not self._closest:
            return []
        return sorted(self._closest.values(), key=lambda a: (a.distance, a.at))[:most]

    # --- changes ---------------------------------------------------------------------------

    def answer(self, user_id: int) -> None:
        if user_id not in self._answered:  # a tuple: a few players, 0.2 KB less than a set
            self._answered += (user_id,)

    def closer(self, attempt: Attempt) -> None:
        """A valid answer: kept as its player's closest, if it is."""
        if attempt.distance is None:
            return
        if self._closest is None:
            self._closest = {}
        best = self._closest.get(attempt.user_id)
        if best is None or best.distance is None or attempt.distance < best.distance:
            self._closest[attempt.user_id] = attempt

    def guess(self, user_id: int, limit: int) -> bool:
        """One more guess counted (False: the player has none left, nothing counted)."""
        if self._guesses is None:
            self._guesses = {}
        made = self._guesses.get(user_id, 0)
        if made >= limit:
            return False
        self._guesses[user_id] = made + 1
        return True

    def guesses_known(self, user_id: int, made: int) -> None:
        """How many guesses a player made, as stored (after a restart)."""
        if self._guesses is None:
            self._guesses = {}
        self._guesses.setdefault(user_id, made)

    def pass_(self, user_id: int, name: str) -> bool:
        """The pass taken down, in order (False: theirs was already)."""
        if self._passers is None:
            self._passers = {}
        elif user_id in self._passers:
            return False
        self._passers[user_id] = name
        return True

    def known(self, answerers: list[int], passers: list[tuple[int, str]]) -> None:
        """Who answered and who passed, as stored (a pass taken down here and not yet stored is
        kept)."""
        for user_id in answerers:
            self.answer(user_id)
        for user_id, name in passers:
            self.pass_(user_id, name)

    def forget(self, user_id: int) -> None:
        """Nothing of the person's stays: their closest answer, pass, guesses, that they
        answered."""
        for held in (self._closest, self._passers, self._guesses):
            if held:
                held.pop(user_id, None)
        self._answered = tuple(held for held in self._answered if held != user_id)
