"""A quiet chat, end to end: the real bot (`python -m bot`) against the emulator over HTTP marks
a wrong typed attempt with a reaction (or says it where reactions are refused), and in privacy
mode reads getMe, explains it in the log and stops inviting typed answers."""

from __future__ import annotations

import asyncio

from bot.demo.emulator import BotApiEmulator
from solver import solve
from tests.e2e.test_bot_process import hand_of

GROUP = -2101
ANN = {"id": 51, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 52, "is_bot": False, "first_name": "Ben"}


def wrong_attempt(hand: tuple[int, ...]) -> str:
    """The whole hand, each number once, not making 24."""
    return "+".join(map(str, hand)) if sum(hand) != 24 else "*".join(map(str, hand))


async def test_a_wrong_typed_attempt_gets_a_reaction(telegram: BotApiEmulator, make_bot):
    await make_bot().start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    assert deal.text.endswith("or just type it.")  # getMe: the bot reads every message
    hand = hand_of(deal.text)
    await telegram.say(GROUP, BEN, "nice hand lol")
    attempt = await telegram.say(GROUP, BEN, wrong_attempt(hand))
    assert await telegram.wait_for(lambda: bool(telegram.reactions), timeout=15)
    [reaction] = telegram.reactions
    assert (reaction.message_id, reaction.emoji) == (attempt["message_id"], "👎")
    asked = await telegram.say(GROUP, BEN, f"/a {wrong_attempt(hand)}")  # /a: marked too
    replied = await telegram.say(GROUP, BEN, wrong_attempt(hand), reply_to=deal.message_id)
    await telegram.say(GROUP, BEN, "this one is tough", reply_to=deal.message_id)  # talk
    assert await telegram.wait_for(lambda: len(telegram.reactions) == 3, timeout=15)
    assert {r.message_id for r in telegram.reactions[1:]} == {asked["message_id"],
                                                              replied["message_id"]}

    telegram.no_reactions.add(GROUP)  # reactions turned off: the verdict is said instead
    await asyncio.sleep(1.1)  # past the reply throttle (a burst of 3, then one a second)
    await telegram.say(GROUP, BEN, wrong_attempt(hand))
    assert "not 24" in (await telegram.reply(GROUP)).text
    await telegram.say(GROUP, ANN, solve(hand)[0])
    assert "Ann wins" in (await telegram.reply(GROUP)).text
    assert len(telegram.reactions) == 3
    assert len(telegram.sent) == 3  # the deal, the verdict said in words, the result


async def test_privacy_mode_from_getme(telegram: BotApiEmulator, make_bot):
    telegram.privacy_mode = True
    bot = make_bot()
    await bot.start()
    assert "/setprivacy" in bot.log.read_text()  # the operator learns how to turn it off
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    assert "just type it" not in deal.text and deal.text.endswith("by replying to this message.")
    answer = solve(hand_of(deal.text))[0]
    typed = await telegram.say(GROUP, BEN, answer)  # Telegram would not deliver it
    assert all(u.get("message", {}).get("message_id") != typed["message_id"]
               for u in telegram.updates_log)
    await telegram.say(GROUP, ANN, answer, reply_to=deal.message_id)  # a reply reaches the bot
    assert "Ann wins" in (await telegram.reply(GROUP)).text
