"""The bot's words in English and Simplified Chinese, read from the catalogs in bot/locales/.

Messages are data, one JSON file per language with the same keys and {fields}; code asks for
a key and fills the fields with values that are already HTML-safe (see bot.markup).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from bot import markup

LANGUAGES = ("en", "zh")
DEFAULT_LANGUAGE = "en"


@cache
def catalog(language: str) -> dict[str, str]:
    """Every message of one language, by key."""
    source = resources.files("bot") / "locales" / f"{language}.json"
    return json.loads(source.read_text(encoding="utf-8"))


def language_of(code: str | None) -> str:
    """The bot's language for a Telegram language code: Chinese for zh-*, English otherwise."""
    return "zh" if code and code.lower().startswith("zh") else DEFAULT_LANGUAGE


class Texts:
    """The messages of one language: `texts("no_round")` is the filled-in HTML."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        self.messages = catalog(self.language)

    def __call__(self, key: str, **params: object) -> str:
        return markup.clip(self.messages[key].format(**params))

    def count(self, count: int, shown: int | None = None) -> str:
        """"N distinct solutions" (", M shown" when fewer are listed)."""
        if count == 1:
            return self("count_one")
        if shown is not None and shown < count:
            return self("count_shown", count=count, shown=shown)
        return self("count_many", count=count)

    def seconds(self, seconds: float) -> str:
        return self("seconds", seconds=f"{seconds:.1f}")

    def game(self, game: str) -> str:
        return self(f"game_{game}")


TEXTS = {language: Texts(language) for language in LANGUAGES}


def texts_for(language: str | None) -> Texts:
    return TEXTS.get(language or DEFAULT_LANGUAGE, TEXTS[DEFAULT_LANGUAGE])
