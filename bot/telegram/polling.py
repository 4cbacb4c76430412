"""Long polling: the bot's ExtBot, which reads a batch of updates one update at a time, and the
poller, which asks Telegram for updates only while the intake has room for them.

PTB reads a getUpdates batch all at once and, when one update in it does not read (a field PTB
requires is missing: a Bot API server older or newer than PTB, or a malformed update), logs the
batch and drops it unconfirmed — and the next poll asks for the same batch, for ever: one
unreadable update would stop the bot in every chat. Here an update that does not read is logged
(one line: its id and why) and handed on as its bare id, which no handler takes, so the next poll
confirms it and the bot goes on. The webhook reads one update a request (bot.telegram.webhook).

`Poller` is the long poll (PTB's Updater, but bounded): it waits for room in the intake
(bot.telegram.intake) — for a batch's worth once the intake was full — asks for at most that
many updates, and puts them in; while the intake is
full it sends no getUpdates, so the updates wait at Telegram, in order. `serve` runs the bot
with it until a stop signal: start-up, the poll, then in order the stop — no more polls, the
updates in hand handled to their end, and only then the offset confirmed to Telegram, so an
update in hand when the process is killed meanwhile comes again at the next start (and is
handled once: the update-once gate).

The cluster's polling ingress reads none: `RawUpdates` hands it each batch as Telegram sent it,
to be published as it is (bot.cluster.poller).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from telegram import Update
from telegram._utils.defaultvalue import DEFAULT_NONE, DefaultValue
from telegram._utils.types import JSONDict, ODVInput
from telegram.error import InvalidToken, RetryAfter, TelegramError, TimedOut
from telegram.ext import Application, ExtBot

from bot.runtime.doors import Doors
from bot.telegram.intake import GATHER_SECONDS, MAX_BATCH, Intake
from bot.telegram.lifecycle import stop_application, stop_handling
from bot.telegram.over_budget import unread

log = logging.getLogger(__name__)

POLL_SECONDS = 10  # a long poll's wait for updates (PTB's run_polling waits as long)
FIRST_PAUSE, LONGEST_PAUSE = 1.0, 30.0  # after a failed poll, growing by half each time
SAY_EVERY = 60.0  # seconds between two lines about polls failing in a row
# a batch's updates read into PTB's objects this many at a time, the event loop let run between
# (every chat's replies wait for a step that reads a whole batch: a flood's hundred presses took
# 10 to 50 ms); those dropped unread (PastBudget: a look at the JSON, 9 us) are not counted, so a
# flood's batch is got through in a step or two, not twenty-five: the updates behind it at
# Telegram wait for the flood's batches to be polled, one after the other
READ_AT_ONCE = 4


class PastBudget:
    """An update dropped unread, past its sender's budget (bot.telegram.over_budget.unread):
    its id alone, for the poll to confirm; never put in the intake. Not one of PTB's Updates:
    making one (every field set, then frozen) cost 28 µs, three times the look that dropped
    it, and a flood's batch is a hundred of them."""

    __slots__ = ("update_id",)

    def __init__(self, update_id: int) -> None:
        self.update_id = update_id


# The methods whose answer echoes the message the bot sent or edited, and what of it the bot
# reads (its id, where it is: PTB's Message needs its date and chat): PTB reads the whole echo
# into a Message, entities, keyboard and sender included, 190 µs a message against 80 for these
# fields — a tenth of an update's CPU, two sends an update.
ECHOED = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup"})
ECHO_KEPT = ("message_id", "date", "message_thread_id", "is_topic_message",
             "ephemeral_message_id")
ECHO_CHAT_KEPT = ("id", "type", "is_forum")


def echo(result: Any) -> Any:
    """What the bot reads of a sent message's echo (a bare True, for an inline message's edit,
    as it came)."""
    if not isinstance(result, dict) or not isinstance(result.get("chat"), dict):
        return result
    kept = {key: result[key] for key in ECHO_KEPT if key in result}
    kept["chat"] = {key: result["chat"][key] for key in ECHO_CHAT_KEPT if key in result["chat"]}
    return kept


