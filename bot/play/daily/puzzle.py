"""The daily puzzles' rules, apart from any chat or store: which hand (and target) a UTC day deals
in each game that has a daily (the same for everyone, from the date and the bot's secret), when
that day begins and ends, and a player's streak of days solved. No I/O, no clock of its own:
every function is handed the time or the days.

The board ranks by how soon after the day began a right answer arrived, which is fair only if
nobody can know the hand before the day begins: the code is public, so the order of the days is
drawn from a secret of the bot's (`secret_key`), not from the date alone."""

from __future__ import annotations

import functools
import hashlib
import hmac
import random
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from bot.play.games import DAILY_GAME, DAILY_GAMES, GAMES
from bot.play.games.game import DailyDeck
from bot.play.guards.live import DAILY_ROUND, EVERYONE, Live, hand_key

DAY = 86400
Puzzle = tuple[tuple[int, ...], int]  # a day's hand, and the target it is to make


def day_of(at: float) -> str:
    """The UTC day of a moment, as the stores key it: "2026-11-24"."""
    return datetime.fromtimestamp(at, UTC).date().isoformat()


def day_start(day: str) -> float:
    """The moment a UTC day begins."""
    return datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp()


def seconds_left(at: float) -> float:
    """How long the day of this moment still runs (its puzzle stays unsolvable by the bot)."""
    return day_start(day_of(at)) + DAY - at


def into_day(at: float) -> float:
    """How long after its UTC day began this moment is: what the daily board ranks by."""
    return at - day_start(day_of(at))


def daily_deck(game: str) -> DailyDeck:
    """The puzzles a game's daily may deal, in the order the days take them (made ahead by the
    game, so the event loop never rates hands)."""
    deck = GAMES[game].daily
    if deck is None:
        raise ValueError(f"{game} has no daily puzzle")
    return deck


def secret_key(secret: str) -> bytes:
    """The key the days' order is drawn with, from a secret of the bot (its token: the same on
    every process of one bot, and known to nobody else)."""
    return hmac.new(secret.encode(), b"twenty-four daily puzzle", hashlib.sha256).digest()


def daily_puzzle(day: str, key: bytes, deck: DailyDeck) -> Puzzle:
    """The day's puzzle of a deck: the days walk its puzzles in cycles of as many days as there
    are puzzles, each cycle in its own order drawn with `key` (so no puzzle comes back before all
    have been dealt, and without the key no day's puzzle can be told before it comes), each hand
    shown in an order drawn from key and date. The same on every process and every restart of
    one bot: it needs no store. Each deck draws apart (its `draws`), so two games' days differ."""
    key = deck_key(key, deck)
    cycle, place = divmod(date.fromisoformat(day).toordinal(), len(deck.hands))
    hand, target = deck.puzzle(_cycle_order(key, cycle, len(deck.hands))[place])
    shown = list(hand)
    random.Random(_drawn(key, f"shown {day}")).shuffle(shown)
    return tuple(shown), target


def deck_key(key: bytes, deck: DailyDeck) -> bytes:
    """The key a deck's days are drawn with: the bot's own for the deck that draws as the first
    daily always did, one of its own for every other."""
    return key if not deck.draws else _drawn(key, f"deck {deck.draws}")


@functools.lru_cache(maxsize=8)
def _cycle_order(key: bytes, cycle: int, count: int) -> tuple[int, ...]:
    """The order in which one cycle of days takes the hands."""
    order = list(range(count))
    random.Random(_drawn(key, f"cycle {cycle}")).shuffle(order)
    return tuple(order)


def _drawn(key: bytes, what: str) -> bytes:
    """A seed for one draw (bytes: the same on every process, whatever PYTHONHASHSEED)."""
    return hmac.new(key, what.encode(), hashlib.sha256).digest()


def streaks(days: list[str], today: str) -> tuple[int, int]:
    """(current, best) runs of consecutive days solved. The current run ends today, or
    yesterday while today is not solved yet (a streak lives until a day passes unsolved)."""
    solved = sorted({date.fromisoformat(d) for d in days})
    best, run, previous = 0, 0, None
    for day in solved:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best, previous = max(best, run), day
    last = date.fromisoformat(today)
    alive = previous is not None and (last - previous) <= timedelta(days=1)
    return (run if alive else 0), best


assert streaks(["2026-01-01", "2026-01-02", "2026-01-04"], "2026-01-05") == (1, 2)
assert streaks(["2026-01-01", "2026-01-02"], "2026-01-04") == (0, 2)
assert day_of(day_start("2026-11-24") + DAY - 1) == "2026-11-24"


class DailyHands:
    """Each daily puzzle's hand at any moment: drawn with the bot's own secret (the same on each
    of its processes), so nobody can tell a day's hand before it begins. Built once and handed
    to what keeps the hands live (bot.play.guards.live) and to the daily service."""

    def __init__(self, secret: str, clock: Callable[[], float]) -> None:
        self.key = secret_key(secret)  # draws the days' order
        self.clock = clock
        self._today: tuple[str, tuple[Live, ...]] | None = None  # (day, its puzzles as live)

    def now(self, game: str = DAILY_GAME.name) -> tuple[int, ...]:
        """Today's hand (UTC) of a game's daily."""
        return self.of(day_of(self.clock()), game)

    def live(self) -> tuple[Live, ...]:
        """Today's puzzles as the live-hand guard keeps them: each a round of its game live in
        every chat."""
        day = day_of(self.clock())
        if self._today is None or self._today[0] != day:  # drawn once a day: every result asks
            self._today = (day, tuple(
                Live(DAILY_ROUND, EVERYONE, game.name, hand_key(hand), target)
                for game in DAILY_GAMES for hand, target in (self.puzzle(day, game.name),)
                if hand))
        return self._today[1]

    def puzzle(self, day: str, game: str = DAILY_GAME.name) -> Puzzle:
        """The hand and target of a UTC day in a game's daily."""
        return daily_puzzle(day, self.key, daily_deck(game))

    def of(self, day: str, game: str = DAILY_GAME.name) -> tuple[int, ...]:
        """The hand of a UTC day in a game's daily."""
        return self.puzzle(day, game)[0]
