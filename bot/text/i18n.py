"""The bot's words in every language it speaks, from the gettext catalogs in bot/text/locales/
(catalogs.py).

Code asks for a message by key and fills its fields with values that are already HTML-safe (see
bot.text.markup). What CLDR knows comes from Babel, so that code never words a count, a number or
a length of time, and no catalog hard-codes a rule:
- a count's noun: `{wins:wins}` picks the form of the gettext plural wins_one/wins_other for the
  language's CLDR category (Russian: one, few, many, other; Chinese: other only);
- `{seconds:duration}` says a length of time ("90 seconds", "5 minutes") with CLDR's unit words,
  `{n:seconds}` and `{n:minutes}` a number of them;
- a number is grouped, and a decimal written, as the language does ("1 000 000", "7,9"),
  negative ones with "−";
- `{languages}` (filled in by itself) lists every language's own name and its /lang tag;
- digits, hands, expressions and commands written as the language writes them (bot.text.scripts:
  Persian digits in `fa`, left-to-right isolates in `fa` and `ar`).
A message may be worded apart for private chats: `key_private`, where a language has it, replaces
`key` there.
"""

from __future__ import annotations

import re
import string
from datetime import timedelta
from decimal import Decimal
from functools import cache, lru_cache
from typing import Any, Literal

from babel.dates import format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from bot.text import markup
from bot.text.catalogs import LIST_SPECS, PRIVATE, Catalog, load_catalog
from bot.text.language_facts import facts_of
from bot.text.languages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    language_of,
    locale_of,
    parse_language,
    plural_category,
)

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "PRIVATE", "Texts", "catalog", "language_of",
           "parse_language", "texts_for"]

MINUTES_FROM = 120  # a length of time from 2 minutes on, in whole minutes, is said in minutes
NEVER = 10 ** 12  # a threshold no length reaches: format_timedelta keeps the unit asked for
AMBIENT = "languages"  # the field a message may use without the code passing it
NUMBER = (int, float, Decimal)
PARSED_KEPT = 8192  # messages read into pieces (the catalogs hold about 600 a language)
# numbers written, a language: Babel reads its pattern and symbols afresh each time (a tenth of
# a ms, a few numbers a message); the bot writes the same few (a hand, points, seconds) again
NUMBERS_KEPT = 2048
# format specs for a number of CLDR's units ("{seconds:seconds}": "60 seconds", "60 секунд")
# where a Chinese word meets a command or a number in a list ("/play或/solve"): a space, as
# the catalogs write it, and so Telegram reads "/play" as a command, not a word run on
HAN_MEETS_LATIN = re.compile(r"(?<=[\w/])(?<![\u3400-\u9fff])(?=[\u3400-\u9fff])|"
                             r"(?<=[\u3400-\u9fff])(?=[/\w])(?![\u3400-\u9fff])")
UNITS: dict[str, Literal["second", "minute"]] = {"seconds": "second", "minutes": "minute"}


@cache
def _catalog(language: str) -> Catalog:
    return load_catalog(language)


def catalog(language: str) -> dict[str, str]:
    """Every message the language speaks, by key, English standing in for any it lacks: each
    plural form as `<noun>_<category>` (points_one, points_few, ...) and `lang_name`, the
    language's own name from CLDR."""
    english, own = _catalog(DEFAULT_LANGUAGE), _catalog(language)
    messages = {**english.messages, **own.messages, "lang_name": facts_of(language).own_name}
    for noun in english.plurals.keys() | own.plurals.keys():
        speaker = own if noun in own.plurals else english
        messages.update(zip((f"{noun}_{category}" for category in
                             facts_of(speaker.language).categories), speaker.plurals[noun],
                            strict=False))
    return messages


@lru_cache(maxsize=PARSED_KEPT)
def parsed(message: str) -> tuple[tuple[str, str | None, str, str | None], ...] | None:
    """A message's pieces as str.format reads them (text, field, spec, conversion), read once
    (the catalogs' messages are a closed set); None for one whose field or spec needs more than
    a name (`{a.b}`, `{0}`, a nested `{}`): those go by string.Formatter itself."""
    pieces = tuple(string.Formatter().parse(message))
    for _, field, spec, _ in pieces:
        if field is not None and (not field.isidentifier() or "{" in (spec or "")):
            return None
    return tuple((text, field, spec or "", conversion) for text, field, spec, conversion in pieces)


class MessageFormatter(string.Formatter):
    """str.format with a few more format specs: a plural noun (`{n:points}`), `duration`,
    `seconds` and `minutes`; numbers as the language writes them."""

    def __init__(self, texts: Texts) -> None:
        self.texts = texts

    def fill(self, message: str, params: dict[str, Any]) -> str:
        """`format(message, **params)`, from the message's pieces read once (`parsed`): every
        message the bot writes is filled here, and string.Formatter reads it afresh each time
        in Python, a few percent of an update's CPU."""
        pieces = parsed(message)
        if pieces is None:
            return self.format(message, **params)
        out = []
        for text, field, spec, conversion in pieces:
            out.append(text)
            if field is not None:
                value = params[field]
                if conversion is not None:
                    value = self.convert_field(value, conversion)
                out.append(self.format_field(value, spec))
        return "".join(out)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "duration":
            return self.texts.duration(value)
        if format_spec in UNITS:
            return self.texts.unit(value, UNITS[format_spec])
        if format_spec in LIST_SPECS:  # items joined by the language's "and" or "or"
            return HAN_MEETS_LATIN.sub(" ", format_list(
                [str(item) for item in value], LIST_SPECS[format_spec], self.texts.locale))
        if format_spec.replace("_", "").isalpha():
            return self.texts.plural(format_spec, value)
        if isinstance(value, NUMBER) and not isinstance(value, bool) and not format_spec:
            return self.texts.number(value)
        return super().format_field(value, format_spec)


