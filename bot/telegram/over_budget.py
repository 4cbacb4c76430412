"""Updates against the budget every door shares (bot.runtime.doors): whose budget an update
draws on, and what its sender hears when it is past it — a press, one short notice a burst (its
spinner stops, and they know why nothing happened); a message or an inline query, nothing: a
reply to each piece of a flood would be the flood's echo, spent from the chat's own share.

Only the first refusal since the person was last admitted is answered: a script's two thousand
presses cost one answerCallbackQuery, not two thousand.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

from telegram import Update
from telegram.error import TelegramError

from bot.runtime import metrics
from bot.runtime.doors import (
    INLINE_DOOR,
    Doors,
    Key,
    Refused,
    chat_key,
    news_key,
    person_key,
    press_key,
)
from bot.text.i18n import language_of, texts_for

log = logging.getLogger(__name__)
NOTICE_CHARACTERS = 200  # Telegram's bound on a press's notice


SENT_BY_SOMEONE = ("message", "edited_message", "callback_query", "inline_query")


def unread(doors: Doors | None, data: object) -> bool:
    """Whether an update, still JSON, is dropped before it is read: its sender is past their
    budget and has nothing more to hear (a press's notice, once a burst, goes by the read path).
    Reading a press or a message into PTB's objects costs far more than this look, and a flood
    is thousands of them."""
    if doors is None or not isinstance(data, dict):
        return False
    kind = next((name for name in SENT_BY_SOMEONE if isinstance(data.get(name), dict)), None)
    if kind is None:
        return False
    item = data[kind]
    sender, on_behalf = item.get("from"), item.get("sender_chat")
    user_id = sender.get("id") if isinstance(sender, dict) else None
    chat_id = on_behalf.get("id") if isinstance(on_behalf, dict) else None
    if type(user_id) is not int:
        return False
    person = person_key(user_id, chat_id if type(chat_id) is int else None)
    press = kind == "callback_query"
    if not doors.unread(person, _drawn_beside(kind, item, user_id), told=press):
        return False  # a press that is to hear its notice goes by the read path
    # a press dropped here is left unanswered by design: counted with those the read path left
    metrics.record_update_dropped(metrics.OVER_BUDGET_UNANSWERED if press else metrics.OVER_BUDGET)
    return True


def _drawn_beside(kind: str, item: dict, user_id: int) -> Key | None:
    """What an update, still JSON, draws on besides its sender (as `keys_of` says of it read):
    the inline queries' door, the chat it came in if a group's or a channel's, or for a press
    its message's group's presses. A fifty-member flood is within each member's budget and
    past the group's: read, each of its updates cost more than the whole refusal."""
    if kind == "inline_query":
        return INLINE_DOOR
    message = item.get("message") if kind == "callback_query" else item
    chat = message.get("chat") if isinstance(message, dict) else None
    chat_id = chat.get("id") if isinstance(chat, dict) else None
    if type(chat_id) is not int:
        return None
    return press_key(chat_id, user_id) if kind == "callback_query" else chat_key(chat_id, user_id)


def keys_of(update: object) -> tuple[Key, Key | None] | None:
    """The person's and the chat's budget an update draws on; None for one from nobody (a
    channel's post, a poll's answer: the update-once gate drops those at once). Someone's
    status changed in a group (chat_member) is news, not their request: it draws on the
    group's news alone. An inline query, asked in no chat, draws on the door every inline query
    shares (doors.INLINE) in its chat's stead; a press in a group, on the group's presses
    (doors.PRESSES), apart from what its members type."""
    user = getattr(update, "effective_user", None)
    chat = getattr(update, "effective_chat", None)
    if getattr(update, "chat_member", None) is not None and chat is not None:
        return news_key(chat.id), None
    if user is None:
        return None
    message = getattr(update, "effective_message", None)
    sender_chat = getattr(message, "sender_chat", None) if message is not None else None
    person = person_key(user.id, sender_chat.id if sender_chat is not None else None)
    if chat is None and getattr(update, "inline_query", None) is not None:
        return person, INLINE_DOOR
    chat_id = chat.id if chat is not None else None
    if getattr(update, "callback_query", None) is not None:
        return person, press_key(chat_id, user.id)
    return person, chat_key(chat_id, user.id)


class Notices:
    """What a refused update's sender hears; the notices on their way are held here, so none is
    collected before it is sent."""

    def __init__(self) -> None:
        self._sending: set[asyncio.Task[None]] = set()

    def refused(self, update: object, refused: Refused) -> None:
        query = update.callback_query if isinstance(update, Update) else None
        quiet = query is not None and not refused.first
        metrics.record_update_dropped(metrics.OVER_BUDGET_UNANSWERED if quiet
                                      else metrics.OVER_BUDGET)
        if query is None or quiet:
            return
        user = update.effective_user if isinstance(update, Update) else None
        texts = texts_for(language_of(user.language_code if user else None))
        said = texts("too_fast")
        task = asyncio.ensure_future(_answer(query.answer(said[:NOTICE_CHARACTERS])))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)


async def _answer(sending: Awaitable[bool]) -> None:
    try:
        await sending
    except (TelegramError, TimeoutError) as error:  # the press is gone: nothing to stop
        log.info("could not answer a press past its budget: %s", error)
