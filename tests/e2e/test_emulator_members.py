"""The emulator's getChatMember, through python-telegram-bot's own client: members by default,
admins and the creator as the test (or the demo) makes them; a status changed, and an admin bot
told in a chat_member update."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import (
    Bot,
    ChatMemberAdministrator,
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
)
from telegram.error import BadRequest

from demo.emulator import BotApiEmulator

CHAT = -310
ANN = {"id": 51, "is_bot": False, "first_name": "Ann"}


@pytest.fixture
async def bot(telegram: BotApiEmulator) -> AsyncIterator[Bot]:
    client = Bot(telegram.token, base_url=telegram.base_url)
    async with client:
        yield client


async def test_get_chat_member(telegram: BotApiEmulator, bot: Bot):
    await telegram.say(CHAT, ANN, "hello")
    member = await bot.get_chat_member(CHAT, ANN["id"])
    assert isinstance(member, ChatMemberMember) and member.user.first_name == "Ann"
    telegram.promote(CHAT, ANN["id"])
    assert isinstance(await bot.get_chat_member(CHAT, ANN["id"]), ChatMemberAdministrator)
    telegram.promote(CHAT, ANN["id"], "creator")
    assert isinstance(await bot.get_chat_member(CHAT, ANN["id"]), ChatMemberOwner)
    telegram.promote(CHAT, ANN["id"], "member")
    assert isinstance(await bot.get_chat_member(CHAT, ANN["id"]), ChatMemberMember)
    assert isinstance(await bot.get_chat_member(CHAT, 999), ChatMemberMember)  # a stranger
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.get_chat_member(-999_999, ANN["id"])


async def test_a_status_change_is_told_to_an_admin_bot_that_asked(telegram: BotApiEmulator,
                                                                   bot: Bot):
    """`member_changes`: getChatMember says the new status at once; a chat_member update (in
    Telegram's wire format, readable by PTB) reaches the bot only where it is an admin and only
    when getUpdates asks for chat_member."""
    await telegram.say(CHAT, ANN, "hello")
    await telegram.member_changes(CHAT, ANN, "left")  # the bot is no admin here: not told
    assert isinstance(await bot.get_chat_member(CHAT, ANN["id"]), ChatMemberLeft)
    await telegram.add_bot(CHAT, ANN, status="administrator")
    await telegram.member_changes(CHAT, ANN, "member")
    updates = await bot.get_updates(timeout=0, allowed_updates=["chat_member"])
    assert len(updates) == 1
    changed = updates[0].chat_member
    assert changed is not None and changed.chat.id == CHAT
    assert (changed.old_chat_member.status, changed.new_chat_member.status) == ("left", "member")
    assert changed.new_chat_member.user.id == ANN["id"]
    offset = updates[0].update_id + 1
    await telegram.member_changes(CHAT, ANN, "left")
    assert await bot.get_updates(offset=offset, timeout=0,
                                 allowed_updates=["message"]) == ()  # not asked for: none
    await telegram.member_changes(CHAT, ANN, "kicked", by={"id": 52, "is_bot": False,
                                                           "first_name": "Admin"})
    kicked = await bot.get_updates(offset=offset, timeout=0, allowed_updates=["chat_member"])
    assert len(kicked) == 1 and kicked[0].chat_member is not None
    assert isinstance(kicked[0].chat_member.new_chat_member, ChatMemberBanned)
    assert kicked[0].chat_member.from_user.first_name == "Admin"
