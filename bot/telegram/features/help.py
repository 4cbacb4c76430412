"""/help: what the bot plays, with this chat's round lengths, and the rules of fair play."""

from __future__ import annotations

from telegram import Update

from bot.play.words.help import help_text
from bot.telegram.context import Context
from bot.telegram.replies import answer_with
from bot.telegram.routes import Command, Feature
from bot.telegram.speakers import arguments, chat_of, services_of, texts_of


async def help_command(update: Update, context: Context) -> None:
    """/help: every command, with this bot's round lengths and the rules of fair play;
    /help yahtzee: how Yahtzee scores."""
    await answer_with(update, context, help_text(
        await texts_of(update, context), context.bot.username,
        (await services_of(context).rounds.chat_settings(chat_of(update).id)).seconds,
        arguments(context)), quote=False)


FEATURE = Feature("help", commands=(Command(("help",), help_command, owed=True, alone=True),))
