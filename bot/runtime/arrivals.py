"""When the update being handled reached the bot, so that a player's time counts to the moment
their answer came in, not to the moment its turn to be judged came.

Under a burst an update waits before it is judged: in the fair queue (bot.telegram.fairness)
behind other chats' updates, or in a cluster's stream until its worker pulls it; a tournament
deals one hand to hundreds of groups at once, and their answers then wait behind each other's
results, which Telegram lets out at 30 a second. Timed when judged, the last of 300 answers of
one second would be timed 10 s slow. So whoever takes an update in says when it arrived
(`arrived`, around its handling: the fair processor for polled and webhook updates, the worker
from the time the broker stored it), and the answer's handler asks how long ago that was
(`waited`). A context variable carries it, since the update reaches its handler through
python-telegram-bot, whose handlers take only the update and a context; each update is handled
in a task of its own, and a task sees only its own.

A message also says when Telegram dated it: one that waited there (the bot's intake was full) is
taken in as having arrived then (`held`), so that what its handling decides from the wait (an
ephemeral reply Telegram would refuse 15 s after the message: bot.telegram.delivery) counts the
whole wait, not only the bot's share.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import datetime

# when the update in hand arrived, on time.monotonic; None outside the handling of one
_ARRIVED: ContextVar[float | None] = ContextVar("arrived", default=None)
# a message's own date (Telegram's clock, whole seconds) is believed as a bound on how long it
# waited at Telegram only within this many seconds: older means a clock that is off, not a
# wait (and a round lasts minutes, so nothing older could time an answer anyway)
HELD_BELIEVED = 3600.0
monotonic = time.monotonic  # the clock arrivals are told on (a test's own, in tests)


@contextlib.contextmanager
def arrived(at: float | None = None) -> Iterator[None]:
    """The update handled inside the block arrived at `at` (`monotonic`; now by default) —
    unless the one who took it in said an earlier time already (the worker, from the time the
    broker stored it, before the fair processor, which may know an earlier one from Telegram's
    date)."""
    at = monotonic() if at is None else at
    before = _ARRIVED.get()
    if before is not None and before <= at:
        yield
        return
    token = _ARRIVED.set(at)
    try:
        yield
    finally:
        _ARRIVED.reset(token)


def waited(sent: datetime | None = None, now: float | None = None) -> float:
    """Seconds since the update in hand arrived (0 outside one); with `sent`, the message's own
    date, at least the time it waited at Telegram before the bot took it (an intake that was
    full leaves updates there): Telegram dates a message in whole seconds, so it was sent
    before `sent` + 1 s, and that bounds the error to a second."""
    at = _ARRIVED.get()
    here = 0.0 if at is None else max(0.0, monotonic() - at)
    return here if sent is None else max(here, held(sent, now))


# the updates that are a message: Telegram's date is when it was sent (a press's message is
# the deal it is under, dated when that was sent, so a press has no date of its own)
DATED = ("message", "edited_message", "channel_post", "edited_channel_post", "business_message",
         "edited_business_message")


def dated(update: object) -> datetime | None:
    """When Telegram dated the update's message (an edit by its edit's date); None for an
    update that is no message."""
    for name in DATED:
        message = getattr(update, name, None)
        if message is not None:
            return getattr(message, "edit_date", None) or getattr(message, "date", None)
    return None


def held(sent: datetime | None, now: float | None = None) -> float:
    """At least how long a message Telegram dated `sent` (None: no message) waited there before
    the bot took it: Telegram dates in whole seconds, so it was sent before `sent` + 1 s (0 for
    a date in the future or more than HELD_BELIEVED ago: a clock that is off)."""
    if sent is None:
        return 0.0
    behind = (time.time() if now is None else now) - sent.timestamp() - 1.0
    return behind if 0.0 < behind <= HELD_BELIEVED else 0.0
