"""Handler tests: Update objects fed to the real Application; replies land on the fake server."""

from __future__ import annotations

import asyncio
import re

from solver import solve
from tests.bot.conftest import Harness

GROUP = -1001
ALICE = {"id": 11, "is_bot": False, "first_name": "Alice <3"}
BOB = {"id": 12, "is_bot": False, "first_name": "Bob"}
ZHANG = {"id": 13, "is_bot": False, "first_name": "张", "language_code": "zh-hans"}


async def deal(h: Harness, chat: int = GROUP):
    await h.send(chat, ALICE, "/play")
    sent = await h.telegram.reply(chat)
    current = h.services.rounds.open_round(chat)
    assert current is not None
    return sent, current


async def test_help(harness: Harness):
    await harness.send(GROUP, ALICE, "/help")
    commands, rules = await harness.telegram.replies(GROUP, 2)  # each whole, none cut short
    assert "/play" in commands.text and "/solve" in commands.text and "/practice" in commands.text
    assert "Fair play" in rules.text
    assert f"@{harness.app.bot.username} 1 2 8 45" in rules.text  # inline mode, by the bot's name
    assert not commands.text.endswith("…") and not rules.text.endswith("…")


async def test_full_round_wrong_then_right_then_scores(harness: Harness):
    sent, current = await deal(harness)
    shown = [int(n) for n in re.findall(r"\d+", sent.text.splitlines()[0])]
    assert sorted(shown) == sorted(current.hand)  # the four numbers come first
    assert "24" in sent.text and "60 seconds" in sent.text

    a, b, c, d = current.hand
    await harness.send(GROUP, BOB, f"/a {a}+{b}+{c}+{d}+0")  # wrong: in the deal's status
    status = harness.telegram.edits[-1]
    assert status.message_id == sent.message_id and "👎 Bob: " in status.text
    assert "0" in status.text.splitlines()[-1] and "uses 0, not dealt" in status.text
    await harness.send(GROUP, BOB, f"/answer {a}+{b}")  # within a second: written by its alarm
    assert harness.telegram.reactions == []
    assert len([s for s in harness.telegram.sent if s.chat_id == GROUP]) == 1  # the deal
    await harness.telegram.wait_for(lambda: "skips" in harness.telegram.edits[-1].text, 5.0)
    assert f"skips {c} and {d}" in harness.telegram.edits[-1].text or \
        "skips" in harness.telegram.edits[-1].text

    solution = solve(current.hand)[0]
    await harness.send(GROUP, ALICE, f"/a {solution}")
    won = await harness.telegram.reply(GROUP)
    assert "Alice &lt;3" in won.html and f"+{current.points} points" in won.text

    await harness.send(GROUP, ALICE, "/top")
    top = await harness.telegram.reply(GROUP)
    assert "Alice <3" in top.text and f"{current.points} points" in top.text
    await harness.send(GROUP, ALICE, "/stats")
    stats = await harness.telegram.reply(GROUP)
    assert "1 win in 1 round" in stats.text
    await harness.send(GROUP, BOB, "/stats")
    stats = await harness.telegram.reply(GROUP)
    assert "0 wins in 1 round" in stats.text and "Streak: 0" in stats.text


async def test_play_twice_repeats_the_hand(harness: Harness):
    _, current = await deal(harness)
    await harness.send(GROUP, BOB, "/play")
    again = await harness.telegram.reply(GROUP)
    assert "A round of 24 is on" in again.text
    assert sorted(int(n) for n in re.findall(r"<code>(\d+)</code>", again.html)) == \
        sorted(current.hand)


async def test_reply_to_the_deal_and_plain_messages(harness: Harness):
    sent, current = await deal(harness)
    await harness.send(GROUP, BOB, "good luck everyone")  # chatter: ignored
    await harness.send(GROUP, BOB, "0+0")  # not this hand's numbers (never dealt): ignored
    solution = solve(current.hand)[0]
    await harness.send(GROUP, BOB, solution, reply_to=sent.message_id)
    won = await harness.telegram.reply(GROUP)
    assert "Bob" in won.text and "wins" in won.text
    assert len([s for s in harness.telegram.sent if s.chat_id == GROUP]) == 2


