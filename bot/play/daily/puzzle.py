"""The daily puzzle's rules, apart from any chat or store: which hand a UTC day deals (the same
for everyone, from the date and the bot's secret), when that day begins and ends, and a player's
streak of days solved. No I/O, no clock of its own: every function is handed the time or the days.

The board ranks by how soon after the day began a right answer arrived, which is fair only if
nobody can know the hand before the day begins: the code is public, so the order of the days is
drawn from a secret of the bot's (`secret_key`), not from the date alone."""

from __future__ import annotations

import functools
import hashlib
import hmac
import random
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta

from bot.play.games import DAILY_GAME
from bot.play.guards.live import DAILY_ROUND, EVERYONE, Live, hand_key

assert DAILY_GAME.daily is not None  # the registry found the one game that declares it
DECK = DAILY_GAME.daily
TARGET = DECK.target
LEVEL = DECK.level
DAY = 86400


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


def daily_hands() -> tuple[tuple[int, ...], ...]:
    """Every hand a day may deal, in the order the days take them (made ahead by the daily's game,
    so the event loop never rates hands)."""
    return DECK.hands


def secret_key(secret: str) -> bytes:
    """The key the days' order is drawn with, from a secret of the bot (its token: the same on
    every process of one bot, and known to nobody else)."""
    return hmac.new(secret.encode(), b"twenty-four daily puzzle", hashlib.sha256).digest()


def daily_hand(day: str, key: bytes, hands: Sequence[tuple[int, ...]] | None = None
               ) -> tuple[int, ...]:
    """The day's hand: the days walk `daily_hands` (or `hands`) in cycles of as many days as
    there are hands, each cycle in its own order drawn with `key` (so no hand comes back before
    all have been dealt, and without the key no day's hand can be told before it comes), each
    hand shown in an order drawn from key and date. The same on every process and every
    restart of one bot: it needs no store."""
    hands = hands or daily_hands()
    cycle, place = divmod(date.fromisoformat(day).toordinal(), len(hands))
    shown = list(hands[_cycle_order(key, cycle, len(hands))[place]])
    random.Random(_drawn(key, f"shown {day}")).shuffle(shown)
    return tuple(shown)


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
    """The daily puzzle's hand at any moment: drawn with the bot's own secret (the same on each
    of its processes), so nobody can tell a day's hand before it begins. Built once and handed
    to what keeps the hand live (bot.play.guards.live) and to the daily service."""

    def __init__(self, secret: str, clock: Callable[[], float]) -> None:
        self.key = secret_key(secret)  # draws the days' order
        self.clock = clock

    def now(self) -> tuple[int, ...]:
        """Today's hand (UTC)."""
        return self.of(day_of(self.clock()))

    def live(self) -> Live | None:
        """Today's puzzle as the live-hand guard keeps it: a round of its game live in every
        chat."""
        hand = self.now()
        if not hand:
            return None
        return Live(DAILY_ROUND, EVERYONE, DAILY_GAME.name, hand_key(hand), TARGET)

    def of(self, day: str) -> tuple[int, ...]:
        """The hand of a UTC day."""
        return daily_hand(day, self.key)
