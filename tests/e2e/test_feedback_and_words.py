"""Precise feedback, Yahtzee guesses and the words, end to end: the real bot (`python -m bot`)
against the emulator over HTTP."""

from __future__ import annotations

import asyncio

from tests.e2e.test_bot_process import hand_of
from tests.fake_telegram import FakeTelegram

GROUP = -2201
ANN = {"id": 61, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 62, "is_bot": False, "first_name": "Ben", "language_code": "en"}


async def test_feedback_names_the_mistake_and_hints_go_step_by_step(telegram: FakeTelegram,
                                                                     make_bot):
    await make_bot(round_seconds=90).start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    hand = hand_of((await telegram.reply(GROUP)).text)
    # One number more often than the hand holds it, and nothing else: overused and left out
    # whatever the deal (a hand of four equal numbers has nothing else to leave out).
    first = min(hand, key=hand.count)
    await telegram.say(GROUP, BEN, "/a " + "*".join([str(first)] * (hand.count(first) + 1)))
    said = (await telegram.reply(GROUP)).text
    assert f"{first} is used" in said and "the hand has" in said
    assert ("leaves out" in said) == (len(set(hand)) > 1)
    await telegram.say(GROUP, ANN, "/hint")
    assert "Start with" in (await telegram.reply(GROUP)).text
    await telegram.say(GROUP, ANN, "/hint")
    assert "Next:" in (await telegram.reply(GROUP)).text
    await telegram.say(GROUP, ANN, "/hint")
    assert "No more hints" in (await telegram.reply(GROUP)).text
    await telegram.say(GROUP, ANN, "/reveal")
    assert (await telegram.reply(GROUP)).text.startswith("⏹ Round over — make 24.")
    await telegram.say(GROUP, ANN, "/countdown 5")
    said = (await telegram.reply(GROUP)).text
    assert said.startswith("❌ At most 4 large numbers, not 5.") and "Usage: /countdown" in said
    await telegram.say(GROUP, ANN, "/help")  # the configured round length, in words
    assert "90 seconds a round" in (await telegram.reply(GROUP)).text


async def test_yahtzee_gives_three_guesses_with_higher_or_lower(telegram: FakeTelegram,
                                                                make_bot):
    await make_bot().start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/yahtzee")
    deal = await telegram.reply(GROUP)
    assert "3 guesses each" in deal.text and "3K" in deal.text
    assert deal.text.endswith("by replying to this message, or just type the number.")
    for guess, left in (("1", 2), ("2", 1), ("/a 3", 0)):
        await telegram.say(GROUP, BEN, guess)
        said = (await telegram.reply(GROUP)).text
        assert said.startswith("📈 Higher") and f"Guesses left: {left}." in said
    await asyncio.sleep(1.1)  # past the reply throttle (a burst of 3, then one a second)
    await telegram.say(GROUP, BEN, "4")
    assert "you have had your 3 guesses" in (await telegram.reply(GROUP)).text


async def test_chinese_by_tag_and_a_private_greeting(telegram: FakeTelegram, make_bot):
    await make_bot().start()
    telegram.chat(GROUP)
    telegram.promote(GROUP, ANN["id"], "creator")  # in a group, the language is an admin's call
    await telegram.say(GROUP, ANN, "/lang zh-CN")
    assert "中文" in (await telegram.reply(GROUP)).text
    await telegram.say(GROUP, ANN, "/countdown")
    assert "数字挑战" in (await telegram.reply(GROUP)).text
    telegram.chat(BEN["id"], "private", None)
    await telegram.say(BEN["id"], BEN, "/start")
    greeting = (await telegram.reply(BEN["id"])).text
    assert greeting.startswith("👋 Hi Ben!") and "/help" in greeting


async def test_yahtzee_deal_says_how_to_guess_as_privacy_mode_allows(telegram: FakeTelegram,
                                                                     make_bot):
    telegram.privacy_mode = True  # the bot sees commands and replies only
    await make_bot().start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/yahtzee")
    deal = await telegram.reply(GROUP)
    assert deal.text.endswith("Guess with /a total or by replying to this message.")
    assert "just type" not in deal.text
