"""A round's calls (bot.telegram.calls) send what PTB's own methods send — parameter for parameter,
the bot's Defaults included, each keyboard byte for byte — answer with the message's id, and
fail with PTB's errors."""

from __future__ import annotations

import json

import pytest
from telegram import (
    CopyTextButton,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LoginUrl,
    ReplyParameters,
    WebAppInfo,
)
from telegram.error import BadRequest

from bot.play import outcomes
from bot.play.ports import PageLink
from bot.telegram import calls, keyboards
from bot.telegram.app import DEFAULTS
from bot.telegram.polling import PollingBot
from bot.text.i18n import texts_for
from demo.emulator import BotApiEmulator

FORUM = -1001
KEYBOARD = InlineKeyboardMarkup([[InlineKeyboardButton("Hint", callback_data="h:7"),
                                  InlineKeyboardButton("Page", url="https://t.me/b?startapp=x")]])


def last(telegram: BotApiEmulator, method: str) -> dict:
    return next(params for name, params, _ in reversed(telegram.calls) if name == method)


async def test_each_call_sends_what_ptb_sends(telegram: BotApiEmulator):
    telegram.chat(FORUM, forum=True)
    topic = telegram.topic(FORUM, "games")
    bot = PollingBot(telegram.token, base_url=telegram.base_url, defaults=DEFAULTS)
    await bot.initialize()
    try:
        reply = ReplyParameters(topic, allow_sending_without_reply=True)
        ours = await calls.send_message(bot, FORUM, "<b>8 3 8 3</b>", keyboard=KEYBOARD,
                                        thread=topic, reply=reply, paid=True)
        sent_ours = last(telegram, "sendMessage")
        theirs = await bot.send_message(FORUM, "<b>8 3 8 3</b>", reply_markup=KEYBOARD,
                                        message_thread_id=topic, reply_parameters=reply,
                                        allow_paid_broadcast=True)
        assert sent_ours == last(telegram, "sendMessage")
        assert sent_ours["parse_mode"] == "HTML" and "link_preview_options" in sent_ours
        assert ours == theirs.message_id - 1  # the id is the new message's

        plain = await calls.send_message(bot, FORUM, "no more")
        assert last(telegram, "sendMessage") == {"chat_id": str(FORUM), "text": "no more",
                                                 **{key: sent_ours[key] for key in
                                                    ("parse_mode", "link_preview_options")}}
        assert plain > theirs.message_id

        await calls.edit_message_text(bot, FORUM, ours, "<i>status</i>", KEYBOARD)
        edited_ours = last(telegram, "editMessageText")
        await bot.edit_message_text("<i>status</i>", FORUM, theirs.message_id,
                                    reply_markup=KEYBOARD)
        assert {**edited_ours, "message_id": str(theirs.message_id)} == \
            last(telegram, "editMessageText")

        await calls.edit_reply_markup(bot, FORUM, ours)
        cleared_ours = last(telegram, "editMessageReplyMarkup")
        await bot.edit_message_reply_markup(FORUM, theirs.message_id, reply_markup=None)
        assert {**cleared_ours, "message_id": str(theirs.message_id)} == \
            last(telegram, "editMessageReplyMarkup")
        assert "reply_markup" not in cleared_ours  # no keyboard: the buttons go
    finally:
        await bot.shutdown()


async def test_a_refusal_is_ptbs_error(telegram: BotApiEmulator):
    telegram.chat(-5)
    bot = PollingBot(telegram.token, base_url=telegram.base_url, defaults=DEFAULTS)
    await bot.initialize()
    try:
        sent = await calls.send_message(bot, -5, "deal")
        with pytest.raises(BadRequest, match="not modified"):
            await calls.edit_message_text(bot, -5, sent, "deal")
        with pytest.raises(BadRequest):
            await calls.send_message(bot, -404, "nobody there")
    finally:
        await bot.shutdown()


def test_only_a_messages_echo_names_an_id():
    assert calls.message_id_of({"message_id": 9, "chat": {"id": 1}}) == 9
    assert calls.message_id_of(True) is None


@pytest.mark.parametrize("language", ["en", "fa", "zh-Hant"])
def test_a_rounds_keyboards_are_written_as_ptb_writes_them(language: str,
                                                           monkeypatch: pytest.MonkeyPatch):
    texts = texts_for(language)
    everything = tuple(keyboards.CODES)
    built = [keyboards.deal_keyboard(texts, 7, everything),
             keyboards.deal_keyboard(texts, 7, (outcomes.HINT,),
                                     PageLink("https://t.me/b/app?startapp=r7", web_app=False)),
             keyboards.deal_keyboard(texts, 7, (), PageLink("https://x.org/p#r7", web_app=True)),
             keyboards.result_keyboard(texts, 8, everything),
             keyboards.result_pages(8, 1, 3, keyboards.result_keyboard(texts, 8, everything))]
    assert all(markup is not None for markup in built)
    theirs = [json.dumps(markup.to_dict()) for markup in built]  # type: ignore[union-attr]

    def slow(*args: object, **kwargs: object) -> None:
        raise AssertionError("PTB's own writing, where the round's is meant")

    monkeypatch.setattr(InlineKeyboardMarkup, "to_dict", slow)
    assert [json.dumps(calls.keyboard_json(markup)) for markup in built] == theirs  # type: ignore


def test_any_other_button_is_left_to_ptb():
    unusual = [InlineKeyboardMarkup([[InlineKeyboardButton("Log in",
                                                           login_url=LoginUrl("https://x.org"))]]),
               InlineKeyboardMarkup([[InlineKeyboardButton("Copy",
                                                           copy_text=CopyTextButton("24"))]]),
               InlineKeyboardMarkup([[InlineKeyboardButton("New", callback_data="n",
                                                           api_kwargs={"colour": "red"})]]),
               InlineKeyboardMarkup([[InlineKeyboardButton("Go", web_app=WebAppInfo(
                   "https://x.org", api_kwargs={"later": 1}))]])]
    for markup in unusual:
        assert calls.keyboard_json(markup) == markup.to_dict()
    assert "colour" in json.dumps(calls.keyboard_json(unusual[2]))  # nothing of it dropped
