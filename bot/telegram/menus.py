"""The command menus Telegram shows beside the message box, and the bot's description and short
description, set at start-up when they changed (`publish_menus`): one per scope (private
chats, groups, a group's admins) and language. Each scope lists what makes sense there: a
private chat has no match or board reset, a group no /forget, and its admins see their own
commands besides the group's.

Telegram keys these by a two-letter language code, so two of the bot's languages that share one
share its menu: the first registered gets it (zh: Simplified Chinese; a Traditional Chinese app
shows that menu, while every reply follows the speaker's own tag). English is the default, for
every language without its own menu.

Each command's feature says where its line is offered and whether its answer is the asker's alone
(bot.telegram.routes.Command); the root builds `Menus` of them. In groups, the commands whose
answer is for the asker alone are declared ephemeral (Bot API 10.2, BotCommand.is_ephemeral):
Telegram shows them to the bot alone, and the answer goes to the asker alone
(bot.telegram.sending). A group whose admins chose answers unseen (/settings) gets
lists of its own (BotCommandScopeChat, and its admins' BotCommandScopeChatAdministrators, in
every language) that declare /a and /answer ephemeral too; choosing otherwise deletes them, and
the group sees the lists of every group again."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Sequence
from typing import Any, Protocol

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeChat,
    BotCommandScopeChatAdministrators,
    BotCommandScopeDefault,
)
from telegram.error import BadRequest, TelegramError

from bot.runtime.together import together
from bot.telegram.bot_api_10 import command
from bot.text.i18n import DEFAULT_LANGUAGE, LANGUAGES, texts_for
from bot.text.languages import telegram_code

log = logging.getLogger(__name__)
PRIVATE, GROUPS, ADMINS = "private", "groups", "admins"
EVERYWHERE = frozenset({PRIVATE, GROUPS, ADMINS})
ANSWERS = ("answer", "a")  # what a group's "unseen" setting declares ephemeral there besides
UNSEEN = "unseen"  # that setting's key (bot.play.chats.settings)
DIGEST_FORM = "menus/1"  # what a digest covers, and how: a new form sets the menus once again
Line = tuple[str, str, bool]  # a command, its line, whether it is declared ephemeral
Wanted = tuple[Any, ...]  # one call's worth of the menus: its kind, the language's code, ...
SCOPES: tuple[tuple[str, BotCommandScope], ...] = (
    (PRIVATE, BotCommandScopeDefault()),  # what a client shows before it knows the chat
    (PRIVATE, BotCommandScopeAllPrivateChats()),
    (GROUPS, BotCommandScopeAllGroupChats()),
    (ADMINS, BotCommandScopeAllChatAdministrators()),
)


class Noted(Protocol):
    """Where the digest of the menus last set is kept (the database's `bot_menus`, handed over
    by the composition root)."""

    async def menu_digest(self, bot_id: int) -> str | None: ...
    async def note_menus(self, bot_id: int, digest: str, at: float) -> None: ...


class Listed(Protocol):
    """A command as the menus read it (bot.telegram.routes.Command)."""

    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def alone(self) -> bool: ...  # in groups, its answer is the asker's alone
    @property
    def offered(self) -> frozenset[str]: ...  # the scopes whose menus list it


def offered(scope: str, commands: Sequence[Listed]) -> list[str]:
    """The first names of the commands a scope's menu lists, in the commands' order."""
    return [listed.names[0] for listed in commands if scope in listed.offered]


def lines(language: str, names: Sequence[str],
          ephemeral: frozenset[str] = frozenset()) -> list[Line]:
    """A command menu in one language: each command, its "cmd_<name>" line (/a shares
    /answer's), and whether it is declared seen by the bot alone (those in `ephemeral`)."""
    texts = texts_for(language)
    return [(name, texts(f"cmd_{'answer' if name == 'a' else name}"), name in ephemeral)
            for name in names]


def menu(language: str, names: Sequence[str],
         ephemeral: frozenset[str] = frozenset()) -> list[BotCommand]:
    """`lines` as the BotCommands setMyCommands takes."""
    return [command(*line) for line in lines(language, names, ephemeral)]


def menu_languages() -> dict[str | None, str]:
    """Telegram's language code (None: the default) -> the bot's language set under it."""
    chosen: dict[str | None, str] = {}
    for language in LANGUAGES:
        chosen.setdefault(None if language == DEFAULT_LANGUAGE else telegram_code(language),
                          language)
    return chosen


class Menus:
    """The menus of the bot's commands (`commands`: the root's table, in its order)."""

    def __init__(self, commands: Sequence[Listed]) -> None:
        self.commands = list(commands)
        # in groups, what answers the asker alone: seen by the bot alone, answered to them alone
        self.for_the_asker = frozenset(c.names[0] for c in self.commands if c.alone)

    def ephemeral_in(self, scope: str) -> frozenset[str]:
        """The commands a scope's menu declares ephemeral: in groups, those answered to the
        asker alone; Telegram has ephemeral messages in groups only."""
        return self.for_the_asker if scope in (GROUPS, ADMINS) else frozenset()

    def wanted(self) -> list[Wanted]:
        """What the menus are to be, call by call, as plain values: a scope's list in a
        language (its Telegram code, None: the default), or a description. `set` sends them;
        `digest` is theirs."""
        wanted: list[Wanted] = []
        for code, language in menu_languages().items():
            texts = texts_for(language)
            for scope_name, scope in SCOPES:
                wanted.append(("commands", code, scope.type, tuple(lines(
                    language, offered(scope_name, self.commands), self.ephemeral_in(scope_name)))))
            wanted.append(("description", code, texts("bot_description")))
            wanted.append(("short_description", code, texts("bot_short_description")))
        return wanted

    def digest(self) -> str:
        """A digest of everything `set` sends: equal digests, equal menus in every scope and
        language."""
        text = json.dumps([DIGEST_FORM, *self.wanted()], ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    async def set(self, bot: Bot) -> None:
        """One menu per scope and language, and the descriptions per language; Telegram shows
        a user the one of their chat's kind (an admin's in a group they administer) and their
        app's language. The requests go out together: start-up waits for one round trip, not
        ninety; the first refusal is raised once every request ended."""
        scopes = {scope.type: scope for _, scope in SCOPES}
        calls: list[Awaitable[bool]] = []
        for kind, code, *what in self.wanted():
            if kind == "commands":
                scope_type, listed = what
                calls.append(set_list(bot, [command(*line) for line in listed],
                                      scopes[scope_type], code))
            elif kind == "description":
                calls.append(bot.set_my_description(what[0], language_code=code))
            else:
                calls.append(bot.set_my_short_description(what[0], language_code=code))
        await together(calls)

    async def set_chat(self, bot: Bot, chat_id: int, unseen: bool) -> None:
        """A group's own lists, per language: with answers unseen, the group's and its admins'
        lists with /a and /answer declared ephemeral; otherwise none (the lists of every group
        apply)."""
        scopes = ((GROUPS, BotCommandScopeChat(chat_id)),
                  (ADMINS, BotCommandScopeChatAdministrators(chat_id)))
        calls: list[Awaitable[bool]] = []
        for code, language in menu_languages().items():
            for scope_name, scope in scopes:
                if not unseen:
                    calls.append(bot.delete_my_commands(scope=scope, language_code=code))
                    continue
                names = [*offered(scope_name, self.commands), "a"]
                calls.append(set_list(bot, menu(language, names, self.ephemeral_in(scope_name)
                                                | frozenset(ANSWERS)), scope, code))
        try:
            await asyncio.gather(*calls)
        except TelegramError as error:  # the setting holds; only the menu is not the group's own
            log.warning("could not set chat %s's own command lists: %s", chat_id, error)


async def set_list(bot: Bot, listed: list[BotCommand], scope: BotCommandScope,
                   code: str | None) -> bool:
    """setMyCommands; a Bot API that refuses the ephemeral declarations (older than 10.2) gets
    the same list without them, and the bot answers those commands as it always did."""
    try:
        return await bot.set_my_commands(listed, scope=scope, language_code=code)
    except BadRequest as error:
        if not any(line.api_kwargs for line in listed):
            raise
        log.warning("Telegram refused commands declared ephemeral (%s): set without", error)
        return await bot.set_my_commands([BotCommand(line.command, line.description)
                                          for line in listed], scope=scope, language_code=code)


async def publish_menus(menus: Menus, bot: Bot, store: Noted, now: float) -> bool:
    """The menus set at start-up unless they are what this bot last set from this database
    (its digest, noted once Telegram took every call): a restart, and each of a cluster's
    workers, sends none of the ninety calls. Whether they were sent. A refusal or a network
    error is logged and start-up goes on (the menus are what Telegram last had; the next
    start tries again: nothing is noted). Called by the process that leads: the note is a
    write, fenced like every other."""
    digest = menus.digest()
    if await store.menu_digest(bot.id) == digest:
        log.info("the command menus are as this bot last set them: none sent")
        return False
    try:
        await menus.set(bot)
    except TelegramError as error:
        log.warning("could not set the command menus (%s): the next start tries again", error)
        return False
    await store.note_menus(bot.id, digest, now)
    return True
