"""The bot's words in English and Simplified Chinese, read from the catalogs in bot/text/locales/.

Messages are data, one JSON file per language with the same keys and {fields}; code asks for
a key and fills the fields with values that are already HTML-safe (see bot.text.markup). Two things
the catalogs say for themselves, so that code never words a count or a chat:
- a count's noun: `{wins:wins}` in a message picks `wins_one` or `wins_other` by the
  language's plural rule (English: one for 1; Chinese has no plural, only `_other`), and
  `{seconds:duration}` says a length of time. Negative whole numbers are shown with "−".
- a private chat: `key_private`, where a language has it, replaces `key` in private chats.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from bot.text import markup

LANGUAGES = ("en", "zh")
DEFAULT_LANGUAGE = "en"
PRIVATE = "_private"  # the suffix of a message's private-chat wording
PLURAL_RULES: dict[str, Callable[[int], str]] = {
    "en": lambda n: "one" if n == 1 else "other",
    "zh": lambda n: "other",
}
PLURAL_FORMS = {"en": ("one", "other"), "zh": ("other",)}  # the forms each rule gives
LANGUAGE_WORDS = {"english": "en", "中文": "zh", "chinese": "zh", "汉语": "zh", "简体中文": "zh"}
LANGUAGE_TAG = re.compile(r"([a-z]{2,3})(?:-[a-z0-9]{1,8})*")  # BCP 47, as far as /lang needs
MINUTES_FROM = 120  # a length of time from 2 minutes on, in whole minutes, is said in minutes


@cache
def catalog(language: str) -> dict[str, str]:
    """Every message of one language, by key: `<language>.json` and the catalogs of single
    features beside it (`<language>.<feature>.json`), which may not reuse one another's keys."""
    folder = resources.files("bot.text") / "locales"
    sources = sorted((entry for entry in folder.iterdir()
                      if entry.name == f"{language}.json"
                      or (entry.name.startswith(f"{language}.") and entry.name.endswith(".json"))),
                     key=lambda entry: entry.name)
    messages: dict[str, str] = {}
    for source in sources:
        part = json.loads(source.read_text(encoding="utf-8"))
        twice = messages.keys() & part.keys()
        if twice:
            raise ValueError(f"{source.name} repeats keys: {sorted(twice)}")
        messages.update(part)
    return messages


def language_of(code: str | None) -> str:
    """The bot's language for a Telegram language code: Chinese for zh-*, English otherwise."""
    return "zh" if code and code.lower().startswith("zh") else DEFAULT_LANGUAGE


def parse_language(text: str) -> str | None:
    """The language a /lang argument names: en, zh, and tags like zh-CN, zh_CN, zh-Hans, en-US
    in any case, or the language's name; None for anything else."""
    word = text.strip().lower().replace("_", "-")
    if word in LANGUAGE_WORDS:
        return LANGUAGE_WORDS[word]
    tag = LANGUAGE_TAG.fullmatch(word)
    return tag.group(1) if tag and tag.group(1) in LANGUAGES else None


class MessageFormatter(string.Formatter):
    """str.format with two more format specs: a plural noun (a word of two letters or more, as
    in `{n:points}`) and `duration`; whole numbers keep their sign as "−"."""

    def __init__(self, texts: Texts) -> None:
        self.texts = texts

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "duration":
            return self.texts.duration(value)
        if len(format_spec) > 1 and format_spec.replace("_", "").isalpha():
            return self.texts.plural(format_spec, value)
        if isinstance(value, int) and not isinstance(value, bool) and not format_spec:
            return markup.signed(value)
        return super().format_field(value, format_spec)


class Texts:
    """The messages of one language (in a private chat or not): `texts("no_round")` is the
    filled-in HTML."""

    def __init__(self, language: str, private: bool = False) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        self.private = private
        self.messages = catalog(self.language)
        self._formatter = MessageFormatter(self)

    def __call__(self, key: str, **params: object) -> str:
        message = self.messages.get(key + PRIVATE) if self.private else None
        return markup.clip(self._formatter.format(message or self.messages[key], **params))

    def plural(self, noun: str, count: int, **params: object) -> str:
        """"1 win", "3 wins": the noun's form for this count (`noun_one`, `noun_other`)."""
        form = PLURAL_RULES[self.language](count)
        return self(f"{noun}_{form}", count=count, **params)

    def duration(self, seconds: float) -> str:
        """A length of time: "1 second", "90 seconds", "5 minutes"."""
        whole = round(seconds)
        if whole >= MINUTES_FROM and whole % 60 == 0:
            return self.plural("minutes", whole // 60)
        return self.plural("seconds", whole)

    def count(self, count: int, shown: int | None = None) -> str:
        """"N distinct solutions" (", M shown" when fewer are listed)."""
        if shown is not None and shown < count:
            return self("count_shown", count=count, shown=shown)
        return self.plural("solutions", count)

    def listing(self, items: list[str], last: str = "list_and") -> str:
        """Items as a sentence lists them: "2, 3 and 4" (`last`: "list_or" for "2, 3 or 4")."""
        if len(items) < 2:
            return "".join(items)
        return self("list_comma").join(items[:-1]) + self(last) + items[-1]

    def seconds(self, seconds: float) -> str:
        """A time taken, to a tenth of a second: "7.9 s"."""
        return self("seconds", seconds=f"{seconds:.1f}")

    def game(self, game: str) -> str:
        return self(f"game_{game}")


TEXTS = {(language, private): Texts(language, private)
         for language in LANGUAGES for private in (False, True)}


def texts_for(language: str | None, private: bool = False) -> Texts:
    """The messages of a language (the default one when it is unknown), for a private chat or
    a group."""
    return TEXTS.get((language or DEFAULT_LANGUAGE, private), TEXTS[DEFAULT_LANGUAGE, private])
