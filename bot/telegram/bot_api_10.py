"""What Bot API 10.1 to 10.3 added that python-telegram-bot 22.8 (Bot API 10.0) does not know, in
one place: ephemeral messages and commands (10.2, addressed by `ephemeral_message_parameters` since
10.3) and rich messages with mathematical blocks (10.1). The day PTB supports 10.3, this module is
what changes; nothing else reads an unknown field or names a new method (docs/bot-api.md).

Two forward-compatible paths carry it: `api_kwargs` on a method PTB knows (sendMessage's
ephemeral_message_parameters, BotCommand's is_ephemeral, a Message's ephemeral_message_id read
back), and `Bot.do_api_request` for a method it does not know (sendRichMessage,
editEphemeralMessageText) or would send without the new parameters (editMessageText with a
rich_message). The latter skips PTB's Defaults: the parse mode and link previews are passed here
explicitly. Whether a chat takes either is not known in advance: `declined` tells Telegram's
refusal of a new form from any other error, and `Refusals` remembers, a while, the chats that
refused.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from telegram import (
    Bot,
    BotCommand,
    CallbackQuery,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    Message,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, EndPointNotFound

from bot.play.ports import Target
from bot.runtime.timed import Timed

EPHEMERAL, RICH = "ephemeral", "rich"  # what a chat may refuse, as `Refusals` keys it
NEW_FORMS = frozenset({EPHEMERAL, RICH})
REMEMBERED = 15 * 60.0  # seconds a chat's refusal is believed before it is tried again
CHATS_KEPT = 10_000  # chats (and what each refused) remembered at most; the oldest go first
# Telegram takes an ephemeral message within 15 seconds of the action it answers (a press, an
# ephemeral command), and the action came before its update reached the bot. An update that has
# waited this long here (a backlog after a restart, a burst) is past them by the time a send
# would arrive: it goes the next way at once, with no refused send asked for first. (What
# waited at Telegram before the bot took it, a press above all, carries no time to tell.)
WHISPER_WITHIN = 14.0
# what the Bot API passes for a message PTB would send with the application's Defaults
TEXT_OPTIONS: dict[str, Any] = {"parse_mode": ParseMode.HTML,
                                "link_preview_options": LinkPreviewOptions(is_disabled=True)}

# Telegram's refusals of a new form (docs/bot-api.md, "When Telegram refuses"): what a 400's
# description says (lower case; PTB drops "Bad Request: "), the feature refused, and whether the
# chat refuses it (remembered) or only this message (the next may go). The Bot API's pages give
# the rules these enforce, not their words: the words are the emulator's (demo/emulator).
REFUSALS: tuple[tuple[str, str, bool], ...] = (
    # the chat takes none: not a group ("for group and supergroup chats only"), or refused there
    ("ephemeral messages can't be sent to this chat", EPHEMERAL, True),
    ("rich messages can't be sent to this chat", RICH, True),
    # a Bot API before 10.1 reads no rich_message: editMessageText has no text then
    ("message text is empty", RICH, True),
    # past "15 seconds of the incoming eligible action", which this message alone answered
    ("no eligible action", EPHEMERAL, False),
    # "any non-bot member": a bot is no receiver
    ("receiver can't be a bot", EPHEMERAL, False),
)

__all__ = ["CHATS_KEPT", "EPHEMERAL", "NEW_FORMS", "REFUSALS", "REMEMBERED", "RICH",
           "WHISPER_WITHIN", "Declined", "Refusals", "Rich", "Whisper", "WhisperTarget",
           "command", "declined", "edit_ephemeral", "edit_rich", "ephemeral_id",
           "pressed_whisper", "send_rich", "send_text", "whisper_of"]


# --- reading what Telegram sends ---------------------------------------------------------------

def ephemeral_id(message: object) -> int | None:
    """The message's `ephemeral_message_id` (Message, 10.2): set on an ephemeral message, which
    only its sender (or receiver) and the bot see; None on a message of the chat."""
    if not isinstance(message, Message):
        return None
    value = message.api_kwargs.get("ephemeral_message_id")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class Whisper:
    """How an ephemeral message is addressed (EphemeralMessageParameters, 10.3): to one receiver,
    answering either an ephemeral message of theirs (`reply_to`, its ephemeral_message_id, sent
    back in reply_parameters) or a button press (`callback_query_id`). Telegram takes one from
    any bot only within 15 seconds of that action."""

    receiver: int
    reply_to: int | None = None
    callback_query_id: str | None = None

    def parameters(self) -> dict[str, Any]:
        found: dict[str, Any] = {"receiver_user_id": self.receiver}
        if self.callback_query_id is not None:
            found["callback_query_id"] = self.callback_query_id
        return found

    def reply_parameters(self) -> dict[str, Any] | None:
        return {"ephemeral_message_id": self.reply_to} if self.reply_to is not None else None


def whisper_of(message: object, sender: int | None) -> Whisper | None:
    """The way back to the sender of an ephemeral message (None: the message is the chat's)."""
    found = ephemeral_id(message)
    return Whisper(sender, reply_to=found) if found is not None and sender else None


def pressed_whisper(query: CallbackQuery) -> Whisper:
    """The way to answer a press with a message to the presser alone."""
    return Whisper(query.from_user.id, callback_query_id=query.id)


@dataclass(frozen=True)
class WhisperTarget(Target):
    """A target whose asker wrote where only the bot sees it (an ephemeral command): what is for
    the asker goes to them alone (`whisper`), what the chat must see goes to the chat, and
    nothing quotes the asker's message, which is not in the chat."""

    whisper: Whisper | None = None


# --- declaring commands ------------------------------------------------------------------------

def command(name: str, description: str, ephemeral: bool = False) -> BotCommand:
    """A menu line; `ephemeral`: the command is seen by the bot alone (BotCommand.is_ephemeral,
    10.2), and the answer can go to its sender alone."""
    return BotCommand(name, description, api_kwargs={"is_ephemeral": True} if ephemeral
                      else None)


# --- rich messages -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Rich:
    """A rich message as blocks (InputRichMessage.blocks, 10.2): plain paragraphs and
    mathematical expressions in LaTeX (InputRichBlockParagraph, ...MathematicalExpression)."""

    blocks: tuple[tuple[str, str], ...]  # ("paragraph", text) or ("math", LaTeX)

    @staticmethod
    def of(before: Sequence[str], formulas: Sequence[str], after: Sequence[str] = ()) -> Rich:
        return Rich((*(("paragraph", p) for p in before if p),
                     *(("math", f) for f in formulas),
                     *(("paragraph", p) for p in after if p)))

    def input(self) -> dict[str, Any]:
        return {"blocks": [{"type": "paragraph", "text": body} if kind == "paragraph" else
                           {"type": "mathematical_expression", "expression": body}
                           for kind, body in self.blocks]}


# --- sending -----------------------------------------------------------------------------------

async def _call(bot: Bot, method: str, params: dict[str, Any]) -> Any:
    """A method PTB does not know, or knows without these parameters. PTB warns that a method
    it knows has its own function; that function would drop the parameters it does not know."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Please use 'Bot\.")
        return await bot.do_api_request(method, {k: v for k, v in params.items()
                                                 if v is not None})


async def send_text(bot: Bot, chat_id: int, text: str, whisper: Whisper, *,
                    topic: int | None = None,
                    keyboard: InlineKeyboardMarkup | None = None) -> Message:
    """sendMessage to `whisper`'s receiver alone (ephemeral_message_parameters, 10.3); PTB's own
    method, so the Defaults (HTML, no link previews) apply."""
    extra: dict[str, Any] = {"ephemeral_message_parameters": whisper.parameters()}
    if (replied := whisper.reply_parameters()) is not None:
        extra["reply_parameters"] = replied
    return await bot.send_message(chat_id, text, reply_markup=keyboard,
                                  message_thread_id=topic, api_kwargs=extra)


async def send_rich(bot: Bot, chat_id: int, rich: Rich, *, topic: int | None = None,
                    keyboard: InlineKeyboardMarkup | None = None, reply_to: int | None = None,
                    whisper: Whisper | None = None) -> int | None:
    """sendRichMessage (10.1; to one receiver with `whisper`, 10.3): the message id sent."""
    replied: dict[str, Any] | None = None
    if whisper is not None:
        replied = whisper.reply_parameters()
    elif reply_to is not None:
        replied = {"message_id": reply_to, "allow_sending_without_reply": True}
    sent = await _call(bot, "sendRichMessage", {
        "chat_id": chat_id, "rich_message": rich.input(), "message_thread_id": topic,
        "reply_markup": keyboard, "reply_parameters": replied,
        "ephemeral_message_parameters": whisper.parameters() if whisper else None})
    return sent.get("message_id") if isinstance(sent, dict) else None


async def edit_rich(bot: Bot, chat_id: int, message_id: int, rich: Rich,
                    keyboard: InlineKeyboardMarkup | None) -> None:
    """editMessageText with rich_message instead of text (10.1)."""
    await _call(bot, "editMessageText", {"chat_id": chat_id, "message_id": message_id,
                                         "rich_message": rich.input(), "reply_markup": keyboard})


async def edit_ephemeral(bot: Bot, chat_id: int, receiver: int, message_id: int, *,
                         text: str | None = None, rich: Rich | None = None,
                         keyboard: InlineKeyboardMarkup | None = None) -> None:
    """editEphemeralMessageText (10.2; rich_message in it, 10.3): an ephemeral message is
    edited only so, never with editMessageText."""
    params: dict[str, Any] = {"chat_id": chat_id, "receiver_user_id": receiver,
                              "ephemeral_message_id": message_id, "reply_markup": keyboard}
    if rich is not None:
        params["rich_message"] = rich.input()
    else:
        params.update(text=text, **TEXT_OPTIONS)
    await _call(bot, "editEphemeralMessageText", params)


# --- what chats refused ------------------------------------------------------------------------

@dataclass(frozen=True)
class Declined:
    """Telegram refused a message's new form: the feature (None: the Bot API server has no
    such method, so whichever the method needed), and whether the chat takes none of it
    (`chats`: remembered a while) or only this message was refused (the next may go)."""

    feature: str | None
    chats: bool = True


def declined(error: Exception, features: frozenset[str] = NEW_FORMS) -> Declined | None:
    """What `error`, met by a send needing `features`, says of them: a refusal of one of
    them (REFUSALS), a Bot API server without the method (404), or None — anything else is
    the message's own (too long, the chat gone or moved, the bot blocked, the network), and
    goes the plain message's way."""
    if isinstance(error, EndPointNotFound):
        return Declined(None)
    if not isinstance(error, BadRequest):
        return None
    said = str(error).lower()
    return next((Declined(feature, chats) for words, feature, chats in REFUSALS
                 if feature in features and words in said), None)


class Refusals:
    """The chats that lately refused an ephemeral message or a rich message: no Bot API field
    says in advance which chats take them, so each is tried, and a refusal is believed for
    `seconds` (then tried again). Bounded: past `kept` chats the oldest go (tried again)."""

    def __init__(self, seconds: float = REMEMBERED, kept: int = CHATS_KEPT,
                 timer: Callable[[], float] = time.monotonic) -> None:
        self._refused: Timed[tuple[int, str], bool] = Timed(kept, seconds, timer)

    def allows(self, chat_id: int, feature: str) -> bool:
        return (chat_id, feature) not in self._refused

    def refused(self, chat_id: int, feature: str) -> None:
        self._refused[(chat_id, feature)] = True

    def __len__(self) -> int:
        return len(self._refused)
