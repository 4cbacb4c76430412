"""The Bot API emulator's forum topics, through python-telegram-bot's own client: a message in a
topic carries its message_thread_id (and, as Telegram does, replies to the topic's opening
message); the bot writes to a topic it names, or to the topic of the message it replies to,
else to General; an unknown topic, or a topic in a chat without them, is refused."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot, Update
from telegram.error import BadRequest

from bot.telegram.speakers import topic_of
from demo.emulator import BotApiEmulator

FORUM, GROUP = -100300, -100301
ANN = {"id": 41, "is_bot": False, "first_name": "Ann"}


@pytest.fixture
async def bot(telegram: BotApiEmulator) -> AsyncIterator[Bot]:
    client = Bot(telegram.token, base_url=telegram.base_url)
    async with client:
        yield client


async def test_messages_and_the_bots_replies_stay_in_their_topic(telegram: BotApiEmulator,
                                                                 bot: Bot):
    chat = telegram.chat(FORUM, title="Club", forum=True)
    assert chat["type"] == "supergroup" and chat["is_forum"]
    topic = telegram.topic(FORUM, "Puzzles")
    said = await telegram.say(FORUM, ANN, "/play", topic=topic)
    assert said["message_thread_id"] == topic and said["is_topic_message"]
    assert said["reply_to_message"]["forum_topic_created"]["name"] == "Puzzles"
    update = Update.de_json({"update_id": 1, "message": said}, bot)
    assert topic_of(update.effective_message) == topic
    sent = await bot.send_message(FORUM, "named", message_thread_id=topic)
    assert sent.message_thread_id == topic and telegram.sent[-1].topic == topic
    replied = await update.effective_message.reply_text("a reply")  # type: ignore[union-attr]
    assert telegram.sent[-1].topic == topic and replied.is_topic_message
    await bot.send_message(FORUM, "to General")
    assert telegram.sent[-1].topic == 0
    answer = await telegram.say(FORUM, ANN, "3+3", reply_to=sent.message_id)  # its topic
    assert answer["message_thread_id"] == topic
    assert [s.text for s in await telegram.replies(FORUM, 2, topic=topic)] == ["named",
                                                                               "a reply"]
    assert [s.text for s in await telegram.replies(FORUM, 1, topic=0)] == ["to General"]


async def test_unknown_topics_are_refused(telegram: BotApiEmulator, bot: Bot):
    telegram.chat(FORUM, forum=True)
    telegram.chat(GROUP, "supergroup")
    with pytest.raises(BadRequest, match=r"(?i)thread not found"):
        await bot.send_message(FORUM, "x", message_thread_id=424242)
    with pytest.raises(BadRequest, match=r"(?i)thread not found"):
        await bot.send_message(GROUP, "x", message_thread_id=1)
    with pytest.raises(ValueError):
        telegram.topic(GROUP, "no topics here")


async def test_a_reply_chain_in_a_plain_supergroup_is_no_topic(telegram: BotApiEmulator,
                                                               bot: Bot):
    telegram.chat(GROUP, "supergroup")
    first = await telegram.say(GROUP, ANN, "hello")
    second = await telegram.say(GROUP, ANN, "again", reply_to=first["message_id"])
    assert second["message_thread_id"] == first["message_id"]
    assert not second.get("is_topic_message")
    update = Update.de_json({"update_id": 2, "message": second}, bot)
    assert topic_of(update.effective_message) == 0
    await update.effective_message.reply_text("fine")  # type: ignore[union-attr]
    assert telegram.sent[-1].topic == 0