async def test_plain_expression_counts_as_an_answer(harness: Harness):
    _, current = await deal(harness)
    await harness.send(GROUP, BOB, solve(current.hand)[0] + " = 24")
    assert "wins" in (await harness.telegram.reply(GROUP)).text


async def test_unreadable_and_division_by_zero(harness: Harness):
    _, current = await deal(harness)
    await harness.send(GROUP, BOB, "/a 2(3+4)")
    refused = (await harness.telegram.reply(GROUP)).text
    assert "no operation between them" in refused and "For example: /a " in refused
    a, b, c, d = current.hand
    await harness.send(GROUP, BOB, f"/a {a}/({b}-{b})*{c}*{d}")
    status = harness.telegram.edits[-1].text.splitlines()[-1]
    assert f"uses {b} " in status and "zero" not in status  # the numbers come first


async def test_hint_costs_points_and_reveal_ends(harness: Harness):
    sent, current = await deal(harness)  # Alice deals: she may take a hint and end it early
    await harness.send(GROUP, ALICE, "/hint")
    hint = harness.telegram.edits[-1]  # the deal, with the hint under it
    assert hint.message_id == sent.message_id and "💡 Hints: " in hint.text
    assert f"(now worth {(current.points + 1) // 2} points)" in hint.text
    await harness.send(GROUP, ALICE, "/reveal")
    reveal = await harness.telegram.reply(GROUP)
    count = len(solve(current.hand))
    assert (f"{count} distinct solution" in reveal.text)
    assert harness.services.rounds.open_round(GROUP) is None
    await harness.send(GROUP, BOB, "/giveup")
    assert "No round" in (await harness.telegram.reply(GROUP)).text


async def test_two_right_answers_at_once_make_one_winner(harness: Harness):
    _, current = await deal(harness)
    solution = solve(current.hand)[0]
    await asyncio.gather(harness.send(GROUP, ALICE, f"/a {solution}"),
                         harness.send(GROUP, BOB, f"/a {solution}"))
    replies = await harness.telegram.replies(GROUP, 2)
    texts = sorted(r.text for r in replies)
    assert sum("wins" in t for t in texts) == 1
    assert sum("was first" in t for t in texts) == 1


async def test_same_user_is_throttled(harness: Harness):
    await deal(harness)
    # six answers in the same instant, however slow
    harness.services.rounds.throttle.clock = lambda: 100.0
    for _ in range(6):
        await harness.send(GROUP, BOB, "/a 2(3+4)")  # unreadable: said in words, throttled
    sent = [s for s in harness.telegram.sent if s.chat_id == GROUP]
    assert len(sent) == 5 and "slow down" in sent[-1].text  # deal, three answers, one note
    for _ in range(6):
        await harness.send(GROUP, BOB, "/a 1+2+3")  # wrong: the status, one edit a second
    assert len([s for s in harness.telegram.sent if s.chat_id == GROUP]) == 5
    assert len(harness.telegram.edits) == 1 and harness.telegram.reactions == []


async def test_solve_good_and_bad_input(harness: Harness):
    chat = 5
    await harness.send(chat, BOB, "/solve 3 8 3 8", kind="private")
    solved = await harness.telegram.reply(chat)  # as mathematics: a rich message
    assert solved.formulas == [r"\frac{8}{3 - \frac{8}{3}} = 24"]
    await harness.send(chat, BOB, "/solve 1 2 3 4 5 = 100", kind="private")
    assert "2 distinct solutions" in (await harness.telegram.reply(chat)).text
    await harness.send(chat, BOB, "/solve 1 3 7 10 25 50 = 831 --closest", kind="private")
    assert "the closest is 830" in (await harness.telegram.reply(chat)).text
    await harness.send(chat, BOB, "/solve 1 1 1 1", kind="private")
    assert "No solution" in (await harness.telegram.reply(chat)).text
    for bad in ("/solve", "/solve a b c", "/solve 1 2 3 4 5 6 7", "/solve 1 2 3 9999999",
                "/solve 1 2 = x"):
        await harness.send(chat, BOB, bad, kind="private")
        assert "Usage: /solve" in (await harness.telegram.reply(chat)).text


