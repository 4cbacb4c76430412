"""The player's year as days: how much they played each day, and their streaks of days played
(a day counts when they answered a round or solved the daily puzzle that day, UTC)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import date

DAY = 86400
EPOCH = date(1970, 1, 1).toordinal()


def day_of(when: float) -> str:
    """The UTC day of a moment: "2026-11-25"."""
    return time.strftime("%Y-%m-%d", time.gmtime(when))


def days_back(now: float, days: int) -> str:
    """The UTC day `days` days before the day of `now`."""
    return day_of(now - days * DAY)


def day_number(day: str) -> int:
    """Days since 1970-01-01 of a "YYYY-MM-DD" day."""
    return date.fromisoformat(day).toordinal() - EPOCH


def moment_of(day: str) -> float:
    """The first moment (Unix seconds) of a UTC day."""
    return float(day_number(day) * DAY)


def streaks(played: Iterable[str], today: str) -> tuple[int, int]:
    """(the run of days played that reaches today or yesterday, the longest run): a streak is
    still alive on a day not yet played."""
    numbers = sorted({day_number(day) for day in played})
    longest = run = 0
    last = None
    for number in numbers:
        run = run + 1 if last is not None and number == last + 1 else 1
        longest = max(longest, run)
        last = number
    alive = last is not None and day_number(today) - last <= 1
    return (run if alive else 0), longest


assert streaks(["2026-11-23", "2026-11-24", "2026-11-20"], "2026-11-25") == (2, 2)
assert streaks(["2026-11-20", "2026-11-21", "2026-11-22"], "2026-11-25") == (0, 3)
assert streaks([], "2026-11-25") == (0, 0)
assert day_number("1970-01-02") == 1
