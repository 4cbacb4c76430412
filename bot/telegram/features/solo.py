"""The solo modes' commands (bot.play.solo): /streak, hands alone in a private chat until the first
not solved; /storm, as many as one solves against the clock; with `top`, each one's boards;
/practice, a hand of the player's weakest theme. In a group each says where it is played (a
streak and a storm, with the group's own boards)."""

from __future__ import annotations

from telegram import Update

from bot.telegram.context import Context
from bot.telegram.grammar import UsageError, read_arguments, read_solo
from bot.telegram.replies import took_something, usage
from bot.telegram.routes import PRIVATE, Command, Feature
from bot.telegram.speakers import arguments, chat_of, player_of, services_of, target_of


async def streak(update: Update, context: Context) -> None:
    """/streak: a streak begins with its first hand (or says where it stands); /streak top: the
    longest streaks of the season and of all time."""
    board = read_arguments(read_solo, arguments(context))
    streaks = services_of(context).streaks
    if isinstance(board, UsageError):
        await usage(update, context, "streak_usage", board)
    elif board:
        await streaks.board(chat_of(update), player_of(update), target_of(update))
    else:
        await streaks.start(chat_of(update), player_of(update), target_of(update))


async def storm(update: Update, context: Context) -> None:
    """/storm: a storm begins with its first hand (or says where it stands); /storm top: the
    best storms of the day and the season."""
    board = read_arguments(read_solo, arguments(context))
    storms = services_of(context).storms
    if isinstance(board, UsageError):
        await usage(update, context, "storm_usage", board)
    elif board:
        await storms.board(chat_of(update), player_of(update), target_of(update))
    else:
        await storms.start(chat_of(update), player_of(update), target_of(update))


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
