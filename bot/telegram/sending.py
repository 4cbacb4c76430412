"""The Telegram side of the Publisher port (bot.play.ports): an outcome rendered and sent — words, a
reaction on the message answered, an edit of a round's deal, a deal or a result with its buttons
(the ended deal's buttons then go) — by one path for handlers, button presses and timers alike.
Every message goes to the forum topic its target names; parse mode and link previews come from
the application's Defaults.

Each message goes by bot.telegram.delivery: what Telegram says of the chat is found there and
*returned* (a `Delivery`'s fate) for play to act on; what is for one person alone — the answer to
a command they wrote where only the bot sees it (an ephemeral command), a verdict on such an
answer — goes to them alone where Telegram takes it, and solutions as mathematics where it takes
that, else as the plain public message the bot has always sent.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable

from telegram import Bot, InlineKeyboardMarkup, Message, ReplyParameters, Update
from telegram.constants import ChatType
from telegram.error import (
    BadRequest,
    NetworkError,
    TelegramError,
)

from bot.play.outcomes import Closed, Dealt, Edited, Marked, Outcome, Refused, Said
from bot.play.ports import Delivery, Fate, Gone, PageLink, PageLinks, Round, Target
from bot.telegram import bot_api_10, calls, keyboards
from bot.telegram.bot_api_10 import (
    EPHEMERAL,
    RICH,
    Refusals,
    Rich,
    WhisperTarget,
)
from bot.telegram.delivery import Attempt, Sent, T, deliver, guarded
from bot.telegram.speakers import thread, topic_of

log = logging.getLogger(__name__)
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
            return await shown.send(outcome.text, keyboards.result_keyboard(
                outcome.texts, outcome.round.id, outcome.actions), public=True)
        elif isinstance(outcome, Dealt):
            return await shown.send(outcome.text, keyboards.deal_keyboard(
                outcome.texts, outcome.round.id, outcome.actions, self.page_of(outcome)),
                quote=False, public=True)  # a deal never quotes
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
                await calls.edit_message_text(self.bot, to, message_id, outcome.text, keyboard)
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
                   quote: bool | None = None, public: bool = False) -> int | None:
        """A message to the target's topic: a reply to the message it answers (quoted where
        asked), or a message of its own; unless `public`, to the asker alone where they wrote
        to the bot alone (and Telegram takes it). The message's id, if it was sent."""
        target = self.target
        quoted = target.quote if quote is None else quote
        reply = ReplyParameters(target.reply_to, allow_sending_without_reply=True) \
            if target.reply_to is not None and quoted else None
        whisper = target.whisper if isinstance(target, WhisperTarget) and not public else None

        async def send(to: int) -> int:
            here = to == target.chat_id
            return await calls.send_message(
                self.bot, to, text, keyboard=keyboard,
                thread=thread(target.topic) if here else None,
                reply=reply if here else None, paid=self.paid)

        if isinstance(self.fate, Gone):
            return None  # the chat takes nothing more
        attempts: list[Attempt[int]] = []
        if whisper is not None:
            async def whispered(to: int) -> int:
                return (await bot_api_10.send_text(self.bot, to, text, whisper,
                                                   topic=thread(target.topic),
                                                   keyboard=keyboard)).message_id
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
        await calls.edit_reply_markup(bot, round_.chat_id, round_.message_id)
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
