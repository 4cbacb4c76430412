"""What the bot reads of a sent message's echo (bot.telegram.polling.echo): its id and where it
is, read into PTB's Message without the text, entities, keyboard and sender the bot never
reads; an edit of an inline message's True as it came; another method's answer untouched."""

from __future__ import annotations

from telegram import Message

from bot.telegram.polling import ECHOED, PollingBot, echo
from demo.emulator import BotApiEmulator

SENT = {"message_id": 7, "date": 1700000000, "message_thread_id": 3, "is_topic_message": True,
        "chat": {"id": -100, "type": "supergroup", "title": "G", "is_forum": True},
        "from": {"id": 1, "is_bot": True, "first_name": "Bot"}, "text": "8 3 8 3",
        "entities": [{"offset": 0, "length": 1, "type": "code"}],
        "reply_markup": {"inline_keyboard": [[{"text": "Hint", "callback_data": "h:7"}]]}}


def test_the_echo_keeps_what_the_bot_reads():
    kept = echo(SENT)
    assert kept == {"message_id": 7, "date": 1700000000, "message_thread_id": 3,
                    "is_topic_message": True,
                    "chat": {"id": -100, "type": "supergroup", "is_forum": True}}
    message = Message.de_json(kept, None)
    assert (message.message_id, message.chat.id, message.message_thread_id) == (7, -100, 3)
    assert echo(True) is True
    assert {"sendMessage", "editMessageText", "editMessageReplyMarkup"} == ECHOED


async def test_a_sent_message_comes_back_as_its_id_and_place(telegram: BotApiEmulator):
    bot = PollingBot(telegram.token, base_url=telegram.base_url)
    await bot.initialize()
    try:
        telegram.chat(-5)
        sent = await bot.send_message(-5, "<b>hi</b>", parse_mode="HTML")
        me = await bot.get_me()
    finally:
        await bot.shutdown()
    assert sent.message_id > 0 and sent.chat.id == -5
    assert sent.text is None and sent.entities == ()  # never read, never built
    assert me.username  # another method's answer is PTB's whole
