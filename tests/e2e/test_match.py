"""A short match with the real bot (`python -m bot`) over HTTP against the Bot API emulator, and
a match that survives kill -9 between rounds."""

from __future__ import annotations

from solver import solve
from tests.e2e.test_bot_process import ANN, BEN, GROUP, hand_of
from tests.fake_telegram import FakeTelegram


async def test_a_short_match(telegram: FakeTelegram, make_bot):
    bot = make_bot(round_seconds=4)  # rounds of 4 s: the notice at 2 s left, 1 s between rounds
    await bot.start()
    assert "match" in {c["command"] for c in telegram.commands}
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/match 2")
    deal = await telegram.reply(GROUP)
    assert "Match: round 1 of 2" in deal.text
    await telegram.say(GROUP, BEN, solve(hand_of(deal.text))[0], reply_to=deal.message_id)
    won, scores = [s.text for s in await telegram.replies(GROUP, 2)]
    assert "Ben & Co wins" in won
    assert "Scores after round 1 of 2" in scores and "1. Ben & Co" in scores

    second = await telegram.reply(GROUP, timeout=30)
    assert "Match: round 2 of 2" in second.text
    rest = [s.text for s in await telegram.replies(GROUP, 3, timeout=30)]
    assert "2 s left" in rest[0] and "Time is up" in rest[1]
    assert "Match over: 2 of 2 rounds played" in rest[2] and "🥇 Ben & Co" in rest[2]


async def test_a_match_survives_kill_between_rounds(telegram: FakeTelegram, make_bot):
    bot = make_bot(round_seconds=60)  # 5 s between rounds
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/match 2")
    deal = await telegram.reply(GROUP)
    await telegram.say(GROUP, ANN, f"/a {solve(hand_of(deal.text))[0]}")
    await telegram.replies(GROUP, 2)  # the win and the scores
    await bot.kill()  # in the pause, before the next deal

    await bot.start()
    resumed = await telegram.reply(GROUP)
    assert "goes on after a restart: round 2 of 2 is next" in resumed.text
    assert "1. Ann" in resumed.text
    second = await telegram.reply(GROUP, timeout=30)
    assert "Match: round 2 of 2" in second.text
    await telegram.say(GROUP, BEN, f"/a {solve(hand_of(second.text))[0]}")
    won, podium = [s.text for s in await telegram.replies(GROUP, 2)]
    assert "Ben & Co wins" in won and "Match over: 2 of 2 rounds played" in podium
    assert "Ann" in podium and "Ben & Co" in podium
    await telegram.say(GROUP, ANN, "/top")  # match rounds are stored and scored like any round
    top = (await telegram.reply(GROUP)).text
    assert "Ann" in top and "Ben & Co" in top