class PollingBot(ExtBot[None]):
    def __init__(self, *args: Any, doors: Doors | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._doors = doors  # the budgets a polled update is looked at against, still JSON

    async def _post(self, endpoint: str, data: JSONDict | None = None, *,
                    read_timeout: ODVInput[float] = DEFAULT_NONE,
                    write_timeout: ODVInput[float] = DEFAULT_NONE,
                    connect_timeout: ODVInput[float] = DEFAULT_NONE,
                    pool_timeout: ODVInput[float] = DEFAULT_NONE,
                    api_kwargs: JSONDict | None = None) -> Any:
        """PTB's request, and of a sent message's echo only what the bot reads (`echo`)."""
        result = await super()._post(endpoint, data, read_timeout=read_timeout,
                                     write_timeout=write_timeout,
                                     connect_timeout=connect_timeout,
                                     pool_timeout=pool_timeout, api_kwargs=api_kwargs)
        return echo(result) if endpoint in ECHOED else result

    async def get_updates(  # type: ignore[override]  # some are PastBudget: the poll's alone
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
    ) -> tuple[Update | PastBudget, ...]:
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
        read: list[Update | PastBudget] = []
        parsed = 0  # updates read into PTB's objects since the loop last ran
        for data in batch or ():
            if parsed == READ_AT_ONCE:  # a hundred presses read at once held the loop 10-50 ms
                await asyncio.sleep(0)
                parsed = 0
            update = self._read(data)
            if update is None:
                continue
            read.append(update)
            if not isinstance(update, PastBudget):  # one dropped unread cost a look, not a read
                self.insert_callback_data(update)
                parsed += 1
        return tuple(read)

    def _read(self, data: Any) -> Update | PastBudget | None:
        """One update of a batch; one that does not read as its bare id, one past its sender's
        budget as a `PastBudget` (None: not even an id to confirm, which Telegram never
        sends)."""
        if unread(self._doors, data):
            return PastBudget(data["update_id"])
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


class Poller:
    """getUpdates while the intake has room (see the module's docstring). `offset` confirms to
    Telegram every update before it: it moves past an update once it is in the intake."""

    def __init__(self, bot: ExtBot[Any], intake: Intake, allowed_updates: Sequence[str],
                 timeout: int = POLL_SECONDS) -> None:
        self.bot = bot
        self.intake = intake
        self.allowed_updates = list(allowed_updates)
        self.timeout = timeout
        self.gather = GATHER_SECONDS  # the longest wait for a batch's room once some is free
        self.offset: int | None = None
        self.polls = 0
        self._failing_since: float | None = None
        self._said = float("-inf")

    async def run(self, stop: asyncio.Event) -> None:
        """Poll until `stop` is set: a long poll in flight then is cancelled (its updates, if
        any, stay with Telegram: the offset never moved past them). The polls run one after
        another in one task: a task and a wait of their own for each poll cost it three more
        turns of the event loop between two polls, and on a busy loop a turn is milliseconds
        (a flood's forty batches came 9-25 ms apart while every update behind them waited)."""
        polling = asyncio.ensure_future(self._polls(stop))
        stopping = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait({polling, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            if not polling.done():
                polling.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await polling
        if not polling.cancelled():
            polling.result()  # what no branch below handles goes up, as it always did

    async def _polls(self, stop: asyncio.Event) -> None:
        pause = 0.0
        while not stop.is_set():
            try:
                await self.poll_once()
                pause = 0.0
                self._recovered()
            except RetryAfter as error:  # Telegram says when: then, and a little after
                pause = _retry_seconds(error) + 0.5
                self._failed(error, pause)
            except TimedOut:  # a long poll that outlived its read timeout: at once again
                pause = 0.0
            except InvalidToken:
                log.error("getUpdates: Telegram rejected the token (revoked in @BotFather?); "
                          "stopping")
                stop.set()
                return
            except TelegramError as error:  # unreachable, 409 (another poller), a 5xx
                pause = FIRST_PAUSE if not pause else min(LONGEST_PAUSE, 1.5 * pause)
                self._failed(error, pause)
            if pause:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), pause)

    async def poll_once(self) -> int:
        """Wait for room, then one getUpdates for at most that many updates, put in the intake;
        how many came."""
        room = await self.intake.room(MAX_BATCH, least=self.intake.batch(),
                                      gather=self.gather)
        try:
            updates = await self.bot.get_updates(
                offset=self.offset, limit=room, timeout=self.timeout,
                allowed_updates=self.allowed_updates)
        except BaseException:
            self.intake.give_back(room)
            raise
        self.polls += 1
        taken = 0
        for update in updates[:room]:  # Telegram never sends more than asked
            if not isinstance(update, PastBudget):  # dropped unread: confirmed, never in hand
                self.intake.take(update)
                taken += 1
        self.intake.give_back(room - taken)
        if updates:
            self.offset = updates[min(len(updates), room) - 1].update_id + 1
        return len(updates)

    async def confirm(self) -> None:
        """Tell Telegram the updates taken are done with (a last getUpdates from the offset,
        waiting for nothing), so the next start does not get them again."""
        if self.offset is None:
            return
        try:
            await self.bot.get_updates(offset=self.offset, limit=1, timeout=0,
                                       allowed_updates=self.allowed_updates)
        except TelegramError as error:  # they come again at the next start, handled once
            log.warning("could not confirm the last updates to Telegram (%s); the next start "
                        "gets them again and skips them", error)

    def _failed(self, error: TelegramError, pause: float) -> None:
        """One line for a run of failed polls, then one a minute at most."""
        now = time.monotonic()
        if self._failing_since is None:
            self._failing_since = now
        if now - self._said >= SAY_EVERY:
            self._said = now
            log.warning("getUpdates failed (%s: %s); trying again in %.1f s",
                        type(error).__name__, " ".join(str(error).split())[:200], pause)

    def _recovered(self) -> None:
        if self._failing_since is not None:
            log.info("getUpdates answers again after %.0f s",
                     time.monotonic() - self._failing_since)
        self._failing_since, self._said = None, float("-inf")


def _retry_seconds(error: RetryAfter) -> float:
    retry = error._retry_after  # a timedelta (the whole-seconds attribute is deprecated)
    return retry.total_seconds() if isinstance(retry, dtm.timedelta) else float(retry)


async def serve(application: Application, poller: Poller, stop: asyncio.Event,
                start_up: Callable[[], Awaitable[bool]]) -> None:
    """Long polling until `stop` is set, for an application the composition root built over a
    bot that reached the Bot API: `start_up` (the menus, the lead, the resume: False when the
    stop came first), the webhook deleted, the poll; then the stop in order (see the module's
    docstring). The root closes what it opened (the stores, the pool, the lease) after."""
    if not await start_up():
        return
    try:
        await _delete_webhook(application.bot)  # getUpdates is refused while one is set
        await application.start()
        await poller.run(stop)
    finally:
        log.info("stopping: no more updates taken; handling the %d in hand",
                 poller.intake.in_hand)
        await stop_handling(application)  # the updates in hand handled, the jobs ended
        await poller.confirm()
        await stop_application(application)


async def _delete_webhook(bot: ExtBot[Any], tries: int = 3) -> None:
    """deleteWebhook, keeping the updates waiting; tried `tries` times a second apart (the
    Bot API answered getMe a moment ago)."""
    for tried in range(tries):
        try:
            await bot.delete_webhook(drop_pending_updates=False)
            return
        except TelegramError:
            if tried == tries - 1:
                raise
            await asyncio.sleep(1.0)
