"""The emulator's life cycle of the bot in a chat, through python-telegram-bot's own client:
my_chat_member updates as Telegram sends them (removed, banned, blocked, added), 403 for what the
bot sends to a chat it is not in, and a migrated group's old id answered with ChatMigrated."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot, ChatMemberAdministrator, ChatMemberBanned, ChatMemberLeft, Update
from telegram.error import ChatMigrated, Forbidden

from demo.emulator import BOT_ID, BotApiEmulator

GROUP = -320
ANN = {"id": 71, "is_bot": False, "first_name": "Ann"}


@pytest.fixture
async def bot(telegram: BotApiEmulator) -> AsyncIterator[Bot]:
    client = Bot(telegram.token, base_url=telegram.base_url)
    async with client:
        yield client


async def updates(bot: Bot) -> list[Update]:
    got = await bot.get_updates(timeout=0)
    if got:
        await bot.get_updates(offset=got[-1].update_id + 1, timeout=0)
    return list(got)


async def test_removed_banned_and_added_again(telegram: BotApiEmulator, bot: Bot):
    telegram.chat(GROUP)
    await bot.send_message(GROUP, "hi")
    await telegram.remove_bot(GROUP, ANN)
    [update] = await updates(bot)
    changed = update.my_chat_member
    assert changed is not None and changed.chat.id == GROUP and changed.from_user.id == ANN["id"]
    assert isinstance(changed.new_chat_member, ChatMemberBanned)
    assert changed.new_chat_member.user.id == BOT_ID
    with pytest.raises(Forbidden, match="bot was kicked from the group chat"):
        await bot.send_message(GROUP, "still here?")
    await telegram.say(GROUP, ANN, "/play")  # the bot is not in the chat: nothing comes
    assert await updates(bot) == []

    await telegram.add_bot(GROUP, ANN, status="administrator")
    [update] = await updates(bot)
    assert update.my_chat_member is not None
    assert isinstance(update.my_chat_member.old_chat_member, ChatMemberBanned)
    assert isinstance(update.my_chat_member.new_chat_member, ChatMemberAdministrator)
    assert (await bot.send_message(GROUP, "back")).chat.id == GROUP
    await telegram.remove_bot(GROUP, ANN, status="left")
    [update] = await updates(bot)
    assert update.my_chat_member is not None
    assert isinstance(update.my_chat_member.old_chat_member, ChatMemberAdministrator)
    assert isinstance(update.my_chat_member.new_chat_member, ChatMemberLeft)


async def test_left_a_supergroup_and_blocked_in_private(telegram: BotApiEmulator, bot: Bot):
    telegram.chat(-1009, forum=True)
    await telegram.remove_bot(-1009, ANN, status="left", notify=False)
    assert await updates(bot) == []  # a missed update: only the 403 tells
    with pytest.raises(Forbidden, match="not a member of the supergroup chat"):
        await bot.send_message(-1009, "hello")
    telegram.chat(ANN["id"], "private")
    await telegram.remove_bot(ANN["id"], ANN)
    [update] = await updates(bot)
    assert update.my_chat_member is not None and update.my_chat_member.chat.type == "private"
    with pytest.raises(Forbidden, match="blocked by the user"):
        await bot.send_message(ANN["id"], "hello")


async def test_a_migrated_group_answers_with_its_new_id(telegram: BotApiEmulator, bot: Bot):
    telegram.chat(GROUP)
    await telegram.migrate(GROUP, -100320, ANN, notify=False)
    with pytest.raises(ChatMigrated) as moved:
        await bot.send_message(GROUP, "hello")
    assert moved.value.new_chat_id == -100320
    assert (await bot.send_message(-100320, "hello")).chat.type == "supergroup"
