"""The Bot API emulator's inline keyboards, through python-telegram-bot's own client: buttons
kept with a message, checked as Telegram checks them, replaced or removed with
editMessageReplyMarkup, and pressed by label as a client would."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.error import BadRequest

from demo.emulator import BotApiEmulator

CHAT = -310
ANN = {"id": 51, "is_bot": False, "first_name": "Ann"}


@pytest.fixture
async def bot(telegram: BotApiEmulator) -> AsyncIterator[Bot]:
    client = Bot(telegram.token, base_url=telegram.base_url)
    async with client:
        yield client


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=f"d:{label}")
                                  for label in labels]])


async def test_buttons_are_kept_replaced_removed_and_pressed(telegram: BotApiEmulator, bot: Bot):
    telegram.chat(CHAT)
    sent = await bot.send_message(CHAT, "deal", reply_markup=keyboard("Hint", "Reveal"))
    assert telegram.buttons(CHAT, sent.message_id) == [("Hint", "d:Hint"), ("Reveal", "d:Reveal")]
    assert telegram.sent[-1].reply_markup == keyboard("Hint", "Reveal").to_dict()

    query_id = await telegram.press_button(CHAT, sent.message_id, ANN, "Reveal")
    [update] = [u for u in telegram.updates if "callback_query" in u]
    pressed = update["callback_query"]
    assert (pressed["id"], pressed["data"], pressed["from"]) == (query_id, "d:Reveal", ANN)
    assert pressed["message"]["reply_markup"] == keyboard("Hint", "Reveal").to_dict()
    with pytest.raises(KeyError):
        await telegram.press_button(CHAT, sent.message_id, ANN, "Play again")

    edited = await bot.edit_message_reply_markup(CHAT, sent.message_id,
                                                 reply_markup=keyboard("Hint"))
    assert isinstance(edited, Message) and edited.reply_markup == keyboard("Hint")
    assert telegram.buttons(CHAT, sent.message_id) == [("Hint", "d:Hint")]
    await bot.edit_message_reply_markup(CHAT, sent.message_id)  # no markup: the buttons go
    assert telegram.buttons(CHAT, sent.message_id) == []
    assert [e.reply_markup for e in telegram.markup_edits] == [keyboard("Hint").to_dict(), None]
    with pytest.raises(BadRequest, match=r"(?i)not modified"):
        await bot.edit_message_reply_markup(CHAT, sent.message_id)
    with pytest.raises(BadRequest, match=r"(?i)to edit not found"):
        await bot.edit_message_reply_markup(CHAT, 999_999)
    mine = await telegram.say(CHAT, ANN, "hello")
    with pytest.raises(BadRequest, match=r"(?i)can't be edited"):
        await bot.edit_message_reply_markup(CHAT, mine["message_id"], reply_markup=keyboard("x"))

    # editMessageText without reply_markup takes the buttons off too, as on Telegram
    again = await bot.send_message(CHAT, "page 1", reply_markup=keyboard("▶"))
    await bot.edit_message_text("page 2", CHAT, again.message_id)
    assert telegram.buttons(CHAT, again.message_id) == []


async def test_button_data_is_checked_as_telegram_checks_it(telegram: BotApiEmulator, bot: Bot):
    telegram.chat(CHAT)
    too_long = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="d" * 65)]])
    with pytest.raises(BadRequest, match=r"(?i)button_data_invalid"):
        await bot.send_message(CHAT, "deal", reply_markup=too_long)
    fits = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="é" * 32)]])
    await bot.send_message(CHAT, "deal", reply_markup=fits)  # 64 bytes
    empty_label = InlineKeyboardMarkup([[InlineKeyboardButton(" ", callback_data="d")]])
    with pytest.raises(BadRequest):
        await bot.send_message(CHAT, "deal", reply_markup=empty_label)
