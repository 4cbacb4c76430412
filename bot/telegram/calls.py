"""A round's own Bot API calls — its deal, its result, the deal's edits, the buttons taken off —
made with the parameters PTB's methods would send, through the same request path (`Bot._post`:
the application's Defaults, the rate limiter, the bot's transport, PTB's errors), but with the
sent message's echo read as its id alone, and the keyboard written as PTB writes it, faster.

PTB's `send_message` and `edit_message_*` read every echo into a Message: about 100 fields set
one by one, 130 µs even for the echo's few kept fields (bot.telegram.polling.echo), against a
whole update's 2.4 ms of the event loop's CPU — one such call an update in a burst of rounds. The
round reads only the message's id. Every other message (help, boards, pages, replies to a
command) still goes by PTB's methods.
"""

from __future__ import annotations

from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters, WebAppInfo
from telegram._utils.defaultvalue import DEFAULT_NONE

# Left for the bot's Defaults (bot.telegram.app.DEFAULTS) to fill, as PTB's methods leave them:
# `_post` puts each Defaults value in, or drops the parameter when the Defaults have none.
# (a keyboard's edit takes no link preview's: PTB's leaves it out)
KEYBOARD_DEFAULTED = {"parse_mode": DEFAULT_NONE, "disable_notification": DEFAULT_NONE,
                      "protect_content": DEFAULT_NONE}
DEFAULTED = {**KEYBOARD_DEFAULTED, "link_preview_options": DEFAULT_NONE}


# A button's fields in the order PTB writes them (its slots, sorted); those written as they are,
# and the one object among them the round's buttons use (a Mini App's, as {"url": ...}).
BUTTON_FIELDS = tuple(sorted(InlineKeyboardButton.__slots__))
PLAIN = frozenset({"callback_data", "icon_custom_emoji_id", "pay", "style", "switch_inline_query",
                   "switch_inline_query_current_chat", "text", "url"})


def keyboard_json(markup: InlineKeyboardMarkup) -> dict[str, Any]:
    """The keyboard as PTB writes it (`to_dict`), for the buttons a round shows, in an eighth of
    the time (PTB's walks every field of every object generically: 50-90 us a deal's keyboard,
    two or three a round); any other button, or one with fields PTB does not know, is PTB's."""
    if markup.api_kwargs:
        return markup.to_dict()
    rows = []
    for row in markup.inline_keyboard:
        written = []
        for button in row:
            if button.api_kwargs:
                return markup.to_dict()
            fields: dict[str, Any] = {}
            for key in BUTTON_FIELDS:
                value = getattr(button, key)
                if value is None:
                    continue
                if key in PLAIN:
                    fields[key] = value
                elif isinstance(value, WebAppInfo) and not value.api_kwargs:
                    fields[key] = {"url": value.url}
                else:
                    return markup.to_dict()
            written.append(fields)
        rows.append(written)
    return {"inline_keyboard": rows}


def message_id_of(echo: Any) -> int | None:
    """The id in a sent or edited message's echo (None for an inline message's True)."""
    return echo.get("message_id") if isinstance(echo, dict) else None


async def send_message(bot: Bot, chat_id: int, text: str, *,
                       keyboard: InlineKeyboardMarkup | None = None,
                       thread: int | None = None, reply: ReplyParameters | None = None,
                       paid: bool = False) -> int:
    """sendMessage as `Bot.send_message` sends it; the new message's id."""
    data: dict[str, Any] = {"chat_id": chat_id, "text": text, **DEFAULTED,
                            "reply_markup": written(keyboard), "message_thread_id": thread,
                            "reply_parameters": reply,
                            "allow_paid_broadcast": True if paid else None}
    sent = message_id_of(await bot._post("sendMessage", data))
    if sent is None:
        raise ValueError("Telegram's answer to sendMessage named no message")
    return sent


async def edit_message_text(bot: Bot, chat_id: int, message_id: int, text: str,
                            keyboard: InlineKeyboardMarkup | None = None) -> None:
    """editMessageText as `Bot.edit_message_text` sends it (PTB's BadRequest when Telegram
    refuses, "message is not modified" included)."""
    await bot._post("editMessageText", {"chat_id": chat_id, "message_id": message_id,
                                        "text": text, **DEFAULTED,
                                        "reply_markup": written(keyboard)})


async def edit_reply_markup(bot: Bot, chat_id: int, message_id: int,
                            keyboard: InlineKeyboardMarkup | None = None) -> None:
    """editMessageReplyMarkup as `Bot.edit_message_reply_markup` sends it; no keyboard takes
    the message's buttons off."""
    await bot._post("editMessageReplyMarkup", {"chat_id": chat_id, "message_id": message_id,
                                               **KEYBOARD_DEFAULTED,
                                               "reply_markup": written(keyboard)})


def written(keyboard: InlineKeyboardMarkup | None) -> dict[str, Any] | None:
    return None if keyboard is None else keyboard_json(keyboard)
