"""Precise feedback, Yahtzee guesses and the words, end to end: the real bot (`python -m bot`)
against the emulator over HTTP."""

from __future__ import annotations

import re

from demo.emulator import BotApiEmulator
from tests.e2e.test_bot_process import hand_of

GROUP = -2201
ANN = {"id": 61, "is_bot": False, "first_name": "Ann", "language_code": "en"}
BEN = {"id": 62, "is_bot": False, "first_name": "Ben", "language_code": "en"}


async def test_feedback_names_the_mistake_and_hints_go_step_by_step(telegram: BotApiEmulator,
                                                                     make_bot):
    await make_bot(round_seconds=90).start()
    telegram.chat(GROUP)
    telegram.no_reactions.add(GROUP)  # a refused hint is then said in words
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    hand = hand_of(deal.text)
    first = hand[0]
    others = [n for n in hand if n != first]
    used = [first] * (hand.count(first) + 1) + others[:1]  # one too many, and not the rest
    await telegram.say(GROUP, BEN, "/a " + "*".join(map(str, used)))

    def statuses() -> list[str]:
        return [e.text.splitlines()[-1] for e in telegram.edits
                if e.message_id == deal.message_id and "👎 Ben" in e.text]

    assert await telegram.wait_for(lambda: bool(statuses()), 15)  # in the deal, precisely
    assert f"uses {first} " in statuses()[-1] and len(telegram.sent) == 1
    assert ("skips" in statuses()[-1]) == (len(others) > 1)
    await telegram.say(GROUP, ANN, "/hint")  # it goes into the deal, and is said too
    assert (await telegram.reply(GROUP)).text.startswith("💡 Hint 1: ")
    edits = [e.text for e in telegram.edits if e.message_id == deal.message_id]
    assert len(edits) == 2 and edits[-1].startswith(deal.text) and "💡 Hints: " in edits[-1]
    await telegram.say(GROUP, ANN, "/hint")  # a second would leave the answer one step away
    assert "No more hints" in (await telegram.reply(GROUP)).text
    await telegram.say(GROUP, ANN, "/reveal")  # Ben answered: Ann may no longer end it
    assert "or when a chat admin ends it" in (await telegram.reply(GROUP)).text
    await telegram.say(GROUP, ANN, "/countdown 5")
    said = (await telegram.reply(GROUP)).text
    assert said.startswith("❌ At most 4 large numbers, not 5.") and "Usage: /countdown" in said
    await telegram.say(GROUP, ANN, "/help")  # the configured round length, in words
    assert "90 seconds a round" in (await telegram.reply(GROUP)).text


async def test_yahtzee_guesses_are_sealed(telegram: BotApiEmulator, make_bot):
    await make_bot().start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/yahtzee")
    deal = await telegram.reply(GROUP)
    low, high = (int(n) for n in re.findall(r"Guess a number from (\d+) to (\d+)",
                                             deal.text)[0])
    assert "3 guesses each, sealed" in deal.text and "3K" in deal.text
    assert deal.text.endswith("by replying to this message, or just type the number.")
    guesses = [await telegram.say(GROUP, BEN, text)
               for text in ("3", str(low), str(low + 1), f"/a {high}")]  # "3" is chat
    assert await telegram.wait_for(lambda: len(telegram.reactions) == 3, 15)
    assert {r.message_id for r in telegram.reactions} == {g["message_id"] for g in guesses[1:]}
    assert {r.emoji for r in telegram.reactions} == {"✍"} and len(telegram.sent) == 1
    await telegram.say(GROUP, BEN, str(low + 2))  # guesses are never held by the throttle
    assert "you have had your 3 guesses" in (await telegram.reply(GROUP)).text


async def test_chinese_by_tag_and_a_private_greeting(telegram: BotApiEmulator, make_bot):
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


async def test_yahtzee_deal_says_how_to_guess_as_privacy_mode_allows(telegram: BotApiEmulator,
                                                                     make_bot):
    telegram.privacy_mode = True  # the bot sees commands and replies only
    await make_bot().start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/yahtzee")
    deal = await telegram.reply(GROUP)
    assert deal.text.endswith("Guess with /a total or by replying to this message.")
    assert "just type" not in deal.text
