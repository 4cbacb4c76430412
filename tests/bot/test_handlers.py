"""Handler tests: Update objects fed to the real Application; replies land on the fake server."""

from __future__ import annotations

import asyncio
import re

from solver import solve
from tests.bot.conftest import Harness

GROUP = -1001
ALICE = {"id": 11, "is_bot": False, "first_name": "Alice <3"}
BOB = {"id": 12, "is_bot": False, "first_name": "Bob"}


async def deal(h: Harness, chat: int = GROUP):
    await h.send(chat, ALICE, "/play")
    sent = await h.telegram.reply(chat)
    current = await h.game.open_round(chat)
    assert current is not None
    return sent, current


async def test_help(harness: Harness):
    await harness.send(GROUP, ALICE, "/start")
    sent = await harness.telegram.reply(GROUP)
    assert "/play" in sent.text and "/solve" in sent.text


async def test_full_round_wrong_then_right_then_scores(harness: Harness):
    sent, current = await deal(harness)
    shown = [int(n) for n in re.findall(r"\d+", sent.text.splitlines()[0])]
    assert sorted(shown) == sorted(current.hand)  # the four numbers come first
    assert "24" in sent.text and "60 seconds" in sent.text

    a, b, c, d = current.hand
    await harness.send(GROUP, BOB, f"/a {a}+{b}+{c}+{d}+0")
    wrong = await harness.telegram.reply(GROUP)
    assert "0" in wrong.text and "doesn't have" in wrong.text

    await asyncio.sleep(0.6)  # past the throttle
    await harness.send(GROUP, BOB, f"/answer {a}+{b}")
    wrong = await harness.telegram.reply(GROUP)
    assert "leaves out" in wrong.text

    solution = solve(current.hand)[0]
    await harness.send(GROUP, ALICE, f"/a {solution}")
    won = await harness.telegram.reply(GROUP)
    assert "Alice &lt;3" in won.html and f"+{current.points} points" in won.text

    await harness.send(GROUP, ALICE, "/top")
    top = await harness.telegram.reply(GROUP)
    assert "Alice <3" in top.text and f"{current.points} points" in top.text
    await harness.send(GROUP, ALICE, "/stats")
    stats = await harness.telegram.reply(GROUP)
    assert "1 wins in 1 rounds" in stats.text
    await harness.send(GROUP, BOB, "/stats")
    stats = await harness.telegram.reply(GROUP)
    assert "0 wins in 1 rounds" in stats.text and "Streak: 0" in stats.text


async def test_play_twice_repeats_the_hand(harness: Harness):
    _, current = await deal(harness)
    await harness.send(GROUP, BOB, "/play")
    again = await harness.telegram.reply(GROUP)
    assert "A round is on" in again.text
    assert sorted(int(n) for n in re.findall(r"<code>(\d+)</code>", again.html)) == \
        sorted(current.hand)


async def test_reply_to_the_deal_and_plain_messages(harness: Harness):
    sent, current = await deal(harness)
    await harness.send(GROUP, BOB, "good luck everyone")  # chatter: ignored
    await harness.send(GROUP, BOB, "1+1")  # not this hand's numbers: ignored
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
    assert "Write every operation" in (await harness.telegram.reply(GROUP)).text
    await asyncio.sleep(0.6)
    a, b, c, d = current.hand
    await harness.send(GROUP, BOB, f"/a {a}/({b}-{b})*{c}*{d}")
    assert "divides by zero" in (await harness.telegram.reply(GROUP)).text


async def test_hint_costs_points_and_reveal_ends(harness: Harness):
    _, current = await deal(harness)
    await harness.send(GROUP, BOB, "/hint")
    hint = await harness.telegram.reply(GROUP)
    assert "Start with" in hint.text and f"Points now {(current.points + 1) // 2}" in hint.text
    await harness.send(GROUP, BOB, "/reveal")
    reveal = await harness.telegram.reply(GROUP)
    count = len(solve(current.hand))
    assert (f"{count} distinct solution" in reveal.text)
    assert await harness.game.open_round(GROUP) is None
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
    for _ in range(3):
        await harness.send(GROUP, BOB, "/a 1+2+3")
    await asyncio.sleep(0.2)
    assert len([s for s in harness.telegram.sent if s.chat_id == GROUP]) == 2  # deal + 1 reply


async def test_solve_good_and_bad_input(harness: Harness):
    chat = 5
    await harness.send(chat, BOB, "/solve 3 8 3 8", kind="private")
    assert "8÷(3−8÷3)" in (await harness.telegram.reply(chat)).text
    await harness.send(chat, BOB, "/solve 1 2 3 4 5 = 100", kind="private")
    assert "2 distinct solutions" in (await harness.telegram.reply(chat)).text
    await harness.send(chat, BOB, "/solve 1 1 1 1", kind="private")
    assert "No solution" in (await harness.telegram.reply(chat)).text
    for bad in ("/solve", "/solve a b c", "/solve 1 2 3 4 5 6 7", "/solve 1 2 3 9999999",
                "/solve 1 2 = x"):
        await harness.send(chat, BOB, bad, kind="private")
        assert "Usage: /solve" in (await harness.telegram.reply(chat)).text


async def test_solve_lists_ten_then_and_more(harness: Harness):
    await harness.send(7, BOB, "/solve 1 2 3 4 5 6", kind="private")
    sent = await harness.telegram.reply(7)
    assert "…and" in sent.text and sent.text.count("= 24") == 10


async def test_chat_migration_keeps_scores(harness: Harness):
    _, current = await deal(harness)
    await harness.send(GROUP, ALICE, f"/a {solve(current.hand)[0]}")
    await harness.telegram.reply(GROUP)
    new = -100999
    message = await harness.telegram.say(GROUP, ALICE, "")
    message.pop("text")
    message["migrate_to_chat_id"] = new
    from telegram import Update

    await harness.app.process_update(Update.de_json({"update_id": 999, "message": message},
                                                    harness.app.bot))
    harness.telegram.chat(new, "supergroup")
    await harness.send(new, ALICE, "/top", kind="supergroup")
    assert "Alice" in (await harness.telegram.reply(new)).text
