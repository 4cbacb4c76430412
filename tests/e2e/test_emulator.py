"""The Bot API emulator's newer methods, through python-telegram-bot's own client where it can:
editMessageText, answerInlineQuery, answerCallbackQuery, allowed_updates, open chats, stop."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import httpx
import pytest
from telegram import Bot, InlineQueryResultArticle, InputTextMessageContent, Message
from telegram.error import BadRequest

from bot.text.html_text import terminal_text, visible_text
from demo.emulator import BotApiEmulator
from tests.waiting import until

CHAT = -300
ANN = {"id": 41, "is_bot": False, "first_name": "Ann"}


@pytest.fixture
async def bot(telegram: BotApiEmulator) -> AsyncIterator[Bot]:
    client = Bot(telegram.token, base_url=telegram.base_url)
    async with client:
        yield client


async def call(server: BotApiEmulator, method: str, **params) -> tuple[int, dict]:
    async with httpx.AsyncClient() as client:
        response = await client.post(f"{server.base_url}{server.token}/{method}", timeout=10,
                                     data={k: v if isinstance(v, str) else json.dumps(v)
                                           for k, v in params.items()})
    return response.status_code, response.json()


def article(number: int, text: str = "<b>24</b>") -> InlineQueryResultArticle:
    return InlineQueryResultArticle(str(number), f"Result {number}",
                                    InputTextMessageContent(text, parse_mode="HTML"))


async def test_edit_message_text(telegram: BotApiEmulator, bot: Bot):
    telegram.chat(CHAT)
    sent = await bot.send_message(CHAT, "<b>3 8 3 8</b>", parse_mode="HTML")
    edited = await bot.edit_message_text("<b>3 8 3 8</b> solved", CHAT, sent.message_id,
                                         parse_mode="HTML")
    assert isinstance(edited, Message) and edited.text == "3 8 3 8 solved"
    [edit] = telegram.edits
    assert (edit.chat_id, edit.message_id, edit.text) == (CHAT, sent.message_id, "3 8 3 8 solved")
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_text("<b>3 8 3 8</b> solved", CHAT, sent.message_id,
                                    parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.edit_message_text("<b>open", CHAT, sent.message_id, parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)to edit not found"):
        await bot.edit_message_text("x", CHAT, 999_999)
    mine = await telegram.say(CHAT, ANN, "/play")
    with pytest.raises(BadRequest, match=r"(?i)can't be edited"):
        await bot.edit_message_text("x", CHAT, mine["message_id"])


async def test_answer_inline_query(telegram: BotApiEmulator, bot: Bot):
    query = await telegram.inline_query(ANN, "3 8 3 8")
    assert await bot.answer_inline_query(query, [article(1), article(2)], cache_time=0)
    [answer] = telegram.inline_answers
    assert answer.query_id == query and [r["id"] for r in answer.results] == ["1", "2"]
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):  # answered once only
        await bot.answer_inline_query(query, [article(1)])
    query = await telegram.inline_query(ANN, "")
    with pytest.raises(BadRequest, match=r"(?i)RESULTS_TOO_MUCH"):
        await bot.answer_inline_query(query, [article(n) for n in range(51)])
    with pytest.raises(BadRequest, match=r"(?i)RESULT_ID_DUPLICATE"):
        await bot.answer_inline_query(query, [article(1), article(1)])
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.answer_inline_query(query, [article(1, "<b>24")])
    status, body = await call(telegram, "answerInlineQuery", inline_query_id=query,
                              results='{"not": "a list"}')
    assert status == 400 and "JSON" in body["description"]
    assert await bot.answer_inline_query(query, [article(n) for n in range(50)])


async def test_answer_callback_query(telegram: BotApiEmulator, bot: Bot):
    telegram.chat(CHAT)
    sent = await bot.send_message(CHAT, "Again?")
    query = await telegram.press(CHAT, sent.message_id, ANN, "play")
    [update] = (await call(telegram, "getUpdates"))[1]["result"]
    assert update["callback_query"]["data"] == "play"
    assert await bot.answer_callback_query(query, "Dealt")
    assert [(a.query_id, a.text) for a in telegram.callback_answers] == [(query, "Dealt")]
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(query)


async def test_allowed_updates_are_remembered_and_filter(telegram: BotApiEmulator):
    await telegram.inline_query(ANN, "1 2 3 4")
    await telegram.say(CHAT, ANN, "/play")
    _, body = await call(telegram, "getUpdates", allowed_updates=["message"])
    assert ["message" in u for u in body["result"]] == [True]  # the inline query is dropped
    await telegram.inline_query(ANN, "5 6 7 8")
    _, body = await call(telegram, "getUpdates", offset=body["result"][-1]["update_id"] + 1)
    assert body["result"] == []
    await telegram.inline_query(ANN, "5 6 7 8")
    _, body = await call(telegram, "getUpdates", allowed_updates=[])  # [] means the default set
    assert [u["inline_query"]["query"] for u in body["result"]] == ["5 6 7 8"]


async def test_a_wait_for_the_updates_to_be_taken_ends_when_the_bot_confirms_them(
        telegram: BotApiEmulator):
    """The confirming poll wakes whoever waits for the list to empty (a bot that answers
    nothing sends nothing else that would): the wait ends with that poll, not at its time."""
    await telegram.say(CHAT, ANN, "nice hand")
    _, body = await call(telegram, "getUpdates")
    emptied = asyncio.create_task(telegram.wait_for(lambda: not telegram.updates, 30))
    await asyncio.sleep(0)  # the wait has begun
    await call(telegram, "getUpdates", offset=body["result"][-1]["update_id"] + 1)
    assert await asyncio.wait_for(emptied, 5)


async def test_open_chats_and_unknown_chats(telegram: BotApiEmulator, bot: Bot):
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(77, "hi")
    telegram.open_chats = True
    assert (await bot.send_message(77, "hi")).chat.type == "private"
    assert (await bot.send_message(-77, "hi")).chat.type == "group"


async def test_stop_answers_a_waiting_long_poll():
    server = BotApiEmulator()
    await server.start()
    waiting = asyncio.create_task(call(server, "getUpdates", timeout=30))
    await until(lambda: "getUpdates" in [c[0] for c in server.calls], "the long poll asked")
    await server.stop()
    status, body = await waiting  # the client gives up after 10 s, the poll after 30
    assert (status, body["result"]) == (200, [])


def test_terminal_text():
    html = "<b>Ann</b> wins with <code>8÷(3−8÷3)</code> &amp; <i>more</i>"
    assert terminal_text(html) == visible_text(html) == "Ann wins with 8÷(3−8÷3) & more"
    assert terminal_text(html, ansi=True) == \
        "\x1b[1mAnn\x1b[0m wins with 8÷(3−8÷3) & \x1b[3mmore\x1b[0m"
    assert terminal_text('<a href="https://example.org">site</a>') == "site (https://example.org)"
    assert visible_text('<a href="https://example.org">site</a>') == "site"
