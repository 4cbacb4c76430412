"""The daily puzzle's rules, apart from any chat or store: which hand a UTC day deals (the same
for everyone, from the date alone), when that day ends, and a player's streak of days solved.
No I/O, no clock of its own: every function is handed the time or the days."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

from bot.play.daily import hands as daily_table
from bot.play.games.twentyfour import FOURS
from solver import is_solvable
from solver.rating import level

TARGET = 24
LEVEL = "medium"  # hard enough to be worth a day, easy enough that most players finish it
DAY = 86400
ORDER_SEED = 24  # fixes the order in which the days deal the hands


def day_of(at: float) -> str:
    """The UTC day of a moment, as the stores key it: "2026-11-24"."""
    return datetime.fromtimestamp(at, UTC).date().isoformat()


def day_start(day: str) -> float:
    """The moment a UTC day begins."""
    return datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp()


def seconds_left(at: float) -> float:
    """How long the day of this moment still runs (its puzzle stays unsolvable by the bot)."""
    return day_start(day_of(at)) + DAY - at


def daily_hands() -> tuple[tuple[int, ...], ...]:
    """Every hand a day may deal, in the order the days take them (bot.play.daily.hands: made
    ahead, so the event loop never rates hands)."""
    return daily_table.HANDS


def eligible_hands() -> tuple[tuple[int, ...], ...]:
    """What bot.play.daily.hands holds, worked out: the hands of four numbers 1..13 that are
    solvable, rated LEVEL and not `obvious` (451 of them), in a fixed shuffled order (0.3 s)."""
    eligible = [hand for hand in FOURS if is_solvable(list(hand), TARGET)
                and level(hand, TARGET) == LEVEL and not obvious(hand)]
    random.Random(ORDER_SEED).shuffle(eligible)
    return tuple(eligible)


def daily_hand(day: str, hands: Sequence[tuple[int, ...]] | None = None) -> tuple[int, ...]:
    """The day's hand: the days walk `daily_hands` (or `hands`) in turn (no hand comes back
    before all have been dealt), each shown in an order drawn from its date. The same on every
    process and every restart, from the date alone: it needs no store."""
    hands = hands or daily_hands()
    shown = list(hands[date.fromisoformat(day).toordinal() % len(hands)])
    random.Random(f"daily 24 {day}").shuffle(shown)
    return tuple(shown)


def obvious(hand: tuple[int, ...]) -> bool:
    """A hand whose plain sum or product is the target: no puzzle for a whole day, whatever
    the rating (the model rates 2 7 7 8 medium)."""
    return sum(hand) == TARGET or math.prod(hand) == TARGET


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


def write_table(path: str) -> None:
    """Write bot.play.daily.hands from `eligible_hands` (after a change to the rating)."""
    hands = eligible_hands()
    rows = [", ".join(map(str, hands[i:i + 6])) for i in range(0, len(hands), 6)]
    with open(path) as kept:
        head = kept.read().split("HANDS:")[0]
    with open(path, "w") as table:
        table.write(head + "HANDS: tuple[tuple[int, int, int, int], ...] = (\n"
                    + "".join(f"    {row},\n" for row in rows) + ")\n")


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m bot.play.daily.puzzle --write")
    write_table(daily_table.__file__)
