"""`python -m bot` polling with WEBAPP_URL set (issue 27): start-up opens the page's own server on
WEBAPP_PORT and the deals carry the Mini App's link; a signed answer posted there wins in the
group; a stop closes the server."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from bot.webapp.init_data import sign, user_fields
from demo.emulator import BotApiEmulator
from demo.emulator.records import BOT_USERNAME
from demo.ports import free_port
from solver import solve
from tests.e2e.test_webapp_demo import steps_of

pytestmark = pytest.mark.slow
GROUP = -7801
ANN = {"id": 781, "is_bot": False, "first_name": "Ann", "language_code": "en"}


async def test_the_polling_bot_serves_the_page_and_links_the_deal(make_bot,
                                                                  telegram: BotApiEmulator):
    port = free_port()
    bot = make_bot()
    bot.env.update(WEBAPP_URL="https://bot.example.org/webapp/", WEBAPP_SHORT_NAME="tap24",
                   WEBAPP_PORT=str(port))
    await bot.start()
    await telegram.say(GROUP, ANN, "/play")
    deal = await telegram.reply(GROUP)
    link = deal.reply_markup["inline_keyboard"][-1][0]["url"]
    prefix = f"https://t.me/{BOT_USERNAME}/tap24?startapp="
    assert link.startswith(prefix)
    ticket = link.removeprefix(prefix)
    data = sign(user_fields(ANN["id"], "Ann", int(time.time()), "en", ticket), telegram.token)
    base = f"http://127.0.0.1:{port}/webapp/"
    async with httpx.AsyncClient(timeout=30) as client:
        assert (await client.get(base)).status_code == 200
        shown = (await client.post(base + "api/round", content=json.dumps(
            {"init_data": data, "round": ticket}))).json()
        numbers = shown["puzzle"]["tiles"]
        judged = (await client.post(base + "api/answer", content=json.dumps(
            {"init_data": data, "round": ticket,
             "steps": steps_of(solve(numbers)[0], numbers)}))).json()
    assert judged["right"]
    assert (await telegram.reply(GROUP)).text.startswith("✅ Ann")
    await bot.stop()
    with pytest.raises(httpx.ConnectError):  # closed with the bot
        async with httpx.AsyncClient(timeout=5) as client:
            await client.get(base)
