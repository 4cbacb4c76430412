"""How one message reaches a chat: the call that writes, with what Telegram says of the chat
found around it, and the forms tried in turn.

What Telegram says of the chat itself is found once, in `guarded`, around every call that writes,
and *returned* (a `Sent`'s fate), never acted on here: a group that became a supergroup (the
message is sent there again, where that makes sense: the new id is where it belongs), a chat or
topic the bot can no longer write to; play acts on it (bot.play.places). Another refusal of
one message is logged. None of them reaches the error handler, which would apologise.

What is for one person alone goes to them alone where Telegram takes it, and solutions go as
mathematics (a rich message) where it takes that: `deliver` tries each way in turn, moving on
only when Telegram refuses the new form itself (bot.telegram.bot_api_10.declined; a chat's
refusal is remembered a while, `Refusals`), and ends with the plain public message the bot has
always sent. Any other error on a new form is met as the plain message's would be: a message
refused for another reason is not made public. An update that waited past Telegram's window for
an ephemeral answer skips the ephemeral ways without asking (bot_api_10.WHISPER_WITHIN).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from telegram.error import BadRequest, ChatMigrated, EndPointNotFound, Forbidden

from bot.play.ports import Fate, Gone, Moved
from bot.runtime import arrivals
from bot.telegram import bot_api_10
from bot.telegram.bot_api_10 import EPHEMERAL, NEW_FORMS, WHISPER_WITHIN, Declined, Refusals

log = logging.getLogger(__name__)
T = TypeVar("T")
# What a 400 says when the bot may not write to the chat at all (it was deleted, or the bot may
# not post there), or only to the forum topic (deleted or closed); PTB drops "Bad Request: ".
CHAT_REFUSALS = ("chat not found", "group chat was deactivated", "chat_write_forbidden",
                 "not enough rights to send", "have no rights to send",
                 "need administrator rights", "bot is not a member", "bot was kicked")
TOPIC_REFUSALS = ("message thread not found", "topic_closed", "topic_deleted")


def refused_place(error: Exception) -> str | None:
    """"chat" when Telegram says the bot cannot write to the chat (403, or a 400 saying as
    much), "topic" when only the forum topic refuses it, None for anything else."""
    if isinstance(error, Forbidden):
        return "chat"
    if isinstance(error, BadRequest):
        said = str(error).lower()
        if any(words in said for words in CHAT_REFUSALS):
            return "chat"
        if any(words in said for words in TOPIC_REFUSALS):
            return "topic"
    return None


def fate_of(error: Exception, chat_id: int, topic: int, quiet: bool = False) -> Fate | None:
    """What a refusal says of the chat (None: only this message was refused, logged)."""
    place = refused_place(error)
    if place is None:
        (log.info if quiet else log.warning)("Telegram refused a message to chat %s: %s",
                                             chat_id, error)
        return None
    return Gone(chat_id, topic if place == "topic" else None)


@dataclass
class Sent(Generic[T]):
    """What a guarded call gave (None: nothing was sent), and the chat's fate it found."""

    value: T | None = None
    fate: Fate | None = None
    unsure: bool = False  # the request failed in transport: it may have reached the chat


async def guarded(chat_id: int, topic: int, send: Callable[[int], Awaitable[T]], *,
                  follow: bool = True, quiet: bool = False) -> Sent[T]:
    """`send(chat_id)`, with what Telegram says of the chat found here: a migrated group's new
    id (the message goes there, if `follow`), a chat or topic the bot cannot write to; another
    refusal of this message is logged (`quiet`: as information — a reaction turned off, a deal
    that can't be edited, where words stand in). Network errors and flood waits are the
    caller's (a restart sends an owed result)."""
    try:
        return Sent(await send(chat_id))
    except ChatMigrated as moved:
        fate: Fate = Moved(chat_id, moved.new_chat_id)
        if not follow:
            return Sent(None, fate)
        try:
            return Sent(await send(moved.new_chat_id), fate)
        except (Forbidden, BadRequest) as error:
            fate_of(error, moved.new_chat_id, 0, quiet)  # the move is what must be settled
            return Sent(None, fate)
    except (Forbidden, BadRequest) as error:
        return Sent(None, fate_of(error, chat_id, topic, quiet))


