"""The bot's ExtBot, which reads a batch of updates one update at a time.

PTB reads a getUpdates batch all at once and, when one update in it does not read (a field PTB
requires is missing: a Bot API server older or newer than PTB, or a malformed update), logs the
batch and drops it unconfirmed — and the next poll asks for the same batch, for ever: one
unreadable update would stop the bot in every chat. Here an update that does not read is logged
(one line: its id and why) and handed on as its bare id, which no handler takes, so the next poll
confirms it and the bot goes on. The webhook reads one update a request (bot.telegram.webhook).

The cluster's polling ingress reads none: `RawUpdates` hands it each batch as Telegram sent it,
to be published as it is (bot.cluster.poller).
"""

from __future__ import annotations

import datetime as dtm
import logging
from collections.abc import Sequence
from typing import Any

from telegram import Update
from telegram._utils.defaultvalue import DEFAULT_NONE, DefaultValue
from telegram._utils.types import JSONDict, ODVInput
from telegram.ext import ExtBot

log = logging.getLogger(__name__)


class PollingBot(ExtBot[None]):
    async def get_updates(
        self,
        offset: int | None = None,
        limit: int | None = None,
        timeout: int | float | dtm.timedelta | None = None,
        allowed_updates: Sequence[str] | None = None,
        *,
        read_timeout: ODVInput[float] = DEFAULT_NONE,
        write_timeout: ODVInput[float] = DEFAULT_NONE,
        connect_timeout: ODVInput[float] = DEFAULT_NONE,
        pool_timeout: ODVInput[float] = DEFAULT_NONE,
        api_kwargs: JSONDict | None = None,
    ) -> tuple[Update, ...]:
        """getUpdates, each update read on its own (see the module's docstring)."""
        waits = timeout.total_seconds() if isinstance(timeout, dtm.timedelta) else timeout or 0
        reading = self._request[0].read_timeout if isinstance(read_timeout, DefaultValue) \
            else read_timeout
        batch = await self._post(
            "getUpdates",
            {"timeout": timeout, "offset": offset, "limit": limit,
             "allowed_updates": allowed_updates},
            read_timeout=(reading or 0) + waits,  # a long poll may wait that long for an answer
            write_timeout=write_timeout, connect_timeout=connect_timeout,
            pool_timeout=pool_timeout, api_kwargs=api_kwargs)
        updates = tuple(update for update in map(self._read, batch or ()) if update is not None)
        for update in updates:
            self.insert_callback_data(update)
        return updates

    def _read(self, data: Any) -> Update | None:
        """One update of a batch; one that does not read as its bare id (None: not even an
        id to confirm, which Telegram never sends)."""
        try:
            return Update.de_json(data, self)
        except Exception as error:  # PTB's reading raises TypeError, KeyError, ValueError...
            update_id = data.get("update_id") if isinstance(data, dict) else None
            if not isinstance(update_id, int) or isinstance(update_id, bool):
                log.warning("getUpdates gave something that is not an update: %.200r", data)
                return None
            log.warning("update %d does not read (%s: %.200s); skipped", update_id,
                        type(error).__name__, error)
            return Update(update_id)


class RawUpdates:
    """getUpdates and deleteWebhook for the cluster's polling ingress (its `Source`): a batch
    as Telegram sent it, the updates left as JSON for the workers to read."""

    def __init__(self, bot: ExtBot[Any], allowed_updates: Sequence[str]) -> None:
        self.bot = bot
        self.allowed_updates = list(allowed_updates)

    async def delete_webhook(self) -> None:
        await self.bot.delete_webhook(drop_pending_updates=False)

    async def get_updates(self, offset: int | None, timeout: float) -> list[Any]:
        reading = self.bot._request[0].read_timeout
        batch = await self.bot._post(
            "getUpdates",
            {"timeout": timeout, "offset": offset, "allowed_updates": self.allowed_updates},
            read_timeout=(reading or 0) + timeout)  # a long poll may wait that long
        return list(batch or ())
