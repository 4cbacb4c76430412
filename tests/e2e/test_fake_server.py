"""The fake Bot API server itself: wire format, error shapes, HTML rules, long polling, floods."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from bot.text.html_text import EntityError, visible_text
from demo.emulator import BotApiEmulator, FloodLimits


async def call(server: BotApiEmulator, method: str, token: str | None = None, **params):
    async with httpx.AsyncClient() as client:
        url = f"http://127.0.0.1:{server.port}/bot{token or server.token}/{method}"
        response = await client.post(url, data={k: v if isinstance(v, str) else json.dumps(v)
                                                 for k, v in params.items()}, timeout=10)
    return response.status_code, response.json()


async def test_ok_shape_and_unknown_token_and_method(telegram: BotApiEmulator):
    status, body = await call(telegram, "getMe")
    assert status == 200 and body["ok"] is True and body["result"]["is_bot"] is True
    status, body = await call(telegram, "getMe", token="1:wrong")
    assert (status, body) == (401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
    status, body = await call(telegram, "flyToTheMoon")
    assert status == 404 and body["description"] == "Not Found"


async def test_send_message_validation(telegram: BotApiEmulator):
    telegram.chat(1, "private")
    status, body = await call(telegram, "sendMessage", chat_id=1, text="<b>hi</b> &amp; bye",
                              parse_mode="HTML")
    assert status == 200 and body["result"]["text"] == "hi & bye"
    for text in ("<b>open", "<script>x</script>", "a &nbsp; b", "1 < 2"):
        status, body = await call(telegram, "sendMessage", chat_id=1, text=text,
                                  parse_mode="HTML")
        assert status == 400 and body["description"].startswith("Bad Request: can't parse")
    status, body = await call(telegram, "sendMessage", chat_id=1, text="x" * 4097)
    assert status == 400 and "too long" in body["description"]
    status, body = await call(telegram, "sendMessage", chat_id=1, text="  ")
    assert status == 400 and "empty" in body["description"]
    status, body = await call(telegram, "sendMessage", chat_id=999, text="hi")
    assert status == 400 and "chat not found" in body["description"]


def test_visible_text():
    assert visible_text("<code>8÷3</code> &lt;ok&gt;") == "8÷3 <ok>"
    with pytest.raises(EntityError):
        visible_text("<b><i>x</b></i>")


async def test_long_polling_with_offsets(telegram: BotApiEmulator):
    user = telegram.user(5, "Eve")
    await telegram.say(10, user, "hello")
    _status, body = await call(telegram, "getUpdates", offset=0, timeout=0)
    [first] = body["result"]
    assert first["message"]["text"] == "hello"
    waiting = asyncio.create_task(call(telegram, "getUpdates",
                                       offset=first["update_id"] + 1, timeout=5))
    await asyncio.sleep(0.2)
    assert not waiting.done()  # held open: nothing new yet
    await telegram.say(10, user, "/play")
    _status, body = await waiting
    [second] = body["result"]
    assert second["update_id"] == first["update_id"] + 1
    assert second["message"]["entities"][0]["type"] == "bot_command"


async def test_flood_limit_answers_429_with_retry_after():
    server = BotApiEmulator(flood=FloodLimits(per_second=30, per_chat_minute=3))
    await server.start()
    try:
        server.chat(1)
        codes = [(await call(server, "sendMessage", chat_id=1, text="hi"))[0] for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        _status, body = await call(server, "sendMessage", chat_id=1, text="hi")
        assert body["parameters"]["retry_after"] > 0
    finally:
        await server.stop()
