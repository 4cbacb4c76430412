"""The command menus Telegram shows beside the message box, and the bot's description and short
description, set once at start-up: one per scope (private chats, groups, a group's admins) and
language. Each scope lists what makes sense there: a private chat has no match or board reset, a
group no /forget, and its admins see their own commands besides the group's.

Telegram keys these by a two-letter language code, so two of the bot's languages that share one
share its menu: the first registered gets it (zh: Simplified Chinese; a Traditional Chinese app
shows that menu, while every reply follows the speaker's own tag). English is the default, for
every language without its own menu."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)

from bot.text.i18n import DEFAULT_LANGUAGE, LANGUAGES, texts_for
from bot.text.languages import telegram_code

PRIVATE, GROUPS, ADMINS = "private", "groups", "admins"
# where each command is offered; a command not named here is offered in every scope
ONLY = {
    "start": {PRIVATE},
    "forget": {PRIVATE},
    "privacy": {PRIVATE},
    "match": {GROUPS, ADMINS},
    "resetscores": {ADMINS},
    "settings": {PRIVATE, ADMINS},
    "pass": {GROUPS, ADMINS},
}
SCOPES: tuple[tuple[str, BotCommandScope], ...] = (
    (PRIVATE, BotCommandScopeDefault()),  # what a client shows before it knows the chat
    (PRIVATE, BotCommandScopeAllPrivateChats()),
    (GROUPS, BotCommandScopeAllGroupChats()),
    (ADMINS, BotCommandScopeAllChatAdministrators()),
)


def offered(scope: str, commands: Sequence[Sequence[str]]) -> list[str]:
    """The first names of the commands a scope's menu lists, in the commands' order."""
    return [names[0] for names in commands if scope in ONLY.get(names[0], {scope})]


def menu(language: str, names: Sequence[str]) -> list[BotCommand]:
    """A command menu in one language: each command and its "cmd_<name>" line."""
    texts = texts_for(language)
    return [BotCommand(name, texts(f"cmd_{name}")) for name in names]


def menu_languages() -> dict[str | None, str]:
    """Telegram's language code (None: the default) -> the bot's language set under it."""
    chosen: dict[str | None, str] = {}
    for language in LANGUAGES:
        chosen.setdefault(None if language == DEFAULT_LANGUAGE else telegram_code(language),
                          language)
    return chosen


async def set_menus(bot: Bot, commands: Sequence[Sequence[str]]) -> None:
    """One menu per scope and language, and the descriptions per language; Telegram shows a
    user the one of their chat's kind (an admin's in a group they administer) and their app's
    language. The requests go out together: start-up waits for one round trip, not thirty."""
    calls: list[Awaitable[bool]] = []
    for code, language in menu_languages().items():
        texts = texts_for(language)
        for scope_name, scope in SCOPES:
            calls.append(bot.set_my_commands(menu(language, offered(scope_name, commands)),
                                             scope=scope, language_code=code))
        calls.append(bot.set_my_description(texts("bot_description"), language_code=code))
        calls.append(bot.set_my_short_description(texts("bot_short_description"),
                                                  language_code=code))
    await asyncio.gather(*calls)
