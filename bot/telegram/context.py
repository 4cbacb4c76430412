"""The application's typed state (PTB's ContextTypes with a bot-data class): what every handler,
button and timer reads — settings, the game services, the membership cache and the process's role
— as attributes, not string keys.

Filled by the composition root (bot.wiring) in post_init; a handler only runs after that, so
`services` is there whenever an update is handled. What the root opens for itself (the stores,
the pool, the leader's lease, the Mini App's server) is the root's, not kept here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot

from bot.play.services import Services
from bot.runtime.config import Config
from bot.runtime.health import STANDBY
from bot.telegram.bot_api_10 import Refusals
from bot.telegram.members import ChatMembers


class BotData:
    """Everything the face of one bot process reads, built empty by PTB and filled at start-up."""

    def __init__(self) -> None:
        self.config: Config | None = None
        self.members = ChatMembers()
        self.refusals = Refusals()  # the chats that lately refused a message's new form
        self._services: Services | None = None
        self.role = STANDBY
        self.lost_lead = False  # the exit status says so: a supervisor restarts a standby
        self.stop: Callable[[], None] | None = None  # how a leader that lost its lock stops
        self.lease_check: Callable[[], None] | None = None  # raises once the lead is lost
        self.stale_skipped = 0  # messages too old to act on when they arrived

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the services open in post_init, before any update")
        return self._services

    @services.setter
    def services(self, services: Services) -> None:
        self._services = services

    @property
    def settings(self) -> Config:
        if self.config is None:
            raise RuntimeError("build_application sets the config")
        return self.config


Context = CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotData]
App = Application[Any, Any, Any, Any, BotData, Any]  # the rest as PTB types it
CONTEXT_TYPES = ContextTypes(bot_data=BotData)