async def test_solve_says_what_every_solution_needs_in_one_line(harness: Harness):
    """The hand's themes (solver.themes, docs/themes.md) under its solutions, as the solver
    names them; none for a hand that needs nothing in particular, nor where none are worked
    out (six numbers); in the asker's language; on every page."""
    from solver.themes import themes

    chat = 9
    for hand, said in (("3 3 8 8", "a fraction on the way · a division last · one solution only"),
                       ("1 2 7 7", "a step past 24"), ("5 5 8 13", "a product last (3×8)")):
        await harness.send(chat, BOB, f"/solve {hand}", kind="private")
        solved = await harness.telegram.reply(chat)
        assert f"🧩 What every solution needs: {said}" in solved.text, solved.text
        assert said.startswith("a fraction") == ("fraction" in themes(
            [int(n) for n in hand.split()]))
    for plain in ("1 2 3 4", "1 2 3 4 5 6"):
        await harness.send(chat, BOB, f"/solve {plain}", kind="private")
        assert "🧩" not in (await harness.telegram.reply(chat)).text
    await harness.send(chat, BOB, "/lang zh", kind="private")
    await harness.telegram.reply(chat)
    await harness.send(chat, BOB, "/solve 3 3 8 8", kind="private")
    assert "🧩 每个解法都需要：中途出现分数" in (await harness.telegram.reply(chat)).text


async def test_solve_lists_ten_then_and_more(harness: Harness):
    await harness.send(7, BOB, "/solve 1 2 3 4 5 6", kind="private")
    sent = await harness.telegram.reply(7)
    assert "…and" in sent.text and sent.text.count("= 24") == 10


async def test_chat_migration_keeps_scores(harness: Harness):
    _, current = await deal(harness)
    await harness.send(GROUP, ALICE, f"/a {solve(current.hand)[0]}")
    await harness.telegram.reply(GROUP)
    await harness.send(GROUP, ALICE, "/play")
    await harness.telegram.reply(GROUP)
    new = -100999
    message = await harness.telegram.say(GROUP, ALICE, "")
    message.pop("text")
    message["migrate_to_chat_id"] = new
    from telegram import Update

    harness.telegram.chat(new, "supergroup")  # Telegram made it before saying so
    await harness.app.process_update(Update.de_json({"update_id": 999, "message": message},
                                                    harness.app.bot))
    again = await harness.telegram.reply(new)  # the round's deal, shown where hints reach it
    assert again.text.splitlines()[0] == " ".join(map(str, harness.services.rounds.open_round(
        new).hand))
    await harness.send(new, ALICE, "/top", kind="supergroup")
    assert "Alice" in (await harness.telegram.reply(new)).text
    rounds = harness.services.rounds
    assert rounds.open_round(new) is not None and rounds.open_round(GROUP) is None
    assert harness.services.table.scheduler.pending("round", new)
    assert not harness.services.table.scheduler.pending("round", GROUP)


async def test_countdown_round_and_solve(harness: Harness):
    await harness.send(GROUP, ALICE, "/countdown 4")
    sent = await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None and current.game == "countdown"
    shown = [int(n) for n in re.findall(r"\d+", sent.text.splitlines()[0])]
    assert sorted(shown) == sorted(current.hand) and sum(n in (25, 50, 75, 100) for n in shown) == 4
    assert str(current.target) in sent.text and "60 seconds" in sent.text
    await harness.send(GROUP, BOB, f"/a {current.hand[0]}+{current.hand[1]}")  # far: status
    value = current.hand[0] + current.hand[1]
    assert f"📝 Bob: {current.hand[0]}+{current.hand[1]} = {value}, " \
        f"{abs(current.target - value)} away" in harness.telegram.edits[-1].text
    harness.telegram.promote(GROUP, ALICE["id"])  # Bob has answered: only an admin may end it
    await harness.send(GROUP, ALICE, "/reveal")
    reveal = await harness.telegram.reply(GROUP)
    assert "Ended early" in reveal.text and str(current.target) in reveal.text
    await harness.send(GROUP, BOB, "/countdown 1 3 7 10 25 50 = 765")
    assert "exactly" in (await harness.telegram.reply(GROUP)).text
    for bad in ("/countdown 9", "/countdown 1 2 x", "/countdown 1 2 = 0"):
        await harness.send(GROUP, BOB, bad)
        assert "Usage: /countdown" in (await harness.telegram.reply(GROUP)).text


