"""The real bot (`python -m bot`) over HTTP on loopback against the fake Bot API server."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import time
from pathlib import Path

from demo.emulator import BotApiEmulator
from solver import solve
from tests.waiting import until

GROUP = -2001
ANN = {"id": 21, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 22, "is_bot": False, "first_name": "Ben & Co"}


def open_deadline(database: Path) -> float:
    """When the open round ends, by the wall clock the bot deals by."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        [(deadline,)] = connection.execute("SELECT deadline FROM rounds WHERE status = 'open'")
    return deadline


def hand_of(deal_text: str) -> tuple[int, ...]:
    first_line = deal_text.splitlines()[0]
    return tuple(int(n) for n in re.findall(r"\d+", first_line))


async def test_full_round_in_a_group(telegram: BotApiEmulator, make_bot):
    bot = make_bot()
    await bot.start()
    assert {c["command"] for c in telegram.commands} >= {"play", "solve", "top", "stats"}
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    hand = hand_of(deal.text)
    assert len(hand) == 4 and "24" in deal.text

    wrong_answer = "+".join(map(str, hand)) if sum(hand) != 24 else "*".join(map(str, hand))
    await telegram.say(GROUP, BEN, f"/a {wrong_answer}")
    assert await telegram.wait_for(lambda: any(  # in the deal's status, not a message
        e.message_id == deal.message_id and "👎 Ben & Co: " in e.text for e in telegram.edits), 15)

    await telegram.say(GROUP, ANN, solve(hand)[0], reply_to=deal.message_id)
    won = await telegram.reply(GROUP)
    assert "Ann wins" in won.text

    await telegram.say(GROUP, BEN, "/top")
    assert "Ann" in (await telegram.reply(GROUP)).text
    await telegram.say(GROUP, ANN, "/stats")
    assert "1 win in 1 round" in (await telegram.reply(GROUP)).text


async def test_two_simultaneous_right_answers(telegram: BotApiEmulator, make_bot):
    bot = make_bot()
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    hand = hand_of((await telegram.reply(GROUP)).text)
    answer = solve(hand)[0]
    await asyncio.gather(telegram.say(GROUP, ANN, f"/a {answer}"),
                         telegram.say(GROUP, BEN, f"/a {answer}"))
    texts = [s.text for s in await telegram.replies(GROUP, 2)]
    assert sum("wins" in t for t in texts) == 1
    assert sum("was first" in t for t in texts) == 1


async def test_timer_expiry_reveals(telegram: BotApiEmulator, make_bot):
    bot = make_bot(round_seconds=2)
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    hand = hand_of((await telegram.reply(GROUP)).text)
    reveal = await telegram.reply(GROUP, timeout=20)
    assert "Time is up" in reveal.text
    count = len(solve(hand))
    assert (f"{count} distinct solution" in reveal.text)


async def test_kill_mid_round_and_restart(telegram: BotApiEmulator, make_bot):
    bot = make_bot(round_seconds=60)
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    hand = hand_of((await telegram.reply(GROUP)).text)
    await telegram.say(GROUP, BEN, "/a 1+2")
    assert await telegram.wait_for(lambda: any("👎 Ben" in e.text for e in telegram.edits), 15)
    await bot.kill()

    await bot.start()  # same database: the round is resumed, not lost
    await telegram.say(GROUP, BEN, "/play")
    again = await telegram.reply(GROUP)
    shown = [int(n) for n in re.findall(r"<code>(\d+)</code>", again.html)]
    assert "A round of 24 is on" in again.text and sorted(shown) == sorted(hand)
    await telegram.say(GROUP, BEN, f"/a {solve(hand)[0]}")
    assert "wins" in (await telegram.reply(GROUP)).text
    await telegram.say(GROUP, BEN, "/stats")
    stats = (await telegram.reply(GROUP)).text
    assert "1 win in 1 round" in stats  # counted once


async def test_round_that_ran_out_while_down_is_revealed_at_start(telegram: BotApiEmulator,
                                                                  make_bot):
    bot = make_bot(round_seconds=1)
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    await telegram.reply(GROUP)
    await bot.kill()
    deadline = open_deadline(bot.database)
    await until(lambda: time.time() > deadline, "the round's end, while the bot is down")
    await bot.start()
    assert "Time is up" in (await telegram.reply(GROUP)).text


async def test_solve_good_and_bad(telegram: BotApiEmulator, make_bot):
    bot = make_bot()
    await bot.start()
    chat = 31
    telegram.chat(chat, "private")
    await telegram.say(chat, ANN, "/solve 3 8 3 8", kind="private")
    assert (await telegram.reply(chat)).formulas == [r"\frac{8}{3 - \frac{8}{3}} = 24"]
    await telegram.say(chat, ANN, "/solve 1 2 three", kind="private")
    assert "Usage: /solve" in (await telegram.reply(chat)).text
    errors = [c for c in telegram.calls if c[0] == "sendMessage"]
    assert errors  # every message above passed the server's HTML and length checks


async def test_sigterm_stops_cleanly_and_the_round_resumes(telegram: BotApiEmulator, make_bot):
    bot = make_bot(round_seconds=60)
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/countdown")
    deal = await telegram.reply(GROUP)
    await bot.stop()  # SIGTERM, as docker stop and systemctl stop send it
    assert bot.process is not None and bot.process.returncode == 0

    await bot.start()
    await telegram.say(GROUP, BEN, "/play")
    again = await telegram.reply(GROUP)
    assert "A round of Countdown is on" in again.text
    assert deal.text.splitlines()[0] in again.text
