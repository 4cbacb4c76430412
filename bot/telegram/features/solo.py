"""The solo modes' commands (bot.play.solo): /streak, hands alone in a private chat until the first
not solved; /practice, a hand of the player's weakest theme. In a group each says where it is
played."""

from __future__ import annotations

from telegram import Update

from bot.telegram.context import Context
from bot.telegram.routes import PRIVATE, Command, Feature
from bot.telegram.speakers import chat_of, player_of, services_of, target_of


async def streak(update: Update, context: Context) -> None:
    """/streak: a streak begins with its first hand (or says where it stands)."""
    await services_of(context).streaks.start(chat_of(update), player_of(update),
                                             target_of(update))


async def practice(update: Update, context: Context) -> None:
    """/practice: a hand of the player's weakest theme."""
    await services_of(context).practice.start(chat_of(update), player_of(update),
                                              target_of(update))


ALONE = frozenset({PRIVATE})
FEATURE = Feature("solo", commands=(Command(("streak",), streak, offered=ALONE),
                                    Command(("practice",), practice, offered=ALONE)))