Attempt = tuple[frozenset[str], Callable[[int], Awaitable[T]]]
"""One way to send a message: the features of Bot API 10 it needs (EPHEMERAL, RICH; none: the
plain message), and its send to a chat id."""


class _Declining(Exception):
    """Telegram declined a new form: carried past `guarded`, which handles everything else."""

    def __init__(self, found: Declined) -> None:
        super().__init__(found)
        self.found = found


class _Unchanged(Exception):
    """An edit that changes nothing: it shows that already."""


async def attempted(chat_id: int, topic: int, features: frozenset[str],
                    send: Callable[[int], Awaitable[T]], *,
                    follow: bool = True) -> Sent[T] | Declined:
    """`send(chat_id)` in a new form (`features`), with what Telegram says handled as `guarded`
    handles the plain message's — a migrated group followed (if `follow`), a chat or topic
    gone, another refusal of this message logged (nothing then goes public) — except Telegram
    declining the form itself (bot_api_10.declined), which is handed back; an edit that changes
    nothing is done."""
    async def checked(to: int) -> T:
        try:
            return await send(to)
        except (BadRequest, EndPointNotFound) as error:
            if isinstance(error, BadRequest) and "not modified" in str(error).lower():
                raise _Unchanged from error
            found = bot_api_10.declined(error, features)
            if found is None:
                raise
            raise _Declining(found) from error

    try:
        return await guarded(chat_id, topic, checked, follow=follow)
    except _Unchanged:
        return Sent()
    except _Declining as declining:
        log.info("Telegram declined a message's new form in chat %s: %s", chat_id,
                 declining.__cause__)
        return declining.found


async def tried(chat_id: int, topic: int, send: Callable[[int], Awaitable[T]],
                features: frozenset[str] = NEW_FORMS) -> Sent[T] | None:
    """`attempted`, staying in a migrated group (an edit is of the message there): None when
    Telegram declined the new form."""
    done = await attempted(chat_id, topic, features, send, follow=False)
    return None if isinstance(done, Declined) else done


class _Declines:
    """What Telegram declined while one message was being delivered, and what follows: a
    chat's refusal of a feature is remembered (`Refusals`); a refusal naming no feature (a
    Bot API without the method) is put down to the features it needed that a later success
    did without, or to its only one; a refusal of this message alone (the 15 seconds past)
    skips the feature for this message only."""

    def __init__(self, chat_id: int, refusals: Refusals) -> None:
        self.chat_id = chat_id
        self.refusals = refusals
        self.unnamed: list[frozenset[str]] = []
        self.passed: set[str] = set()

    def skips(self, features: frozenset[str]) -> bool:
        if EPHEMERAL in features and arrivals.waited() >= WHISPER_WITHIN:
            return True  # Telegram's 15 seconds are past (bot_api_10.WHISPER_WITHIN)
        return bool(features & self.passed) or \
            not all(self.refusals.allows(self.chat_id, feature) for feature in features)

    def note(self, found: Declined, features: frozenset[str]) -> None:
        if found.feature is not None and found.chats:
            self.refusals.refused(self.chat_id, found.feature)
        elif found.feature is not None:
            self.passed.add(found.feature)
        else:
            if len(features) == 1:
                self.refusals.refused(self.chat_id, next(iter(features)))
            self.unnamed.append(features)

    def settle(self, features: frozenset[str]) -> None:
        """A way with `features` went: what the declined ones needed beyond it is refused."""
        for earlier in self.unnamed:
            for feature in earlier - features:
                self.refusals.refused(self.chat_id, feature)


async def deliver(chat_id: int, topic: int, refusals: Refusals,
                  attempts: list[Attempt[T]]) -> Sent[T]:
    """The first of `attempts` that Telegram takes, skipping those the chat refused lately.
    Only Telegram declining a new form moves on to the next way (`_Declines` says what is
    remembered); anything else ends it as the plain message's send would (`attempted`). The
    last attempt, needing none, is the plain message, sent as `guarded` sends."""
    declines = _Declines(chat_id, refusals)
    for features, send in attempts:
        if declines.skips(features):
            continue
        done = await attempted(chat_id, topic, features, send) if features else \
            await guarded(chat_id, topic, send)
        if isinstance(done, Declined):
            declines.note(done, features)
            continue
        declines.settle(features)
        return done
    return Sent()