class Texts:
    """The messages of one language (in a private chat or not): `texts("no_round")` is the
    filled-in HTML."""

    def __init__(self, language: str, private: bool = False) -> None:
        self.language = language if language in LANGUAGES else language_of(language)
        self.private = private
        self.locale = locale_of(self.language)
        self.script = facts_of(self.language).script
        self.messages = catalog(self.language)
        self._own = _catalog(self.language)
        self._formatter = MessageFormatter(self)
        self._written: dict[tuple[str, type, str], str] = {}  # (how, its type, its text) -> shown
        # a message asked for with nothing to fill in is the same every time: filled once (a
        # group's page names thirty achievements and their rules; at most the catalog's keys)
        self._plain: dict[str, str] = {}

    def __call__(self, key: str, **params: object) -> str:
        if not params:
            shown = self._plain.get(key)
            if shown is None:
                shown = self._plain[key] = self._filled(key, params)
            return shown
        return self._filled(key, params)

    def _filled(self, key: str, params: dict[str, object]) -> str:
        message = self.messages.get(key + PRIVATE) if self.private else None
        message = message or self.messages[key]
        if AMBIENT not in params and "{" + AMBIENT in message:
            params[AMBIENT] = self.languages()
        return markup.clip(self.script.written(self._formatter.fill(message, params)))

    def written(self, html: str) -> str:
        """HTML made without a message (a solution's line, `<code>8÷(3−8÷3)</code> = 24`) as
        the language writes it: its digits, and left to right where it reads right to left."""
        return self.script.written(html)

    def plural(self, noun: str, count: object, **params: object) -> str:
        """"1 win", "3 wins"; "1 победа", "3 победы", "5 побед": the noun's form for the
        count's CLDR category (a count may come as the text of a number)."""
        count = count if isinstance(count, NUMBER) else Decimal(str(count))
        speaker = self._own if noun in self._own.plurals else _catalog(DEFAULT_LANGUAGE)
        category = plural_category(speaker.language, count)
        forms = dict(zip(facts_of(speaker.language).categories, speaker.plurals[noun],
                         strict=True))
        message = forms.get(category) or forms["other"]
        return self._formatter.fill(message, {"count": count, **params})

    def number(self, value: float | Decimal) -> str:
        """A number as the language writes it: grouped ("1,000,000", "1 000 000"), with its
        decimal sign, negative with "−"."""
        key = ("number", type(value), str(value))  # its text: -0.0 and Decimal("1.50") apart
        shown = self._written.get(key)
        if shown is None:
            shown = self._keep(key, self.script.number_digits(markup.signed(format_decimal(
                value, locale=self.locale, numbering_system="default"))))
        return shown

    def _keep(self, key: tuple[str, type, str], shown: str) -> str:
        """A number written, remembered; at NUMBERS_KEPT the memo starts again."""
        if len(self._written) >= NUMBERS_KEPT:
            self._written.clear()
        self._written[key] = shown
        return shown

    def percent(self, share: float) -> str:
        """A share (0.5) as the language writes a percentage: "50%", "50 %", "۵۰٪". The sign is
        CLDR's for the language's own numbering system (arabext: ٪, with its ٫ and ٬): Babel's
        format_percent writes the Latin "%" whatever the system, so it is put back here."""
        written = format_percent(share, locale=self.locale, numbering_system="default")
        symbols = self.locale.number_symbols
        own = symbols.get(self.locale.default_numbering_system, {}).get("percentSign")
        latin = symbols.get("latn", {}).get("percentSign")
        if own and latin and own != latin:
            written = written.replace(latin, own)
        return self.script.number_digits(written)

    def unit(self, count: float, unit: Literal["second", "minute"]) -> str:
        """A number of seconds or minutes in CLDR's words: "90 seconds", "5 минут"."""
        return self.script.number_digits(format_timedelta(
            timedelta(**{f"{unit}s": round(count)}), threshold=NEVER, granularity=unit,
            format="long", locale=self.locale))

    def duration(self, seconds: float) -> str:
        """A length of time: "1 second", "90 seconds", "5 minutes"."""
        whole = round(seconds)
        if whole >= MINUTES_FROM and whole % 60 == 0:
            return self.unit(whole // 60, "minute")
        return self.unit(whole, "second")

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
        """A time taken, to a tenth of a second: "7.9 s", "7,9 с"."""
        tenths = round(seconds, 1)
        key = ("seconds", float, str(tenths))
        written = self._written.get(key)
        if written is None:
            written = self._keep(key, format_decimal(tenths, format="#,##0.0", locale=self.locale,
                                                     numbering_system="default"))
        return self("seconds", seconds=written)

    def game(self, game: str) -> str:
        return self(f"game_{game}")

    def languages(self) -> str:
        """Every language the bot speaks, by its own name, with the /lang that chooses it."""
        return self.listing([self("lang_option", name=facts_of(language).own_name, tag=language)
                             for language in LANGUAGES], "list_or")


@cache
def _texts(language: str, private: bool) -> Texts:
    """Built the first time a language is asked for: the solver's worker processes import this
    module with the games' code and never read a catalog."""
    return Texts(language, private)


def texts_for(language: str | None, private: bool = False) -> Texts:
    """The messages of a language (the nearest one to a tag it does not know, else the default
    one), for a private chat or a group."""
    known = language if language in LANGUAGES else language_of(language)
    return _texts(known, private)
