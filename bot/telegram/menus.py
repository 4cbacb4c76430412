"""The command menus Telegram shows beside the message box, set once at start-up."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import Bot, BotCommand

from bot.text.i18n import DEFAULT_LANGUAGE, LANGUAGES, texts_for


def menu(language: str, commands: Sequence[Sequence[str]]) -> list[BotCommand]:
    """The command menu in one language: each command's first name and its "cmd_<name>" line."""
    texts = texts_for(language)
    return [BotCommand(names[0], texts(f"cmd_{names[0]}")) for names in commands]


async def set_menus(bot: Bot, commands: Sequence[Sequence[str]]) -> None:
    """One menu per language; Telegram shows a user the one of their app's language."""
    for language in LANGUAGES:
        await bot.set_my_commands(
            menu(language, commands),
            language_code=None if language == DEFAULT_LANGUAGE else language)
