"""The demo's routes beyond typing: `/reply TEXT` answers by replying to the bot's latest deal,
`/press LABEL` presses a button of the bot's messages; a subprocess fed on standard input."""

from __future__ import annotations

import re
from pathlib import Path

from solver import solve
from tests.demo.test_demo import DEAL, demo, finish, read_until, run, type_line


def test_reply_and_press_before_there_is_anything_to_answer_or_press(tmp_path: Path):
    done = run(tmp_path, "/reply 1+2\n/press Hint\n/solve 1 2 3 4 5 = 15\n/press ▶\n/press ◀\n",
               "--demo")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    count = len(solve([1, 2, 3, 4, 5], 15))  # more than two pages of ten
    assert count > 20
    assert "(no deal to reply to yet: /play first)" in out
    assert "(no button 'Hint' to press; no buttons now)" in out
    assert f"{count} distinct solutions, 10 shown" in out and "\n  [▶]\n" in out
    assert f"Ann presses [▶]\nTwenty-Four (edited, only Ann sees this): 1 2 3 4 5 → 15: " \
           f"{count} distinct solutions, 11–20 shown" in out
    assert "\n  [◀] [▶]\n" in out
    assert out.count(f"{count} distinct solutions, 10 shown") == 2  # ◀ went back to the first page
    assert "Traceback" not in done.stderr


async def test_every_route_from_the_terminal(tmp_path: Path):
    async with demo(tmp_path, "--user", "Ann") as process:
        await type_line(process, "/play")
        shown = await read_until(process, r"^  \[Hint\] \[Reveal\]$")
        match = DEAL.search(shown)
        assert match is not None
        hand = [int(n) for n in match.groups()]

        await type_line(process, "/press hint")  # any case
        pressed = await read_until(process, r"^Twenty-Four \(notice to Ann\): 💡 Hint 1: ")
        assert "Ann presses [Hint]" in pressed  # the starter may: the hint goes into the deal
        assert "💡 Hints: " in pressed  # and is her notice

        await type_line(process, "/user Bob")
        await type_line(process, "/press [Reveal]")
        refused = await read_until(process, "^Twenty-Four")
        assert refused.splitlines()[-1].startswith("Twenty-Four (notice to Bob): ")
        assert "Ann" in refused.splitlines()[-1]

        wrong = "+".join(map(str, hand)) if sum(hand) != 24 else "*".join(map(str, hand))
        await type_line(process, f"/reply {wrong}")
        answered = await read_until(process, r"^  👎 Bob: ")  # the deal's status, edited
        assert f"Bob, replying to the deal: {wrong}" in answered  # not a message
        assert "Twenty-Four (edited): " in answered

        await type_line(process, "/user Ann")
        await type_line(process, f"/reply {solve(hand)[0]}")
        won = await read_until(process, r"^  \[Play again\] \[Same level\]$")
        assert "Ann wins" in won

        # the coach's line (issue 74): Bob answered and missed, so it is his alone; the winner
        # is told it is not for her
        await type_line(process, "/user Bob")
        await type_line(process, "/press miss")
        coached = await read_until(process, r"^Twenty-Four \(notice to Bob\): 💡 ")
        # under a win, Show all solutions only when there is more than the one just given;
        # Bob missed, so the coach's button is there
        below = "  [Show all solutions] [💡 What did I miss?]\n" if len(solve(hand)) > 1 \
            else "  [💡 What did I miss?]\n"
        assert below in coached and "Bob presses [💡 What did I miss?]" in coached
        await type_line(process, "/user Ann")
        await type_line(process, "/press miss")
        told = await read_until(process, r"^Twenty-Four \(notice to Ann\): ")
        assert "💡" not in told.splitlines()[-1]

        await type_line(process, "/press Same level")
        again = await read_until(process, r"^  \[Hint\] \[Reveal\]$")
        assert "Ann presses [Same level]" in again and DEAL.search(again)
        await type_line(process, "/press nothing")
        missing = await read_until(process, r"^\(no button")
        assert re.search(r"\(no button 'nothing' to press; buttons: \[Hint\] \[Reveal\]", missing)
        await type_line(process, "/quit")
        returncode, _, err = await finish(process)
    assert returncode == 0, err
    assert "Traceback" not in err


def test_a_press_takes_any_unambiguous_part_of_a_label(tmp_path: Path):
    """Issue 73: `/press yes` did not find "✅ Yes, delete". A part of a label, from a word's
    start, presses its one button on the newest message that has it; a part of several is
    named, and nothing pressed."""
    done = run(tmp_path, "/play\n/press rev\n/press LEVEL\n/press zzz\n/settings\n/press s\n",
               "--demo")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Ann presses [Reveal]" in out and "Ann presses [Same level]" in out
    assert "(no button 'zzz' to press; buttons: " in out
    assert re.search(r"\('s' is part of (\[[^]]+\] ){1,}\[[^]]+\]: type more of the one to "
                     r"press\)", out), out[-2000:]
    assert "Traceback" not in done.stderr


def test_a_persian_label_prints_as_written(tmp_path: Path):
    """Issue 73: a Persian label's zero-width joiner (راه‌حل, "solution") printed escaped, as
    `راه\\u200cحل`: a label, and whatever is typed after /press, is quoted as written."""
    done = run(tmp_path, "/lang fa\n/press راه\u200cحل\n", "--demo")
    assert done.returncode == 0, done.stderr
    assert "(no button 'راه\u200cحل' to press; " in done.stdout
    assert "\\u200c" not in done.stdout and "Traceback" not in done.stderr


def test_a_part_is_read_from_a_words_start():
    from demo.buttons import part_of

    assert part_of("yes", "✅ Yes, delete") and part_of("[yes, del]", "✅ Yes, delete")
    assert part_of("solutions", "Show all solutions") and part_of("🧮 tap", "🧮 Tap to solve")
    assert not part_of("es", "✅ Yes, delete") and not part_of("", "Hint")
    assert not part_of("level up", "Same level")
