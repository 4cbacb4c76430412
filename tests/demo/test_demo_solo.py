"""The solo modes through the demo (issue 74's done-when): in the speaker's private chat,
`/streak`, `/storm` (on a short clock) and `/practice` play to their end as a person at the
terminal plays them, and `/streak top` and `/storm top` then show the result."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from solver import solve
from tests.demo.test_demo import demo, read_until, type_line

HAND = re.compile(r"^Twenty-Four: (\d+) (\d+) (\d+) (\d+)$", re.MULTILINE)
STORM_SECONDS = "40"  # the storm's clock here: three misses take it under a hand's shortest


def hand_in(shown: str) -> list[int]:
    found = HAND.findall(shown)
    assert found, shown
    return [int(n) for n in found[-1]]


def right(hand: list[int]) -> str:
    return solve(hand)[0]


def wrong(hand: list[int]) -> str:
    """An expression using each number once that does not make 24."""
    a, b, c, d = hand
    for text, value in ((f"{a}+{b}+{c}+{d}", a + b + c + d), (f"{a}*{b}*{c}*{d}", a * b * c * d),
                        (f"{a}+{b}+{c}-{d}", a + b + c - d), (f"{a}*{b}+{c}+{d}", a * b + c + d)):
        if Fraction(value) != 24:
            return text
    raise AssertionError(hand)


async def test_streak_storm_and_practice_play_to_their_end_in_the_demo(tmp_path: Path):
    async with demo(tmp_path, "--user", "Ann", STORM_SECONDS=STORM_SECONDS) as process:
        await type_line(process, "/private")
        await read_until(process, r"speaks in a private chat")

        # a streak: the first hand solved, the second missed
        await type_line(process, "/streak")
        hand = hand_in(await read_until(process, r"Your best: 0\."))
        await type_line(process, right(hand))
        await read_until(process, r"Solved in a row: 1\.")
        hand = hand_in(await read_until(process, r"🔥 Streak: hand 2\."))
        await type_line(process, wrong(hand))
        over = await read_until(process, r"Streak over\.")
        assert "Solved in a row: 1. Your best: 1." in over
        await type_line(process, "/streak top")
        board = await read_until(process, r"Longest streaks of all time")
        board += await read_until(process, r"Ann")
        assert "Longest streaks this season" in board

        # a storm: one solved, then misses until the clock is under a hand's shortest
        await type_line(process, "/storm")
        hand = hand_in(await read_until(process, r"⛈ Storm: hand 1\."))
        await type_line(process, right(hand))
        await read_until(process, r"Solved: 1\. Time left")
        for number in range(2, 7):
            shown = await read_until(process, rf"⛈ Storm: hand {number}\.|Storm over")
            if "Storm over" in shown:
                break
            await type_line(process, wrong(hand_in(shown)))
            shown = await read_until(process, r"Next hand!|Storm over")
            if "Storm over" in shown:
                break
        else:
            raise AssertionError("the storm never ended")
        assert re.search(r"Storm over\. Solved: 1, missed: [1-9]\. Your best today: 1; this "
                         r"season: 1\.", shown), shown
        await type_line(process, "/storm top")
        board = await read_until(process, r"Best storms this season")
        board += await read_until(process, r"Ann")
        assert "Best storms today" in board

        # practice: a hand of the idea the misses above showed, or one at the player's level
        await type_line(process, "/practice")
        shown = await read_until(process, r"🎯 Practice: ")
        hand = hand_in(shown + await read_until(process, r"\[Hint\]"))
        await type_line(process, right(hand))
        await read_until(process, r"Ann wins")
        await type_line(process, "/quit")
