"""The application's typed state (PTB's ContextTypes with a bot-data class): what every handler,
button and timer reads — settings, the game services, whether this process leads, the membership
cache, the chats that refused a message's new form, the menus — as attributes, not string keys.

The composition root (bot.wiring) builds the services and the rest first and hands them to the
application's builder as the class PTB makes the bot data with (`made_of`): the bot data is whole
when the application exists, and nothing is written onto it later. What the root opens for
itself (the stores, the pool, the lease, the Mini App's server) is the root's, not kept here.
"""

from __future__ import annotations

import itertools
from typing import Any

from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot

from bot.play.games import round_lengths
from bot.play.services import Services
from bot.runtime.config import Config
from bot.runtime.lead import Lead
from bot.telegram.bot_api_10 import Refusals
from bot.telegram.members import ChatMembers
from bot.telegram.menus import Menus


class BotData:
    """Everything the face of one bot process reads, given whole at its construction."""

    def __init__(self, settings: Config, services: Services, lead: Lead, members: ChatMembers,
                 refusals: Refusals, menus: Menus) -> None:
        self.settings = settings
        self.services = services
        self.lead = lead  # whether this process plays now (a standby waits for the lead)
        self.members = members
        self.refusals = refusals  # the chats that lately refused a message's new form
        self.menus = menus
        self.stale = itertools.count(1)  # counts the messages too old to act on when they came
        # a message older than the longest round (as the environment sets them) is history
        self.longest_round = max(round_lengths(settings).values())


Context = CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotData]
App = Application[Any, Any, Any, Any, BotData, Any]  # the rest as PTB types it
Types = ContextTypes[Context, dict[Any, Any], dict[Any, Any], BotData]


def made_of(settings: Config, services: Services, lead: Lead, members: ChatMembers,
            refusals: Refusals, menus: Menus) -> Types:
    """PTB's context types whose bot data is made of these parts. PTB makes the bot data
    itself, calling the class it is given with no argument, so it is given a class whose
    construction takes the parts from here."""

    class Made(BotData):
        def __init__(self) -> None:
            super().__init__(settings, services, lead, members, refusals, menus)

    return ContextTypes(context=CallbackContext, bot_data=Made)
