"""The Telegram side of the Publisher port (bot.play.ports): an outcome rendered and sent — words, a
reaction on the message answered, an edit of a round's deal, a deal or a result with its buttons
(the ended deal's buttons then go) — by one path for handlers, button presses and timers alike.
Every message goes to the forum topic its target names; parse mode and link previews come from
the application's Defaults.

What Telegram says of the chat itself is found once, in `guarded`, around every call that writes,
and *returned* (a `Delivery`'s fate), never acted on here: a group that became a supergroup (the
message is sent there again, where that makes sense: the new id is where it belongs), a chat or
topic the bot can no longer write to; play acts on it (bot.play.places). Another refusal of
one message is logged. None of them reaches the error handler, which would apologise.

What is for one person alone — the answer to a command they wrote where only the bot sees it (an
ephemeral command), a verdict on such an answer — goes to them alone where Telegram takes it, and
solutions go as mathematics (a rich message) where it takes that: `deliver` tries each way in
turn, moving on only when Telegram refuses the new form itself (bot.telegram.bot_api_10.declined;
a chat's refusal is remembered a while, `Refusals`), and ends with the plain public message the
bot has always sent. Any other error on a new form is met as the plain message's would be: a
message refused for another reason is not made public.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from telegram import Bot, InlineKeyboardMarkup, Message, ReplyParameters, Update
from telegram.constants import ChatType
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    NetworkError,
    TelegramError,
)

from bot.play.outcomes import Closed, Dealt, Edited, Marked, Outcome, Refused, Said
from bot.play.ports import Delivery, Fate, Gone, Moved, PageLink, PageLinks, Round, Target
from bot.telegram import bot_api_10, keyboards
from bot.telegram.bot_api_10 import (
    EPHEMERAL,
    NEW_FORMS,
    RICH,
    Declined,
    Refusals,
    Rich,
    WhisperTarget,
)
from bot.telegram.speakers import thread, topic_of

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


class TelegramPublisher:
    """The Publisher port on the bot: renders each outcome as Telegram messages and keyboards,
    sends it to its target, and says what became of it. `pages` gives a deal's button to its
    page (the Mini App), when one is mounted; `paid`: a target's broadcast goes as Telegram's
    paid broadcast (the operator's PAID_BROADCAST)."""

    def __init__(self, bot: Bot, pages: PageLinks | None = None,
                 refusals: Refusals | None = None, paid: bool = False) -> None:
        self.bot = bot
        self.pages = pages
        self.refusals = Refusals() if refusals is None else refusals
        self.paid = paid

    async def show(self, outcome: Outcome, target: Target) -> Delivery:
        shown = _Showing(self.bot, target, self.refusals, self.paid and target.broadcast)
        message_id = await self._show(shown, outcome, target)
        if isinstance(outcome, Closed):  # its deal's buttons go once play recorded the result
            return Delivery(message_id, shown.fate,
                            functools.partial(clear_keyboard, self.bot, outcome.round))
        return Delivery(message_id, shown.fate)

    async def _show(self, shown: _Showing, outcome: Outcome, target: Target) -> int | None:
        if target.public_only and not isinstance(outcome, Dealt | Closed | Edited):
            return None  # the asker is told apart (a press's notice, a page's verdict)
        if isinstance(outcome, Edited):
            if await self.edit_deal(shown, outcome) and \
                    (outcome.reaction is None or await shown.react(outcome.reaction)):
                return None
            if outcome.notice and not target.public_only:  # a status by its alarm has none
                await shown.send(outcome.notice, None)
        elif isinstance(outcome, Marked):
            if not await shown.react(outcome.reaction):
                await shown.send(outcome.text, None)
        elif isinstance(outcome, Closed):
            message = await shown.send(outcome.text, keyboards.result_keyboard(
                outcome.texts, outcome.round.id, outcome.actions), public=True)
            return message.message_id if message is not None else None
        elif isinstance(outcome, Dealt):
            message = await shown.send(outcome.text, keyboards.deal_keyboard(
                outcome.texts, outcome.round.id, outcome.actions, self.page_of(outcome)),
                quote=False, public=True)  # a deal never quotes
            return message.message_id if message is not None else None
        elif isinstance(outcome, Said | Refused):
            await shown.send(outcome.text, None)
        # Noted: its words go into the deal's status when its alarm rings; nothing to send now
        return None

    def page_of(self, outcome: Dealt | Edited) -> PageLink | None:
        return self.pages(outcome.round) if self.pages is not None else None

    async def edit_deal(self, shown: _Showing, outcome: Edited) -> bool:
        """Replace the text of a round's deal message, its buttons kept; False if it cannot be
        (its short form is then said instead). An edit that changes nothing is not one."""
        current = outcome.round
        message_id = current.message_id
        if message_id is None:
            return False
        keyboard = keyboards.deal_keyboard(outcome.texts, current.id, outcome.actions,
                                           self.page_of(outcome))

        async def edit(to: int) -> bool:
            try:
                await self.bot.edit_message_text(outcome.text, to, message_id,
                                                 reply_markup=keyboard)
            except BadRequest as error:
                if "not modified" not in str(error).lower():
                    raise
            return True

        # a migrated group's deal stays in the old group: the notice is said in the new one
        done = await shown.guard(current.chat_id, current.topic, edit, follow=False,
                                 quiet=True)
        return bool(done.value) or isinstance(done.fate, Gone) or done.unsure


class _Showing:
    """One outcome's sends to its target, and the chat's fate they found (the first wins: a
    move must be settled before anything else)."""

    def __init__(self, bot: Bot, target: Target, refusals: Refusals, paid: bool = False) -> None:
        self.bot = bot
        self.target = target
        self.refusals = refusals
        self.paid = paid  # sent as a paid broadcast
        self.fate: Fate | None = None

    async def guard(self, chat_id: int, topic: int, send: Callable[[int], Awaitable[T]], *,
                    follow: bool = True, quiet: bool = False) -> Sent[T]:
        """`guarded`, and a request that timed out or failed in transport taken as one that may
        have arrived: play then neither sends it again (a result twice) nor hears an error (an
        apology for a slow network); a deal whose message id never came back is still on."""
        try:
            done = await guarded(chat_id, topic, send, follow=follow, quiet=quiet)
        except BadRequest:
            raise  # guarded settles every refusal: not the network's
        except NetworkError as error:  # TimedOut included
            log.warning("a message to chat %s may not have arrived: %s", chat_id, error)
            return Sent(unsure=True)
        self.fate = self.fate or done.fate
        return done

    async def send(self, text: str, keyboard: InlineKeyboardMarkup | None,
                   quote: bool | None = None, public: bool = False) -> Message | None:
        """A message to the target's topic: a reply to the message it answers (quoted where
        asked), or a message of its own; unless `public`, to the asker alone where they wrote
        to the bot alone (and Telegram takes it)."""
        target = self.target
        quoted = target.quote if quote is None else quote
        reply = ReplyParameters(target.reply_to, allow_sending_without_reply=True) \
            if target.reply_to is not None and quoted else None
        whisper = target.whisper if isinstance(target, WhisperTarget) and not public else None

        async def send(to: int) -> Message:
            here = to == target.chat_id
            return await self.bot.send_message(
                to, text, reply_markup=keyboard, message_thread_id=thread(target.topic)
                if here else None, reply_parameters=reply if here else None,
                allow_paid_broadcast=True if self.paid else None)

        if isinstance(self.fate, Gone):
            return None  # the chat takes nothing more
        attempts: list[Attempt[Message]] = []
        if whisper is not None:
            async def whispered(to: int) -> Message:
                return await bot_api_10.send_text(self.bot, to, text, whisper,
                                                  topic=thread(target.topic), keyboard=keyboard)
            attempts.append((frozenset({EPHEMERAL}), whispered))
        attempts.append((frozenset(), send))
        return (await self.deliver(attempts)).value

    async def deliver(self, attempts: list[Attempt[T]]) -> Sent[T]:
        """`deliver` to the target, with what `guard` makes of the network and the fate."""
        try:
            done = await deliver(self.target.chat_id, self.target.topic, self.refusals,
                                 attempts)
        except BadRequest:
            raise
        except NetworkError as error:
            log.warning("a message to chat %s may not have arrived: %s", self.target.chat_id,
                        error)
            return Sent(unsure=True)
        self.fate = self.fate or done.fate
        return done

    async def react(self, emoji: str) -> bool:
        """Mark the message answered with a reaction; False when it can't be (none answered,
        or reactions turned off there: words then stand in). Never fails the answer: it is
        stored already."""
        target = self.target
        message_id = target.reply_to
        if message_id is None or target.public_only:
            return False

        async def mark(to: int) -> bool:
            try:
                await self.bot.set_message_reaction(to, message_id, emoji)
            except BadRequest:
                raise
            except NetworkError as error:  # timed out or cut: the answer counts all the same
                log.warning("could not react in chat %s: %s", to, error)
            return True

        done = await self.guard(target.chat_id, target.topic, mark, follow=False, quiet=True)
        return bool(done.value) or isinstance(done.fate, Gone) or done.unsure


async def clear_keyboard(bot: Bot, round_: Round) -> None:
    """Take the Hint and Reveal buttons off an ended round's deal. Only cosmetic: a press on a
    keyboard left behind is refused politely, so a failure here is only logged."""
    if round_.message_id is None:
        return
    try:
        await bot.edit_message_reply_markup(round_.chat_id, round_.message_id, reply_markup=None)
    except TelegramError as error:
        log.info("could not remove the buttons of round %d: %s", round_.id, error)


# --- the face's own replies (what no service publishes: help, boards, panels, pages) -----------

async def reply(update: Update, text: str, quote: bool = True,
                keyboard: InlineKeyboardMarkup | None = None, refusals: Refusals | None = None,
                rich: Rich | None = None) -> Sent[object]:
    """A reply in the message's chat and topic (guarded: in a group that migrated meanwhile,
    a message to the supergroup); the chat's fate found is the caller's to hand to play. To an
    ephemeral message (a command only the bot saw), a message to its sender alone; `rich`: the
    same as a rich message — each where Telegram takes it (`refusals`), else as it always was,
    the plain message, which then quotes nothing (the command is not in the chat)."""
    message = update.effective_message
    if message is None:
        return Sent()
    bot, chat_id, topic = message.get_bot(), message.chat_id, topic_of(message)
    user, query = update.effective_user, update.callback_query
    whisper = bot_api_10.whisper_of(message, user.id if user else None)
    if query is not None:  # said after a press in a group: to its presser alone
        whisper = bot_api_10.pressed_whisper(query) \
            if message.chat.type in (ChatType.GROUP, ChatType.SUPERGROUP) else None
    quote = quote and bot_api_10.ephemeral_id(message) is None

    async def send(to: int) -> object:
        if to == chat_id:
            return await message.reply_text(text, do_quote=quote, reply_markup=keyboard)
        return await bot.send_message(to, text, reply_markup=keyboard)

    attempts: list[Attempt[object]] = []
    if refusals is not None:
        attempts = ways(bot, topic, text, keyboard, whisper, rich,
                        message.message_id if quote else None)
    attempts.append((frozenset(), send))
    return await deliver(chat_id, topic, Refusals() if refusals is None else refusals,
                         attempts)


def ways(bot: Bot, topic: int, text: str, keyboard: InlineKeyboardMarkup | None,
         whisper: bot_api_10.Whisper | None, rich: Rich | None,
         reply_to: int | None) -> list[Attempt[object]]:
    """The ways to send a reply before the plain message, most wanted first: rich and to the
    asker alone, then either alone."""
    found: list[Attempt[object]] = []

    def rich_to(alone: bot_api_10.Whisper | None) -> Callable[[int], Awaitable[object]]:
        assert rich is not None
        return lambda to: bot_api_10.send_rich(bot, to, rich, topic=thread(topic),
                                               keyboard=keyboard, reply_to=reply_to,
                                               whisper=alone)

    if whisper is not None and rich is not None:
        found.append((frozenset({EPHEMERAL, RICH}), rich_to(whisper)))
    if whisper is not None:
        found.append((frozenset({EPHEMERAL}), lambda to: bot_api_10.send_text(
            bot, to, text, whisper, topic=thread(topic), keyboard=keyboard)))
    if rich is not None:
        found.append((frozenset({RICH}), rich_to(None)))
    return found


async def say(bot: Bot, chat_id: int, topic: int, text: str) -> Sent[Message]:
    """A message to a chat's topic that answers nothing (a greeting, an apology), guarded."""
    async def send(to: int) -> Message:
        return await bot.send_message(to, text, message_thread_id=thread(topic if to == chat_id
                                                                         else 0))

    return await guarded(chat_id, topic, send)
