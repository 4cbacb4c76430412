"""A quiet chat, end to end: the real bot (`python -m bot`) against the emulator over HTTP writes
a wrong attempt into the deal's status (one edit a second at most, never a message), and in
privacy mode reads getMe, explains it in the log and stops inviting typed answers."""

from __future__ import annotations

from demo.emulator import BotApiEmulator
from solver import solve
from tests.e2e.test_bot_process import hand_of

GROUP = -2101
ANN = {"id": 51, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 52, "is_bot": False, "first_name": "Ben"}


def wrong_attempt(hand: tuple[int, ...]) -> str:
    """The whole hand, each number once, not making 24."""
    return "+".join(map(str, hand)) if sum(hand) != 24 else "*".join(map(str, hand))


def statuses(telegram: BotApiEmulator, deal_id: int) -> list[str]:
    """The deal's status lines as each edit left them (its lines after the last "type it.")."""
    return [e.text.rsplit("just type it.", 1)[-1].strip() for e in telegram.edits
            if e.message_id == deal_id]


async def test_a_wrong_attempt_goes_into_the_deals_status(telegram: BotApiEmulator, make_bot):
    await make_bot().start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    assert deal.text.endswith("or just type it.")  # getMe: the bot reads every message
    hand = hand_of(deal.text)
    shown = wrong_attempt(hand).replace("*", "×")
    await telegram.say(GROUP, BEN, "nice hand lol")
    await telegram.say(GROUP, BEN, wrong_attempt(hand))
    assert await telegram.wait_for(lambda: bool(statuses(telegram, deal.message_id)), 15)
    assert statuses(telegram, deal.message_id)[0].startswith(f"👎 Ben: {shown} = ")
    await telegram.say(GROUP, ANN, f"/a {wrong_attempt(hand)}")  # /a: the same, edited in
    assert await telegram.wait_for(
        lambda: any(s.startswith("👎 Ann") for s in statuses(telegram, deal.message_id)), 15)
    await telegram.say(GROUP, BEN, "this one is tough", reply_to=deal.message_id)  # talk
    await telegram.say(GROUP, ANN, solve(hand)[0])
    assert "Ann wins" in (await telegram.reply(GROUP)).text
    assert telegram.reactions == []
    assert len(telegram.sent) == 2  # the deal and the result: the verdicts were edits


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
