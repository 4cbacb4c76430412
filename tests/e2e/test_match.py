"""A short match with the real bot (`python -m bot`) over HTTP against the Bot API emulator, and
a match that survives kill -9 between rounds."""

from __future__ import annotations

from demo.emulator import BotApiEmulator
from solver import solve
from tests.e2e.test_bot_process import ANN, BEN, GROUP, hand_of


async def test_a_short_match(telegram: BotApiEmulator, make_bot):
    bot = make_bot(round_seconds=4)  # rounds of 4 s: the notice at 2 s left, 1 s between rounds
    await bot.start()
    assert "match" in {c["command"] for c in telegram.commands}
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/match 2")
    deal = await telegram.reply(GROUP)
    assert "Match: round 1 of 2" in deal.text
    await telegram.say(GROUP, BEN, solve(hand_of(deal.text))[0], reply_to=deal.message_id)
    won = (await telegram.reply(GROUP)).text  # one message: the scores ride on the result
    assert "Ben & Co wins" in won
    assert "Scores after round 1 of 2" in won and "1. Ben & Co" in won

    second = await telegram.reply(GROUP, timeout=30)
    assert "Match: round 2 of 2" in second.text
    last = (await telegram.reply(GROUP, timeout=30)).text
    assert "Time is up" in last
    assert "Match over: 2 of 2 rounds played" in last and "🥇 Ben & Co" in last
    notice = [e.text for e in telegram.edits if e.message_id == second.message_id]
    assert notice and notice[0].endswith("⏳ 2 s left.")  # a line under the deal
    assert len(telegram.sent) == 4  # per round: the deal and the result, nothing more


async def test_a_match_survives_kill_between_rounds(telegram: BotApiEmulator, make_bot):
    bot = make_bot(round_seconds=60)  # 5 s between rounds
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/match 2")
    deal = await telegram.reply(GROUP)
    await telegram.say(GROUP, ANN, f"/a {solve(hand_of(deal.text))[0]}")
    await telegram.reply(GROUP)  # the win, with the scores on it
    assert await bot.all_announced()  # the bot knows it sent it (else a restart sends it again)
    await bot.kill()  # in the pause, before the next deal

    await bot.start()
    resumed = await telegram.reply(GROUP)
    assert "goes on after a restart: round 2 of 2 is next" in resumed.text
    assert "1. Ann" in resumed.text
    second = await telegram.reply(GROUP, timeout=30)
    assert "Match: round 2 of 2" in second.text
    await telegram.say(GROUP, BEN, f"/a {solve(hand_of(second.text))[0]}")
    won = podium = (await telegram.reply(GROUP)).text
    assert "Ben & Co wins" in won and "Match over: 2 of 2 rounds played" in podium
    assert "Ann" in podium and "Ben & Co" in podium
    await telegram.say(GROUP, ANN, "/top")  # match rounds are stored and scored like any round
    top = (await telegram.reply(GROUP)).text
    assert "Ann" in top and "Ben & Co" in top
