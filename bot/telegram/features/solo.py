"""The solo modes' commands: /streak, hands alone in a private chat until the first not solved
(bot.play.solo). In a group it says where it is played."""

from __future__ import annotations

from telegram import Update

from bot.telegram.context import Context
from bot.telegram.routes import PRIVATE, Command, Feature
from bot.telegram.speakers import chat_of, player_of, services_of, target_of


async def streak(update: Update, context: Context) -> None:
    """/streak: a streak begins with its first hand (or says where it stands)."""
    await services_of(context).streaks.start(chat_of(update), player_of(update),
                                             target_of(update))


FEATURE = Feature("solo", commands=(Command(("streak",), streak, offered=frozenset({PRIVATE})),))
