"""Buttons end to end: the real bot (`python -m bot`) over HTTP on loopback; users press the
buttons the emulator shows on the bot's messages, as a Telegram client would."""

from __future__ import annotations

from bot.text.i18n import Texts
from demo.emulator import BotApiEmulator, CallbackAnswer
from tests.e2e.test_bot_process import hand_of

GROUP = -2101
ANN = {"id": 41, "is_bot": False, "first_name": "Ann"}
BEN = {"id": 42, "is_bot": False, "first_name": "Ben"}
WAIT = 15.0


async def press(telegram: BotApiEmulator, message_id: int, user: dict, label: str,
                chat: int = GROUP) -> CallbackAnswer:
    query_id = await telegram.press_button(chat, message_id, user, label)
    assert await telegram.wait_for(lambda: telegram.callback_answer(query_id) is not None, WAIT)
    answer = telegram.callback_answer(query_id)
    assert answer is not None
    return answer


def labels(telegram: BotApiEmulator, message_id: int, chat: int = GROUP) -> list[str]:
    return [label for label, _ in telegram.buttons(chat, message_id)]


async def test_a_round_played_with_buttons(telegram: BotApiEmulator, make_bot):
    bot = make_bot()
    await bot.start()
    telegram.chat(GROUP)
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    assert len(hand_of(deal.text)) == 4 and labels(telegram, deal.message_id) == ["Hint",
                                                                                  "Reveal"]
    refused = await press(telegram, deal.message_id, BEN, "Hint")
    assert refused.text is not None and "Ann" in refused.text

    hint = await press(telegram, deal.message_id, ANN, "Hint")  # a notice; the deal edited
    assert hint.text is not None and hint.text.startswith("💡 Hint 1: ")
    assert await telegram.wait_for(lambda: any(e.message_id == deal.message_id
                                               for e in telegram.edits), WAIT)
    assert "💡 Hints: " in telegram.edits[-1].text

    [(_, reveal_data)] = [b for b in telegram.buttons(GROUP, deal.message_id) if b[0] == "Reveal"]
    assert (await press(telegram, deal.message_id, ANN, "Reveal")).text is None
    result = await telegram.reply(GROUP)
    assert "Ended early" in result.text
    assert labels(telegram, result.message_id)[:2] == ["Play again", "Same level"]
    assert await telegram.wait_for(lambda: labels(telegram, deal.message_id) == [], WAIT)

    stale = await telegram.press(GROUP, deal.message_id, BEN, reveal_data)  # an old client
    assert await telegram.wait_for(lambda: telegram.callback_answer(stale) is not None, WAIT)
    answer = telegram.callback_answer(stale)
    assert answer is not None and answer.text == Texts("en")("round_over")

    shown_all = labels(telegram, result.message_id)[2:]  # only if the result left some out
    assert (await press(telegram, result.message_id, BEN, "Play again")).text is None
    again = await telegram.reply(GROUP)
    assert len(hand_of(again.text)) == 4 and labels(telegram, again.message_id) == ["Hint",
                                                                                    "Reveal"]
    assert await telegram.wait_for(
        lambda: labels(telegram, result.message_id) == shown_all, WAIT)


async def test_solve_pages_turn(telegram: BotApiEmulator, make_bot):
    bot = make_bot()
    await bot.start()
    chat = 2102
    telegram.chat(chat, "private")
    # no daily hand (of all 451) lies in these numbers, so no date can make /solve refuse them
    await telegram.say(chat, BEN, "/solve 1 1 2 3 6 = 15", kind="private")
    first = await telegram.reply(chat)
    assert "10 shown" in first.text and labels(telegram, first.message_id, chat) == ["▶"]
    assert (await press(telegram, first.message_id, BEN, "▶", chat)).text is None
    assert await telegram.wait_for(lambda: any(e.message_id == first.message_id
                                               for e in telegram.edits), WAIT)
    assert "11–20 shown" in telegram.edits[-1].text
    assert labels(telegram, first.message_id, chat) == ["◀", "▶"]
