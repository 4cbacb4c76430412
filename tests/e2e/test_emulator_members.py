"""The emulator's getChatMember, through python-telegram-bot's own client: members by default,
admins and the creator as the test (or the demo) makes them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot, ChatMemberAdministrator, ChatMemberMember, ChatMemberOwner
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
