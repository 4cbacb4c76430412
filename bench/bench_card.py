"""The share cards' cost: how long drawing one takes and how large its PNG is, per language.

Each card is drawn once to warm the fonts (the first card of a process opens them), then
`--repeat` times; the table gives the median time and the PNG's bytes of a season card, a live
daily card (hand face down) and a daily card after its day (hand shown). A last row draws a
season card for a name in six scripts and emoji, the worst case of the font lookup.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bot.play.cards import DailyCard, SeasonCard, daily_card, season_card
from bot.play.daily.puzzle import DAY, day_start
from bot.text.i18n import LANGUAGES

DAY_SHOWN = "2026-11-24"
SEASON = SeasonCard("Ann Lee", "24", "2026-11", 1634, 47, 212, 131, 9, 3.4)
DAILY = DailyCard("Ann Lee", DAY_SHOWN, 6 * 3600 + 12 * 60 + 5, 12, (3, 8, 3, 8))
MIXED = "Ann علی 王 ราม ქართ 😀"


def measure(draw: Callable[[], bytes], repeat: int) -> tuple[float, int]:
    """The median milliseconds of a drawing and its PNG's size."""
    png = draw()  # warm: fonts opened, cmaps read
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        draw()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), len(png)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="drawings per card (median)")
    repeat = parser.parse_args().repeat
    during, after = day_start(DAY_SHOWN) + 3600, day_start(DAY_SHOWN) + DAY
    print(f"share cards, 1200×630 PNG: median of {repeat} drawings, bytes")
    print(f"| {'language':8} | season ms | season B | daily live ms | daily live B | "
          "daily after ms | daily after B |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    rows = []
    for language in LANGUAGES:
        row = (*measure(lambda language=language: season_card(SEASON, language), repeat),
               *measure(lambda language=language: daily_card(DAILY, language, during), repeat),
               *measure(lambda language=language: daily_card(DAILY, language, after), repeat))
        rows.append(row)
        print(f"| {language:8} | {row[0]:9.1f} | {row[1]:8d} | {row[2]:13.1f} | {row[3]:12d} | "
              f"{row[4]:14.1f} | {row[5]:13d} |")
    mixed = SeasonCard(MIXED, "24", "2026-11", 1634, 47, 212, 131, 9, 3.4)
    took, size = measure(lambda: season_card(mixed, "en"), repeat)
    print(f"| {'mixed':8} | {took:9.1f} | {size:8d} | (a name in six scripts and emoji, en)")
    print(f"all languages: median {statistics.median(r[0] for r in rows):.1f} ms season, "
          f"{statistics.median(r[2] for r in rows):.1f} ms daily; largest PNG "
          f"{max(max(r[1], r[3], r[5]) for r in rows)} B")


if __name__ == "__main__":
    main()
