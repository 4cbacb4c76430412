"""The solo modes' commands (bot.play.solo): /streak, hands alone in a private chat until the first
not solved; /storm, as many as one solves against the clock; with `top`, each one's boards;
/practice, a hand of the player's weakest theme. In a group each says where it is played (a
streak and a storm, with the group's own boards)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from telegram import Update

from bot.play.chats.people import Chat, Player
from bot.play.outcomes import Dealt, Said
from bot.play.ports import Target
from bot.play.services import Services
from bot.telegram.context import Context
from bot.telegram.grammar import UsageError, read_arguments, read_solo
from bot.telegram.replies import took_something, usage
from bot.telegram.routes import PRIVATE, Callback, Command, Feature
from bot.telegram.speakers import arguments, chat_of, player_of, services_of, target_of


class Mode(Protocol):
    """A solo mode's service, as its command reaches it (bot.play.solo: Streaks, Storms)."""

    async def start(self, chat: Chat, player: Player, target: Target | None = None
                    ) -> Dealt | Said: ...

    async def board(self, chat: Chat, player: Player, target: Target | None = None
                    ) -> Said: ...


def mode_command(name: str, mode_of: Callable[[Services], Mode]) -> Callback:
    """/<name>: the mode begins with its first hand (or says where it stands); /<name> top:
    its boards; anything else: its usage."""

    async def command(update: Update, context: Context) -> None:
        board = read_arguments(read_solo, arguments(context))
        mode = mode_of(services_of(context))
        if isinstance(board, UsageError):
            await usage(update, context, f"{name}_usage", board)
        elif board:
            await mode.board(chat_of(update), player_of(update), target_of(update))
        else:
            await mode.start(chat_of(update), player_of(update), target_of(update))

    return command


streak = mode_command("streak", lambda services: services.streaks)
storm = mode_command("storm", lambda services: services.storms)


async def practice(update: Update, context: Context) -> None:
    """/practice: a hand of the player's weakest theme."""
    if await took_something(update, context, "practice"):
        return
    await services_of(context).practice.start(chat_of(update), player_of(update),
                                              target_of(update))


ALONE = frozenset({PRIVATE})
FEATURE = Feature("solo", commands=(Command(("streak",), streak, offered=ALONE),
                                    Command(("storm",), storm, offered=ALONE),
                                    Command(("practice",), practice, offered=ALONE)))