async def test_yahtzee_round_and_solve(harness: Harness):
    from solver.yahtzee import best_assignment

    await harness.send(GROUP, ALICE, "/yahtzee")
    sent = await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None and current.game == "yahtzee" and "\n13 " in sent.text
    total = best_assignment(current.hand).total
    await harness.send(GROUP, BOB, str(total), reply_to=sent.message_id)
    won = await harness.telegram.reply(GROUP)
    assert "Bob" in won.text and f"The best total is {total}" in won.text
    dice = " ".join(["12345"] * 5 + ["66666"] * 3 + ["22233"] * 5)
    await harness.send(GROUP, BOB, f"/yahtzee {dice}")
    table = await harness.telegram.reply(GROUP)
    assert "total" in table.text and "<pre>" in table.html
    await harness.send(GROUP, BOB, "/yahtzee 1 2 3")
    assert "Usage: /yahtzee" in (await harness.telegram.reply(GROUP)).text


async def test_play_options_and_usage(harness: Harness):
    await harness.send(GROUP, ALICE, "/play hard 5 = 36")
    sent = await harness.telegram.reply(GROUP)
    current = harness.services.rounds.open_round(GROUP)
    assert current is not None and len(current.hand) == 5 and current.target == 36
    assert "Make 36" in sent.text
    await harness.send(-7, ALICE, "/play 9")
    assert "Usage: /play" in (await harness.telegram.reply(-7)).text


async def test_language_per_chat(harness: Harness):
    await harness.send(GROUP, ZHANG, "/help")  # no choice yet: the speaker's language
    assert "二十四点" in (await harness.telegram.replies(GROUP, 2))[0].text
    await harness.send(GROUP, ALICE, "/help")
    assert "make 24" in (await harness.telegram.replies(GROUP, 2))[0].text
    harness.telegram.promote(GROUP, ALICE["id"])  # a group's admins choose its language
    await harness.send(GROUP, ALICE, "/lang zh")
    assert "中文" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, ALICE, "/play")
    assert "算出" in (await harness.telegram.reply(GROUP)).text
    await harness.send(GROUP, ALICE, "/lang xx")
    assert "/lang en" in (await harness.telegram.reply(GROUP)).text


async def test_command_menus_in_both_languages(harness: Harness):
    menus = harness.telegram.menus
    assert {c["command"] for c in menus[""]} >= {"play", "solve", "countdown", "yahtzee", "lang"}
    assert any("24" in c["description"] and "算" in c["description"] for c in menus["zh"])


async def test_inline_query_offers_the_solutions(harness: Harness):
    answers = await harness.inline(ALICE, "3 8 3 8")
    [result] = answers.results
    assert result["title"] == "8÷(3−8÷3) = 24"
    assert "8÷(3−8÷3)" in result["input_message_content"]["message_text"]
    answers = await harness.inline(ALICE, "1 2 3 4")
    assert len(answers.results) == 3
    assert int(answers.params["cache_time"]) == 0  # a round may deal it: never kept
    answers = await harness.inline(ALICE, "45 1 2 8")
    assert int(answers.params["cache_time"]) > 0  # no game deals a 45
    answers = await harness.inline(ALICE, "")
    assert [r["id"] for r in answers.results] == ["usage"]
    answers = await harness.inline(ALICE, "hello")
    assert [r["id"] for r in answers.results] == ["problem"]
    assert answers.results[0]["title"] == "I don't understand hello."
    answers = await harness.inline(ZHANG, "1 1 1 1")
    assert answers.results[0]["title"] == "无解"


async def test_no_traceback_reaches_the_chat(harness: Harness):
    async def broken(*args, **kwargs):
        raise RuntimeError("boom")

    harness.services.community.standings.stats = broken
    await harness.send(GROUP, ALICE, "/stats")
    sent = await harness.telegram.reply(GROUP)
    assert "something went wrong" in sent.text and "boom" not in sent.text
