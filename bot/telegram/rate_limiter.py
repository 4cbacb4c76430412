"""The bot's rate limiter, a BaseRateLimiter of its own (not PTB's AIORateLimiter), given to its
ExtBot when RATE_LIMIT is on: Telegram's limits on sending kept as sliding windows
(bot.runtime.send_budget), the look-ups apart from the messages, the overall rate the process's
own or shared by a cluster's workers (docs/scaling.md)."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from typing import Any, Protocol

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.runtime.config import LOOKUP_RATE
from bot.runtime.send_budget import ChatShares, LocalBudget, is_lookup

log = logging.getLogger(__name__)


class Budget(Protocol):
    """The bot's overall send budget: the process's own (bot.runtime.send_budget), or one
    shared with other processes (a cluster's workers: bot/cluster/budget.py)."""

    def take(self) -> Awaitable[object]: ...

    def pause(self, seconds: float) -> Awaitable[None]: ...


class RateLimiter(BaseRateLimiter[int]):
    """Telegram's limits on sending, kept as sliding windows (bot.runtime.send_budget): every
    Bot API call that names a chat and changes something — a message, an edit, a reaction, a
    chat action — waits for its chat's own share (20 a minute in a group, about one a second in
    a private chat), then for the overall rate (SEND_RATE a second: the process's own budget,
    or `shared`, one kept with other workers, opened before the limiter is built). A look-up
    (getChatMember, any read that names a chat: `is_lookup`) is no message: it waits for the
    look-ups' own rate alone (LOOKUP_RATE a second, this process's), so members opening the
    Mini App never hold their group's deal back. A 429 pauses the budget of what it refused —
    the messages' for every message (and, shared, for every worker), the look-ups' for every
    look-up — and the call is tried again after its wait, up to RETRIES times. A chat's calls
    go in the order asked."""

    RETRIES = 5

    def __init__(self, send_rate: int, lookup_rate: int = LOOKUP_RATE,
                 shared: Budget | None = None) -> None:
        self.budget: Budget = shared if shared is not None else LocalBudget(send_rate)
        self.chats = ChatShares()
        self.lookups: Budget = LocalBudget(lookup_rate)

    async def initialize(self) -> None:
        """Nothing to open."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def process_request(self, callback: Callable[..., Coroutine[Any, Any, Any]],
                              args: Any, kwargs: dict[str, Any], endpoint: str,
                              data: dict[str, Any], rate_limit_args: int | None) -> Any:
        chat = data.get("chat_id")
        lookup = is_lookup(endpoint)
        retries = self.RETRIES if rate_limit_args is None else rate_limit_args
        for attempt in range(retries + 1):
            if chat is not None:  # what Telegram's limits count
                await self.turn(chat, lookup)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as error:
                seconds = retry_seconds(error)
                if attempt == retries:
                    log.error("%s: Telegram still said too many requests after %d tries",
                              endpoint, retries + 1)
                    raise
                log.info("%s: Telegram said too many requests; trying again in %.1f s",
                         endpoint, seconds)
                # every call of its kind (a message, a look-up) to a chat waits it out
                await (self.lookups if lookup else self.budget).pause(seconds)
                if chat is None:
                    await asyncio.sleep(seconds)
        raise AssertionError("unreachable: the last try returns or raises")

    async def turn(self, chat: int | str, lookup: bool) -> None:
        """Wait until a call to `chat` may go: a look-up in the look-ups' rate alone, anything
        else in the chat's share, then in the overall rate."""
        if lookup:
            await self.lookups.take()
            return
        await self.chats.take(chat)
        await self.budget.take()


def retry_seconds(error: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB 22 warns that the whole-seconds form will go
        warnings.simplefilter("ignore")
        retry = error.retry_after
    return retry.total_seconds() if isinstance(retry, timedelta) else float(retry)
