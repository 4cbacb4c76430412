"""The command menus Telegram shows beside the message box, set once at start-up: one per scope
(private chats, groups, a group's admins) and language. Each scope lists what makes sense there:
a private chat has no match or board reset, a group no /forget, and its admins see their own
commands besides the group's."""

from __future__ import annotations

from collections.abc import Sequence

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


async def set_menus(bot: Bot, commands: Sequence[Sequence[str]]) -> None:
    """One menu per scope and language; Telegram shows a user the one of their chat's kind
    (an admin's in a group they administer) and their app's language."""
    for scope_name, scope in SCOPES:
        names = offered(scope_name, commands)
        for language in LANGUAGES:
            await bot.set_my_commands(
                menu(language, names), scope=scope,
                language_code=None if language == DEFAULT_LANGUAGE else language)
