"""The demo's buttons: which button `/press LABEL` names, and where a button that sends no press
to the bot leads. Telegram's client does something of its own for those (opens a link, a Mini
App, a chat to share into); the demo says what, and opens a Mini App's page on its local port.

Pure functions over the button objects the emulator recorded (Telegram's InlineKeyboardButton as
JSON): nothing here talks to the bot.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

# the categories a label's decoration is made of: emoji and other symbols, the variation
# selectors and joiners that shape them, punctuation around them ("[", "…")
DECORATION = ("So", "Sk", "Sm", "Mn", "Me", "Cf", "Ps", "Pe", "Po", "Pd")
TELEGRAM_HOSTS = ("t.me", "telegram.me", "www.t.me")


def bare(label: str) -> str:
    """A label without its emoji, brackets and case: "✏️ Answer privately" and "answer
    privately" read alike. Letters and digits stay (a label that is all symbols, "▶", has
    none: it is pressed by the symbol itself)."""
    kept = "".join(c if unicodedata.category(c) not in DECORATION else " " for c in label)
    return " ".join(kept.split()).casefold()


def names(wanted: str, label: str) -> bool:
    """Whether what was typed after /press names this label: the label itself in any case,
    with or without brackets, or the label without its emoji."""
    typed = wanted.strip().removeprefix("[").removesuffix("]").strip()
    if not typed:
        return False
    return typed.casefold() == label.strip().casefold() or (bare(typed) != "" and
                                                           bare(typed) == bare(label))


def part_of(wanted: str, label: str) -> bool:
    """Whether what was typed after /press is a part of this label, word for word from a word's
    start ("yes" of "✅ Yes, delete", "solutions" of "Show all solutions"), read as `bare`."""
    typed = bare(wanted.strip().removeprefix("[").removesuffix("]"))
    return typed != "" and f" {typed}" in f" {bare(label)}"


@dataclass(frozen=True)
class Lead:
    """Where a button leads that sends the bot no press: `kind` says what the client does —
    "press" (callback data: the bot's), "page" (a Mini App page: `target` its start parameter
    or the web_app URL's query), "chat" (a private chat with the bot started with /start
    `target`), "group" (the bot added to a group), "link" (a web address), "login" (a login
    page), "share" (an inline query typed into a chat the person picks: `target` the query),
    "share_here" (typed into this chat), "copy" (text copied), "telegram" (a game or a
    payment, Telegram's own)."""

    kind: str
    target: str


def lead_of(button: dict, bot_username: str) -> Lead:
    """What pressing this button does."""
    if "callback_data" in button:
        return Lead("press", str(button["callback_data"]))
    if "web_app" in button:
        return Lead("page", "?" + urlsplit(str(button["web_app"].get("url", ""))).query)
    if "login_url" in button:
        return Lead("login", str(button["login_url"].get("url", "")))
    if "switch_inline_query" in button:
        return Lead("share", str(button["switch_inline_query"]))
    if "switch_inline_query_chosen_chat" in button:
        return Lead("share", str(button["switch_inline_query_chosen_chat"].get("query", "")))
    if "switch_inline_query_current_chat" in button:
        return Lead("share_here", str(button["switch_inline_query_current_chat"]))
    if "copy_text" in button:
        return Lead("copy", str(button["copy_text"].get("text", "")))
    if "url" in button:
        return link_of(str(button["url"]), bot_username)
    return Lead("telegram", "")


def link_of(url: str, bot_username: str) -> Lead:
    """A URL button: the bot's own deep links read as what Telegram does with them (its
    Direct Link Mini App, /start with a payload, the bot added to a group); anything else is
    a web address."""
    parts = urlsplit(url)
    path = [p for p in parts.path.split("/") if p]
    asked = {key: values[0] for key, values in parse_qs(parts.query).items()}
    ours = parts.hostname in TELEGRAM_HOSTS and path and \
        path[0].casefold() == bot_username.casefold()
    if not ours:
        return Lead("link", url)
    if len(path) == 2:  # t.me/<bot>/<app>?startapp=...: the Mini App
        return Lead("page", asked.get("startapp", ""))
    if "startgroup" in asked:
        return Lead("group", asked["startgroup"])
    return Lead("chat", asked.get("start", ""))


assert bare("✏️ Answer privately") == "answer privately" and bare("▶") == ""
assert names("answer PRIVATELY", "✏️ Answer privately") and names("[▶]", "▶")
assert not names("answer", "✏️ Answer privately") and not names("", "▶")
assert lead_of({"text": "x", "url": "https://t.me/b?start=daily"}, "b") == Lead("chat", "daily")
assert lead_of({"text": "x", "url": "https://t.me/b/play?startapp=u7"}, "B") == Lead("page", "u7")
