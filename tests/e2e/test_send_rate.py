"""The real bot (`python -m bot`, RATE_LIMIT on) released onto a backlog: updates waited at
Telegram while it was down, and it answers them all at once. No sliding second of the requests
Telegram received holds more than SEND_RATE calls naming a chat — all methods counted, read from
the emulator's record of every request with its arrival time — and no private chat more than its
own share; every update is answered."""

from __future__ import annotations

import pytest

from bot.runtime.send_budget import PRIVATE_SHARE
from demo.emulator import BotApiEmulator
from demo.emulator.records import busiest
from tests.e2e.test_bot_process import hand_of

RATE = 5
GROUPS = [-(7100 + n) for n in range(6)]
PRIVATE = [7200 + n for n in range(4)]


@pytest.mark.slow
async def test_a_backlog_is_sent_within_the_rate_every_method_counted(telegram: BotApiEmulator,
                                                                      make_bot):
    for group in GROUPS:  # a deal each (a message), by one person a group (three rounds a
        # person at most), and a wrong answer (its status: an edit)
        telegram.chat(group)
        await telegram.say(group, {"id": -group, "is_bot": False, "first_name": "Ann"}, "/play")
    for person in PRIVATE:  # three asks each at once: three replies to one private chat
        user = {"id": person, "is_bot": False, "first_name": f"P{person}"}
        telegram.chat(person, "private")
        for _ in range(3):
            await telegram.say(person, user, "/solve 3 8 3 8", kind="private")
    bot = make_bot()
    bot.env.update({"RATE_LIMIT": "on", "SEND_RATE": str(RATE)})
    started = len(telegram.calls)
    await bot.start()
    deals = {group: await telegram.reply(group, timeout=60) for group in GROUPS}
    for group, deal in deals.items():  # each deal's status edited: another kind of call
        hand = hand_of(deal.text)
        wrong = "+".join(map(str, hand)) if sum(hand) != 24 else "*".join(map(str, hand))
        await telegram.say(group, {"id": 7301, "is_bot": False, "first_name": "Ben"},
                           f"/a {wrong}")
    for person in PRIVATE:
        assert len(await telegram.replies(person, 3, timeout=60)) == 3
    assert await telegram.wait_for(
        lambda: {e.chat_id for e in telegram.edits} >= set(GROUPS), 60)

    naming = [(method, params["chat_id"], at) for method, params, at in telegram.calls[started:]
              if params.get("chat_id") is not None]
    methods = {method for method, _, _ in naming}
    assert {"sendMessage", "editMessageText"} <= methods, methods  # more than messages
    assert busiest([at for _, _, at in naming], 1.0) <= RATE
    assert len(naming) >= len(GROUPS) * 2 + len(PRIVATE) * 3
    calls, seconds = PRIVATE_SHARE
    for person in PRIVATE:
        mine = [at for _, chat, at in naming if int(chat) == person]
        assert busiest(mine, seconds) <= calls
