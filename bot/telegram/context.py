"""The application's typed state (PTB's ContextTypes with a bot-data class): what start-up opens
and every handler, button and timer reads — settings, services, stores, the solver pool and the
leadership — as attributes, not string keys.

Opened in post_init (bot.telegram.lifecycle); a handler only runs after that, so `services` and
`stores` are there whenever an update is handled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot

from bot.play.services import Services
from bot.runtime.config import Config
from bot.runtime.health import STANDBY
from bot.runtime.pool import SolverPool
from bot.store.protocols import LeaderLock
from bot.store.records import Round
from bot.store.stores import Stores
from bot.telegram.keyboards import MiniApp
from bot.telegram.members import ChatMembers


class BotData:
    """Everything one bot process holds, built empty by PTB and filled at start-up."""

    def __init__(self) -> None:
        self.config: Config | None = None
        self.members = ChatMembers()
        self._services: Services | None = None
        self._stores: Stores | None = None
        self.pool: SolverPool | None = None  # tests may hand one pool to many applications
        self.own_pool = False  # this application started its pool, so it shuts it down
        self.leader: LeaderLock | None = None
        self.role = STANDBY
        self.lost_lead = False  # the exit status says so: a supervisor restarts a standby
        self.waiting: asyncio.Task[None] | None = None  # waiting for the lead: a stop cancels
        self.lead_watch: asyncio.Task[None] | None = None
        self.stop: Callable[[], None] | None = None  # how a leader that lost its lock stops
        self.stale_skipped = 0  # messages too old to act on when they arrived
        self.mini_app: Callable[[Round], MiniApp | None] | None = None  # a deal's Mini App button
        self.web_face: Any = None  # the Mini App's own HTTP server (bot.webapp), when polling

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the services open in post_init, before any update")
        return self._services

    @services.setter
    def services(self, services: Services) -> None:
        self._services = services

    @property
    def stores(self) -> Stores:
        if self._stores is None:
            raise RuntimeError("the stores open in post_init, before any update")
        return self._stores

    @stores.setter
    def stores(self, stores: Stores) -> None:
        self._stores = stores

    @property
    def opened_stores(self) -> Stores | None:
        """The stores if they were opened (what a shut-down closes)."""
        return self._stores

    @property
    def settings(self) -> Config:
        if self.config is None:
            raise RuntimeError("build_application sets the config")
        return self.config


Context = CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotData]
App = Application[Any, Any, Any, Any, BotData, Any]  # the rest as PTB types it
CONTEXT_TYPES = ContextTypes(bot_data=BotData)
