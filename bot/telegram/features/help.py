"""/help: what the bot plays, with this chat's round lengths, and the rules of fair play; and
what a command the bot does not have gets, when it was sent to the bot."""

from __future__ import annotations

from telegram import MessageEntity, Update
from telegram.ext import MessageHandler, filters

from bot.play.asking.usage import UsageError, read_arguments
from bot.play.games.help import help_text, read_topic
from bot.telegram.context import Context
from bot.telegram.replies import answer_with, usage
from bot.telegram.routes import Command, Feature
from bot.telegram.speakers import arguments, chat_of, services_of, texts_of
from bot.text import markup

COMMAND_SHOWN = 33  # characters of an unknown command quoted back: its slash and Telegram's 32


async def help_command(update: Update, context: Context) -> None:
    """/help: every command, with this bot's round lengths and the rules of fair play;
    /help <topic>: how the game of that topic scores; anything else, refused."""
    topic = read_arguments(read_topic, arguments(context))
    if isinstance(topic, UsageError):
        await usage(update, context, "help_usage", topic)
        return
    services = services_of(context)
    for part in help_text(
            await texts_of(update, context), context.bot.username,
            (await services.rounds.chat_settings(chat_of(update).id)).seconds,
            services.storms.seconds, topic):
        if not await answer_with(update, context, part, quote=False):
            break  # the chat is gone, or refused it: the rules would fare no better


def unknown_to_us(update: Update, username: str | None) -> str | None:
    """The command a message opens with, as typed, when it is one the bot does not have and
    was sent to the bot: in a private chat, or in a group with @ the bot's name (a bare /foo
    in a group may be another bot's, and /foo@other is: neither is answered). None else."""
    message = update.effective_message
    if message is None or not message.text or not message.entities:
        return None
    first = message.entities[0]
    if first.type != MessageEntity.BOT_COMMAND or first.offset != 0:
        return None
    command = message.text[:first.length]
    _, at, addressee = command.partition("@")
    if at:
        return command if username and addressee.lower() == username.lower() else None
    chat = update.effective_chat
    return command if chat is not None and chat.type == "private" else None


async def unknown_command(update: Update, context: Context) -> None:
    """A command no feature takes, sent to the bot: it says so and names /help, rather than
    nothing (reached only after every command's handler passed it by)."""
    command = unknown_to_us(update, context.bot.username)
    if command is None:
        return
    shown = command if len(command) <= COMMAND_SHOWN else command[:COMMAND_SHOWN] + "…"
    texts = await texts_of(update, context)
    await answer_with(update, context, texts("unknown_command", command=markup.typed(shown)))


FEATURE = Feature(
    "help", commands=(Command(("help",), help_command, owed=True, alone=True),),
    updates=(MessageHandler(filters.UpdateType.MESSAGE & filters.COMMAND, unknown_command),))
