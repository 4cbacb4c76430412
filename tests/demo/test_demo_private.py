"""The demo is where the player goes (issue 73): a button that opens the private chat takes the
speaker there (`/private` too), so the daily's answer and `/forget` with its confirmation work
from the terminal; `@bot QUERY` runs an inline query and lists its results."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from bot.play.daily.puzzle import DailyHands
from bot.text.i18n import texts_for
from demo.buttons import bare
from demo.terminal import DEMO_TOKEN
from solver import solve
from tests.demo.test_demo import demo, read_until, run, type_line


async def test_the_daily_and_forget_from_the_terminal(tmp_path: Path):
    async with demo(tmp_path, "--user", "Ann") as process:
        await type_line(process, "/daily")
        await read_until(process, r"\[✏️ Answer privately\]")
        await type_line(process, "/press answer privately")
        shown = await read_until(process, r"Use every number once")
        assert "(Ann speaks in a private chat with @" in shown and "Ann: /start daily" in shown
        found = re.search(r"Daily puzzle · 24, [0-9-]+: (\d+) (\d+) (\d+) (\d+) → 24", shown)
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


@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_whole_private_round_trip_piped_in_either_language(tmp_path: Path, language: str):
    """Issue 73's demo, piped (every line written before the demo starts, as a script or a
    person pasting would): /private, the daily and its answer, an inline query's results,
    /solve 3 8 3 8 as readable mathematics in the language's digits, then /forget and its
    confirmation, in English and in Persian. The day's hand is computed here as the bot draws
    it (its secret is the demo's token), so the script can carry its answer."""
    hand = DailyHands(DEMO_TOKEN, time.time).now()
    answer = next(iter(solve(list(hand))))
    texts = texts_for(language)
    yes = bare(texts("privacy_confirm")).split()[0]  # the first word of "Yes, delete"
    script = ["/private", *([f"/lang {language}"] if language != "en" else []), "/daily",
              f"/daily {answer}", "@bot 3 8 3 8", "/solve 3 8 3 8", "/forget", f"/press {yes}"]
    done = run(tmp_path, "\n".join(script) + "\n", "--demo", "--user", "Ann")
    assert done.returncode == 0, done.stderr
    out, digits = re.sub("[\u2066-\u2069]", "", done.stdout), texts.number  # bidi isolates off
    assert "(Ann speaks in a private chat with @" in out
    assert f" {' '.join(digits(n) for n in hand)} " in out  # the day's hand, in its digits
    assert texts("daily_share_button") in out  # solved: its share button under the result
    assert "(inline results for \"3 8 3 8\", 1:\n  1. 8÷(3−8÷3) = 24" in out
    assert f"\n    {digits(8)}÷({digits(3)}−{digits(8)}÷{digits(3)}) = {digits(24)}\n" in out
    assert "\\" not in out and "\\frac" not in out
    assert f"Ann presses [{texts('privacy_confirm')}]" in out
    erased = out.split(f"Ann presses [{texts('privacy_confirm')}]", 1)[1]
    assert texts("forget_done").split("{")[0].strip()[:12] in erased
    assert "Traceback" not in done.stderr
