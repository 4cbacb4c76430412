"""The demo is where the player goes (issue 73): a button that opens the private chat takes the
speaker there (`/private` too), so the daily's answer and `/forget` with its confirmation work
from the terminal; `@bot QUERY` runs an inline query and lists its results."""

from __future__ import annotations

import re
from pathlib import Path

from solver import solve
from tests.demo.test_demo import demo, read_until, run, type_line


async def test_the_daily_and_forget_from_the_terminal(tmp_path: Path):
    async with demo(tmp_path, "--user", "Ann") as process:
        await type_line(process, "/daily")
        await read_until(process, r"\[✏️ Answer privately\]")
        await type_line(process, "/press answer privately")
        shown = await read_until(process, r"Use every number once")
        assert "(Ann speaks in a private chat with @" in shown and "Ann: /start daily" in shown
        found = re.search(r"Daily puzzle, [0-9-]+: (\d+) (\d+) (\d+) (\d+) → 24", shown)
        assert found is not None, shown
        answer = solve([int(n) for n in found.groups()])[0]
        await type_line(process, f"/daily {answer}")
        solved = await read_until(process, r"Streak: 1")
        assert "✅ Solved: " in solved
        await type_line(process, "/forget")
        await read_until(process, r"\[✅ Yes, delete\] \[✖️ Cancel\]")
        await type_line(process, "/press yes")
        done = await read_until(process, r"Done: I no longer keep")
        assert "Ann presses [✅ Yes, delete]" in done
        await type_line(process, "/group Twenty-Four demo")
        back = await read_until(process, r"speaks in Twenty-Four demo now")
        assert "Ann speaks in Twenty-Four demo now" in back
        await type_line(process, "/quit")


def test_an_inline_query_lists_its_results_and_the_private_chat_follows_the_speaker(
        tmp_path: Path):
    """The inline results are in the asker's Telegram language (its language_code: no store
    is read for a query), as any chat's would be; /private in Persian writes Persian digits."""
    done = run(tmp_path, "@bot 3 8 3 8\n/private\n/lang fa\n/solve 3 8 3 8\n/user Bob\n",
               "--demo")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "(inline results for \"3 8 3 8\", 1:\n  1. 8÷(3−8÷3) = 24" in out
    assert "posts: 3 8 3 8 → 24: 8÷(3−8÷3)" in out
    assert "\n    ۸÷(۳−۸÷۳) = ۲۴\n" in out.split("/lang fa", 1)[1]
    assert "(Bob speaks in a private chat with @" in out  # the private chat follows the speaker
    assert "Traceback" not in done.stderr
