"""The community's commands: a greeting, the boards and a player's own record. Apart from the
round's handlers (bot.telegram.handlers) because they answer about people, not about a puzzle."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update

from bot.play.arguments import UsageError, read_arguments, read_top
from bot.telegram.context import Context
from bot.telegram.handlers import usage
from bot.telegram.sending import reply
from bot.telegram.speakers import arguments, chat_of, player_of, services_of, texts_of
from bot.text import markup


async def start(update: Update, context: Context) -> None:
    """/start: a greeting; in a private chat, the games in brief."""
    texts = texts_of(update, context)
    await reply(update, context, texts("start", name=markup.name(player_of(update).first_name)),
                quote=False)


async def top(update: Update, context: Context) -> None:
    """/top [all] [24|countdown|yahtzee]: the leaderboard of this chat or of every chat."""
    wanted = read_arguments(read_top, arguments(context))
    if isinstance(wanted, UsageError):
        await usage(update, context, "top_usage", wanted)
        return
    await reply(update, context, await services_of(context).community.standings.top(
        chat_of(update), player_of(update), *wanted), quote=False)


async def stats(update: Update, context: Context) -> None:
    """/stats: your points, wins, rounds, fastest win and streaks in this chat, per game."""
    await reply(update, context, await services_of(context).community.standings.stats(
        chat_of(update), player_of(update)))


# (callback-data pattern, handler) of the community's own buttons, registered before the
# round's buttons (bot.telegram.buttons) in bot.telegram.app
PRESSES: list[tuple[str, Callable[[Update, Context], Coroutine[Any, Any, None]]]] = []

# (commands, handler), registered with the round's commands in bot.telegram.app
COMMANDS = [
    (("start",), start),
    (("top",), top),
    (("stats",), stats),
]
